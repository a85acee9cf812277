"""Where the benchmarks find the shared data: the tests' one setting (tests/paths.py, INGEST_SHARED),
so a benchmark and the test that pins its figures read the same folder."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # a benchmark runs as a script: benchmarks/ is on the path, the checkout is not
    sys.path.insert(0, str(ROOT))

from tests.paths import BENCH, CORPUS, PDFEVAL, RAGBENCH, SHARED  # noqa: E402

__all__ = ["BENCH", "CORPUS", "PDFEVAL", "RAGBENCH", "ROOT", "SHARED"]
