"""Where the tests and the benchmarks find the checkout and the shared data: one setting,
INGEST_SHARED (default: shared/ beside the checkout). A module, not conftest: tests import these
names (and the benchmarks, through benchmarks/shared_paths.py), and conftest is pytest's to load."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("INGEST_SHARED") or ROOT.parent / "shared")
CORPUS = SHARED / "corpus"
SEEDS = SHARED / "seeds"
RAGBENCH = SHARED / "ragbench"  # questions and answers on real PDFs, with their scorer (tools/rag_eval.py)
PDFEVAL = SHARED / "pdfeval"  # PDFs with ground truth, with their scorer (tools/)
BENCH = SHARED / "bench"  # larger sets for the speed benchmarks (markdown-pypi)
FIXTURES = ROOT / "tests" / "fixtures"  # small files made for the loader tests (fixtures/make_fixtures.py)
# Set by CI: a run that selects tests on the shared data fails when it is missing, rather than
# leaving them out (see conftest.py).
REQUIRE_CORPUS = os.environ.get("INGEST_REQUIRE_CORPUS", "") not in ("", "0")
