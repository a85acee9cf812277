"""Per document, what each cleaner removed: in the run summary, in the state database, and a
warning from `ingest run` when one removes more than half of a document."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from ingest.config import load_config
from ingest.runner.pipeline import run
from ingest.runner.state import StateStore

GREEDY = """
def drop_paragraphs(blocks, ctx):
    for block in blocks:
        if block.kind != "paragraph":
            yield block
"""


def project(tmp_path: Path, cleaners: str = "[]") -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "long.md").write_text("# Long\n\n" + "Many words of body text here. " * 20 + "\n")
    (docs / "short.md").write_text("# A very long heading that outweighs its body\n\nShort.\n")
    (tmp_path / "greedy_cleaner.py").write_text(GREEDY)
    config = tmp_path / "ingest.yaml"
    config.write_text(
        f"source:\n  local: {{path: {docs}}}\nsink:\n  sqlite: {tmp_path / 'index.sqlite'}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\ncleaners: {cleaners}\n"
    )
    return config


def test_summary_and_state_hold_each_cleaners_removals(tmp_path):
    config = project(tmp_path, "['greedy_cleaner:drop_paragraphs']")
    summary = run(*load_config(config))
    body = len("Many words of body text here. " * 20) - 1
    assert summary.removed["long.md"]["greedy_cleaner:drop_paragraphs"] == {"blocks": 1, "chars": body}
    assert summary.removed["long.md"]["furniture"] == {"blocks": 0, "chars": 0}
    with StateStore(tmp_path / "state.sqlite") as state:
        key = next(iter(sqlite3.connect(tmp_path / "state.sqlite").execute("SELECT DISTINCT source FROM documents")))[0]
        assert state.removals(key, "long.md")["greedy_cleaner:drop_paragraphs"] == (1, body)
    (tmp_path / "docs" / "long.md").unlink()
    run(*load_config(config))
    with StateStore(tmp_path / "state.sqlite") as state:
        assert state.removals(key, "long.md") == {}  # forgotten with the document
        assert state.removals(key, "short.md")  # kept: unchanged documents keep what they had


def test_run_warns_when_a_cleaner_removes_more_than_half_of_a_document(tmp_path):
    config = project(tmp_path, "['greedy_cleaner:drop_paragraphs']")
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(config), "--quiet", "--log-format", "json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stderr.splitlines() if line.startswith("{")]
    warnings = [e["message"] for e in events if e.get("action") == "heavy_cleaning"]
    assert len(warnings) == 1, proc.stderr  # long.md lost its body; short.md kept most of its heading-heavy text
    assert (
        "long.md" in warnings[0] and "greedy_cleaner:drop_paragraphs" in warnings[0] and "ingest inspect" in warnings[0]
    )
    assert "removed by greedy_cleaner:drop_paragraphs" in proc.stdout


def test_no_warning_for_the_default_cleaners_on_the_examples(tmp_path):
    config = project(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(config), "--quiet", "--log-format", "json"],
        capture_output=True,
        text=True,
    )
    events = [json.loads(line) for line in proc.stderr.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and not [e for e in events if e.get("action") == "heavy_cleaning"], proc.stderr
