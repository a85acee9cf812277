"""README's "Try the Drive job without Google", as a user runs it from a clone: the fake Drive served
from a local folder by `python -m tests.drive.fake_google` (a real process), synced by `ingest run`
with the config it wrote, then the folder edited and synced again through Drive's changes feed."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"


def _wait_for(path: Path, text: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text():
            return
        time.sleep(0.1)
    raise AssertionError(f"{path} never said {text!r}: {path.read_text() if path.exists() else '(missing)'}")


def _sync(config: Path, summary: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(config), "--summary-json", str(summary)],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(summary.read_text())


def _paths(index: Path) -> set[str]:
    """The Drive paths the index holds, relative to the synced folder."""
    with sqlite3.connect(index) as db:
        return {json.loads(meta)["drive_path"] for (meta,) in db.execute("SELECT meta FROM documents")}


def test_serve_a_folder_sync_it_edit_it_sync_again(tmp_path):
    folder = tmp_path / "files"
    shutil.copytree(FIXTURES / "markdown", folder / "markdown")
    shutil.copytree(FIXTURES / "sheets", folder / "sheets")
    (folder / "make_them.py").write_text("# a script beside the files: not served\n")
    config, log = tmp_path / "out" / "job.yaml", tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "tests.drive.fake_google", "--from", str(folder), "--config", str(config)],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=REPO,
            text=True,
        )
    try:
        _wait_for(log, "sync it with")
        assert "3 files" in log.read_text()  # handbook.md, budget.xlsx, prices.csv; not the script

        first = _sync(config, tmp_path / "first.json")
        assert (first["seen"], first["changed"], first["failed"]) == (3, 3, 0)
        index = tmp_path / "out" / "fake-drive.sqlite"
        assert _paths(index) == {"markdown/handbook.md", "sheets/budget.xlsx", "sheets/prices.csv"}

        (folder / "markdown" / "leave.md").write_text("# Leave\n\nTwenty days of paid leave a year.\n")
        (folder / "sheets" / "prices.csv").unlink()
        _wait_for(log, "deleted sheets/prices.csv")
        _wait_for(log, "added   markdown/leave.md")

        second = _sync(config, tmp_path / "second.json")
        assert (second["changed"], second["unchanged"], second["deleted"]) == (1, 2, 1)
        assert _paths(index) == {"markdown/handbook.md", "markdown/leave.md", "sheets/budget.xlsx"}
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=10) == 0
