"""What a run says while it goes and at its end (issue #25): progress gets a total once the
listing is known and says when it waits for the embedder's model; the summary gives the time
spent embedding apart. Shapes and order only: nothing here is timed."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import TimeRemainingColumn

from ingest.config import load_config
from ingest.runner.pipeline import DocResult, run
from ingest.runner.run_report import RunReport


def _job(tmp_path: Path, n: int = 3, embedder: bool = True) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(n):
        (docs / f"note{i}.md").write_text(f"# Note {i}\n\nParcels are signed for at the front desk, case {i}.\n")
    config = tmp_path / "job.yaml"
    config.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'index.sqlite'}}}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n" + ("embedder: {name: wordllama}\n" if embedder else "")
    )
    return config


def test_the_total_is_known_before_the_first_document_and_the_model_load_is_said(tmp_path):
    from ingest.runner.pipeline import Stage

    events: list = []
    summary = run(*load_config(_job(tmp_path)), events.append, on_stage=events.append)
    kinds = [e.doing if isinstance(e, Stage) else e.status for e in events]
    assert kinds[:2] == ["listing", "listed"] and events[1] == Stage("listed", total=3)
    # The model loads at the first document that needs vectors, and that is said before it finishes.
    assert kinds[2:] == ["loading_embedder", "changed", "changed", "changed"]
    assert events[2] == Stage("loading_embedder", detail="wordllama")
    assert isinstance(summary.embedding_s, float) and isinstance(summary.embedder_load_s, float)
    assert 0 <= summary.embedder_load_s <= summary.embedding_s <= summary.seconds


def test_without_an_embedder_no_embedding_time_and_no_model_load(tmp_path):
    from ingest.runner.pipeline import Stage

    events: list = []
    summary = run(*load_config(_job(tmp_path, embedder=False)), events.append, on_stage=events.append)
    assert [e.doing for e in events if isinstance(e, Stage)] == ["listing", "listed"]
    assert summary.embedding_s is None and summary.embedder_load_s is None


def test_the_progress_bar_has_the_total_and_an_eta_while_documents_go(tmp_path):
    from ingest.runner.pipeline import Stage

    terminal = Console(file=io.StringIO(), force_terminal=True, width=120)
    report = RunReport("pretty", err=terminal, out=Console(file=io.StringIO()))
    seen: list[tuple[float | None, str]] = []

    def stage(s: Stage) -> None:
        report.stage(s)
        assert report._progress is not None
        seen.append((report._progress.tasks[0].total, report._progress.tasks[0].description))

    def document(result: DocResult) -> None:
        assert report._progress is not None
        seen.append((report._progress.tasks[0].total, "before " + result.name))
        report.document(result)

    with report.running():
        assert report._progress is not None
        assert any(isinstance(column, TimeRemainingColumn) for column in report._progress.columns)
        run(*load_config(_job(tmp_path)), document, on_stage=stage)
    assert seen[0] == (None, "listing the source...")
    assert seen[1][0] == 3
    assert seen[2] == (3, "loading the embedder wordllama...")
    assert [total for total, _ in seen[3:]] == [3, 3, 3]


def test_the_run_summary_gives_the_embedding_time_apart(tmp_path):
    config, summary = _job(tmp_path), tmp_path / "summary.json"
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(config), "--log-format", "json", "--summary-json", str(summary)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = {
        line.split(None, 1)[0]: line.split(None, 1)[1].strip() for line in done.stdout.splitlines()[1:] if line.strip()
    }
    assert re.fullmatch(r"\d+\.\d\d s \(loading the model \d+\.\d\d s\)", rows["embedding"])
    assert re.fullmatch(r"\d+\.\d\d s", rows["the"].removeprefix("rest").strip())
    record = json.loads(summary.read_text())
    assert record["embedding_s"] <= record["duration_s"] and record["embedder_load_s"] <= record["embedding_s"]
    (final,) = [json.loads(line) for line in done.stderr.splitlines() if '"action": "summary"' in line]
    assert final["embedding_s"] == record["embedding_s"]


def test_a_job_without_an_embedder_shows_no_embedding_row(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(_job(tmp_path, embedder=False))],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "embedding" not in done.stdout and "documents seen" in done.stdout
