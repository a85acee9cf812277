"""The Markdown loader and the chunker on tests/fixtures/markdown/handbook.md (hand-written: front
matter, nested headings, a list, a table, a fenced code block). No ../shared needed."""

from __future__ import annotations

from ingest import ChunkOptions, chunk, load_file
from tests.paths import FIXTURES

HANDBOOK = FIXTURES / "markdown" / "handbook.md"


def test_front_matter_is_metadata_and_gives_the_title():
    loaded = load_file(HANDBOOK)
    assert loaded.document.title == "Staff handbook"
    assert loaded.document.meta["front_matter"] == {"title": "Staff handbook", "tags": ["hr", "policy"]}
    assert all("tags:" not in b.text for b in loaded.blocks)


def test_blocks_keep_their_kind_and_heading_path():
    loaded = load_file(HANDBOOK)
    assert [(b.kind, b.path[-1]) for b in loaded.blocks] == [
        ("heading", "Staff handbook"),
        ("paragraph", "Staff handbook"),
        ("heading", "Leave"),
        ("paragraph", "Leave"),
        ("list_item", "Leave"),
        ("list_item", "Leave"),
        ("heading", "Expenses"),
        ("table", "Expenses"),
        ("paragraph", "Expenses"),
        ("code", "Expenses"),
    ]
    (table,) = [b for b in loaded.blocks if b.kind == "table"]
    assert table.rows == (("Item", "Limit"), ("Meals abroad", "local per diem"), ("Taxi", "40 EUR"))


def test_small_chunks_stay_within_their_sections_and_keep_the_code_whole():
    chunks = list(chunk(load_file(HANDBOOK), ChunkOptions(max_tokens=40, min_tokens=0, overlap_tokens=0)))
    assert {c.heading_path for c in chunks} == {
        ("Staff handbook",),
        ("Staff handbook", "Leave"),
        ("Staff handbook", "Expenses"),
    }
    (code,) = [c for c in chunks if "code" in c.kinds]
    assert "```bash\ningest expenses submit --month 2025-03\n```" in code.text
    assert all(c.token_count <= 40 for c in chunks)
