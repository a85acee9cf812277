"""A real index for search tests: `ingest run` over a copy of the bundled examples/ folder (Markdown,
text, PDF, Word and Excel), each file given a known modification time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from tests.paths import ROOT

EXAMPLES = ROOT / "examples"

MODIFIED = {
    "travel-policy.docx": "2023-06-01T12:00:00",
    "incident-review.pdf": "2024-03-03T09:00:00",
    "planning.xlsx": "2024-09-15T08:00:00",
    "release-notes.txt": "2025-01-10T10:00:00",
    "paediatric-fever.md": "2025-06-30T23:30:00",
    "handbook/delivery.md": "2025-07-01T00:30:00",
}
"""UTC modification times the copies get: each document on its own side of some date."""


def ingest(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ingest", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def build(where: Path) -> Path:
    """Copy examples/ into `where`/docs, run `ingest run` over it, and return the index."""
    docs = where / "docs"
    shutil.copytree(EXAMPLES, docs)
    assert sorted(str(p.relative_to(docs)) for p in docs.rglob("*") if p.is_file()) == sorted(MODIFIED)
    for name, when in MODIFIED.items():
        stamp = datetime.fromisoformat(when).replace(tzinfo=UTC).timestamp()
        os.utime(docs / name, (stamp, stamp))
    index = where / "index.sqlite"
    proc = ingest("run", docs, "--index", index, "--quiet", "--log-format", "text")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return index


def index_folder(docs: Path, where: Path) -> Path:
    """`ingest run` over the folder `docs` by a job file with its index and state in `where`; the index."""
    cfg = where / "job.json"
    job = {"source": {"local": {"path": str(docs)}}, "sink": {"sqlite": str(where / "index.sqlite")}}
    cfg.write_text(json.dumps(job | {"state": str(where / "state.sqlite")}), encoding="utf-8")
    done = ingest("run", cfg, "--quiet")
    assert done.returncode == 0, done.stdout + done.stderr
    return where / "index.sqlite"
