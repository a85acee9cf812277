"""The CLI as a user runs it: a subprocess of `python -m ingest`."""

from __future__ import annotations

import json
import subprocess
import sys


def ingest(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ingest", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def test_chunk_prints_json_lines_with_every_field(seeds):
    proc = ingest("chunk", seeds / "paediatric-fever.md", "--max-tokens", "700", "--tokenizer", "chars")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["heading_path"][-1] for r in records] == [
        "When to seek help the same day",
        "Antipyretic dosing",
        "Contraindications",
        "Recording a reading",
    ]
    first = records[0]
    for key in (
        "id",
        "doc_id",
        "chunk_index",
        "text",
        "embed_text",
        "heading_path",
        "kinds",
        "token_count",
        "overlap_tokens",
        "start",
        "end",
        "source",
    ):
        assert key in first
    assert set(first["source"]) >= {"uri", "name", "mime_type", "modified", "version"}
    assert first["source"]["mime_type"] == "text/markdown"
    assert first["embed_text"] == "When to seek help the same day\n\n" + first["text"]  # the root is the title


def test_stats_table_and_json(seeds):
    doc = seeds / "paediatric-fever.md"
    proc = ingest(
        "stats", doc, "--tokenizer", "chars", "--max-tokens", "260,700", "--overlap-tokens", "0,120", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    rows = {(r["max_tokens"], r["overlap_tokens"]): r for r in map(json.loads, proc.stdout.splitlines())}
    assert rows[(700, 0)]["sizes"]["n"] == 4
    assert rows[(700, 0)]["defects"]["end_mid_sentence"] == 0
    assert rows[(260, 0)]["defects"]["separated_pairs"] == 1
    assert rows[(260, 120)]["defects"]["separated_pairs"] == 0
    assert rows[(260, 120)]["defects"]["stored_ratio"] > rows[(260, 0)]["defects"]["stored_ratio"]
    table = ingest("stats", doc, "--tokenizer", "chars", "--max-tokens", "700")
    assert table.returncode == 0 and "mid-sentence" in table.stdout


def test_chunk_names_a_bad_file_and_exits_non_zero(tmp_path, seeds):
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"\x00\x00\x00")
    proc = ingest("chunk", bad, seeds / "paediatric-fever.md")
    assert proc.returncode == 1
    assert "bad.md" in proc.stderr
    assert len(proc.stdout.splitlines()) > 0  # the good file still came out


def test_bad_option_is_a_usage_error(seeds):
    proc = ingest("stats", seeds / "paediatric-fever.md", "--max-tokens", "ten")
    assert proc.returncode == 2 and "--max-tokens" in proc.stderr


def test_search_without_an_index_says_what_to_do(tmp_path):
    proc = ingest("search", "anything", "--index", tmp_path / "none.sqlite")
    assert proc.returncode == 2 and "ingest run" in proc.stderr


def test_run_every_repeats_until_interrupted(tmp_path):
    import signal
    import time

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nSome text to index.\n", encoding="utf-8")
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'i.sqlite'}}}\n"
        f"state: {tmp_path / 's.sqlite'}\nworkers: 1\n",
        encoding="utf-8",
    )
    assert ingest("run", cfg, "--every", "soon").returncode == 2  # not a duration
    proc = subprocess.Popen(
        [sys.executable, "-m", "ingest", "run", str(cfg), "--every", "1s", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    runs, deadline = [], time.monotonic() + 60
    while len(runs) < 2 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.strip().startswith("changed"):
            runs.append(line.split())
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    assert runs == [["changed", "1"], ["changed", "0"]]  # the second run found nothing new
    assert proc.returncode == 0


def test_version_is_declared_once_and_reported():
    # pyproject.toml reads ingest.__version__, so the installed metadata and `ingest --version` say the same.
    from importlib.metadata import version

    from ingest import __version__

    proc = ingest("--version")
    assert proc.returncode == 0 and __version__ in proc.stdout
    assert version("ingest") == __version__
