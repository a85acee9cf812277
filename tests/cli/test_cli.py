"""The CLI as a user runs it: a subprocess of `python -m ingest`."""

from __future__ import annotations

import json

from tests.local_job import ingest


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


def test_version_is_declared_once_and_reported():
    # pyproject.toml reads ingest.__version__, so the installed metadata and `ingest --version` say the same.
    from importlib.metadata import version

    from ingest import __version__

    proc = ingest("--version")
    assert proc.returncode == 0 and __version__ in proc.stdout
    assert version("ingest") == __version__


def test_chunk_takes_a_settings_file_without_a_source_and_no_cards(tmp_path):
    doc = tmp_path / "notes.md"
    doc.write_text("---\nauthor: Ann Lee\n---\n# Notes\n\nThe kiln runs at 1,200 degrees.\n", encoding="utf-8")

    def kinds(*args) -> list[list[str]]:
        proc = ingest("chunk", doc, *args)
        assert proc.returncode == 0, proc.stderr
        return [json.loads(line)["kinds"] for line in proc.stdout.splitlines()]

    assert kinds()[-1] == ["card"]  # the front matter's author is a property: the file has a card
    settings = tmp_path / "settings.yaml"
    settings.write_text("chunker: {card: false}\n", encoding="utf-8")
    assert kinds("--config", settings) == kinds("--no-cards") == [["paragraph"]]
    assert kinds("--config", settings, "--cards")[-1] == ["card"]  # the flag wins over the file
    settings.write_text("chunker: {card: false}\nsink: {sqlite: x.sqlite}\n", encoding="utf-8")
    proc = ingest("chunk", doc, "--config", settings)
    assert proc.returncode != 0 and "sink" in proc.stderr  # a run's key without a source: named, not ignored
