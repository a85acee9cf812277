"""Where the tests find the checkout and the shared corpus. A module, not conftest: tests import
these names, and conftest is pytest's to load."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("INGEST_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus"
SEEDS = SHARED / "seeds"
FIXTURES = ROOT / "tests" / "fixtures"  # small files made for the loader tests (fixtures/make_fixtures.py)
