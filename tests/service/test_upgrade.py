"""An upgrade of ingest re-processes exactly the documents whose output can change: the code of
each document's loader, cleaners and the chunker is part of its settings stamp. The test runs
`ingest run` from a copy of the package and edits the copy, as an upgrade would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ingest

PACKAGE = Path(ingest.__file__).resolve().parent
"""The package these tests import (the checkout, or what PYTHONPATH points at)."""


def counts(stdout: str) -> tuple[int, int]:
    table = {line.split()[0]: line.split()[-1] for line in stdout.splitlines() if line.split()}
    return int(table["changed"]), int(table["unchanged"])


def test_editing_a_loader_reprocesses_its_format_only_and_the_chunker_everything(tmp_path):
    shutil.copytree(PACKAGE, tmp_path / "pkg" / "ingest", ignore=shutil.ignore_patterns("__pycache__"))
    copy = tmp_path / "pkg" / "ingest"
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Leave\n\nTwenty days of paid leave.\n")
    (docs / "b.md").write_text("# Travel\n\nBook trains, not flights.\n")
    (docs / "c.txt").write_text("Quarterly review is due in March.\n")
    cfg = tmp_path / "ingest.yaml"
    cfg.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'index.sqlite'}}}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n"
    )
    environ = dict(os.environ, PYTHONPATH=str(tmp_path / "pkg"))

    def ingest_run(*args: str) -> tuple[int, int]:
        proc = subprocess.run(
            [sys.executable, "-m", "ingest", "run", str(cfg), "--quiet", *args],
            capture_output=True,
            text=True,
            env=environ,
            cwd=tmp_path,
        )
        assert proc.returncode == 0, proc.stderr
        return counts(proc.stdout)

    where = subprocess.run(
        [sys.executable, "-c", "import ingest; print(ingest.__file__)"],
        capture_output=True,
        text=True,
        env=environ,
        cwd=tmp_path,
    ).stdout.strip()
    assert where == str(copy / "__init__.py")  # the copy is what runs
    assert ingest_run() == (3, 0)
    assert ingest_run() == (0, 3)
    with open(copy / "loaders" / "text" / "loader.py", "a") as f:
        f.write("\n# a new plain-text loader\n")
    assert ingest_run() == (1, 2)  # c.txt only
    with open(copy / "loaders" / "text" / "decoding.py", "a") as f:  # shared by Markdown and text
        f.write("\n# better decoding\n")
    assert ingest_run() == (3, 0)
    with open(copy / "cleaners" / "line_numbers.py", "a") as f:  # runs on PDFs only
        f.write("\n# a pleading-paper fix\n")
    assert ingest_run() == (0, 3)
    with open(copy / "chunker" / "pack.py", "a") as f:
        f.write("\n# a chunker change\n")
    assert ingest_run() == (3, 0)
    assert ingest_run("--reprocess") == (3, 0)
    assert ingest_run() == (0, 3)
