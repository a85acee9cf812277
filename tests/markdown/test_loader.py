"""The Markdown loader on the seed article's four failure inputs and every block feature."""

from __future__ import annotations

import pytest

from ingest.blocks import Document
from ingest.chunker import ChunkOptions, chunk
from ingest.loaders.markdown import tokens as markdown_tokens
from ingest.loaders.markdown import tree as markdown_tree
from ingest.loaders.markdown.loader import parse


@pytest.fixture(autouse=True, params=["markdown-it-py", "markdown-it-pyrs"])
def parser(request, monkeypatch):
    """Every feature holds with either parser."""
    events = markdown_tokens.events if request.param == "markdown-it-py" else markdown_tree.events
    monkeypatch.setattr("ingest.loaders.markdown.loader._PARSER", events)


def load(text: str, name: str = "doc.md"):
    return parse(text, Document(id=name, uri=name, name=name, mime_type="text/markdown", title=name.rsplit(".", 1)[0]))


def kinds(loaded):
    return [b.kind for b in loaded.blocks]


def test_html_table_is_a_table_with_rows():
    loaded = load(
        "# T\n\n<table>\n<tr><th>Drug</th><th>Dose</th></tr>\n<tr><td>Ibuprofen</td><td>10 mg/kg</td></tr>\n</table>\n"
    )
    table = [b for b in loaded.blocks if b.kind == "table"]
    assert len(table) == 1
    assert table[0].rows == (("Drug", "Dose"), ("Ibuprofen", "10 mg/kg"))
    assert table[0].header_rows == 1
    assert "|Ibuprofen|10 mg/kg|" in table[0].text


def test_setext_heading_enters_the_path():
    loaded = load("Doses\n=====\n\nGive less.\n\nLimits\n------\n\nNever more.\n")
    paras = [b for b in loaded.blocks if b.kind == "paragraph"]
    assert paras[0].path == ("Doses",)
    assert paras[1].path == ("Doses", "Limits")


def test_no_headings_still_splits_with_title_as_root():
    text = " ".join(f"Sentence number {i} says something useful." for i in range(60))
    loaded = load(f"{text}\n\n{text}\n", name="notes.md")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=100, min_tokens=0, overlap_tokens=0)))
    assert len(chunks) > 4
    assert all(c.heading_path == ("notes",) for c in chunks)
    assert all(c.text.endswith(".") for c in chunks)  # split at sentences, not mid-sentence


def test_front_matter_title_is_the_root_and_metadata():
    loaded = load("---\ntitle: Handbook\nowner: ops\n---\n\nIntro.\n\n## Part\n\nBody.\n")
    assert loaded.document.title == "Handbook"
    assert loaded.document.meta["front_matter"]["owner"] == "ops"
    assert [b.path for b in loaded.blocks if b.kind == "paragraph"] == [("Handbook",), ("Handbook", "Part")]


def test_list_followed_by_paragraph_keeps_items_whole_and_lead_in_with_list():
    items = "\n".join(f"- Item {i} has its own complete sentence here." for i in range(6))
    filler = " ".join(f"Filler sentence {i} is here." for i in range(18))
    text = f"# Guide\n\n{filler}\n\nThe following are exempt:\n\n{items}\n\nAfter the list, a closing paragraph.\n"
    loaded = load(text)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=120, min_tokens=0, overlap_tokens=0)))
    with_list = [c for c in chunks if "list_item" in c.kinds]
    assert with_list, "list items must land in chunks"
    assert "The following are exempt:" in with_list[0].text  # lead-in travels with its list
    for i in range(6):  # every item whole in exactly one chunk
        assert sum(f"- Item {i} has its own complete sentence here." in c.text for c in chunks) == 1


def test_nested_lists_have_levels_and_no_text_is_lost():
    loaded = load("- a\n  - b\n    more b\n  - c\n- d\n\n  d continued\n\n  - e\n")
    items = [(b.level, b.text.strip()) for b in loaded.blocks]
    assert items == [(0, "- a"), (1, "- b\n    more b"), (1, "- c"), (0, "- d\n\n  d continued"), (1, "- e")]
    assert all(b.kind == "list_item" for b in loaded.blocks)


def test_code_blocks_keep_language_and_indented_code():
    loaded = load("```python\nx = 1\n```\n\nText.\n\n    indented = True\n")
    code = [b for b in loaded.blocks if b.kind == "code"]
    assert [c.lang for c in code] == ["python", ""]
    assert "x = 1" in code[0].text and "indented = True" in code[1].text


def test_block_quote_and_html_comment():
    loaded = load("> quoted line\n> second\n\n<!-- editor note -->\n\nAfter.\n")
    assert kinds(loaded) == ["quote", "paragraph"]
    assert all("editor note" not in b.text for b in loaded.blocks)


def test_pipe_table_rows_and_offsets_point_into_source():
    text = "# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n"
    loaded = load(text)
    table = loaded.blocks[1]
    assert table.rows == (("a", "b"), ("1", "2"), ("3", "4"))
    assert table.header_rows == 1
    assert loaded.text[table.start : table.end] == table.text


def test_heading_markup_is_stripped_from_the_path():
    loaded = load("# The **bold** [link](http://x) `code`\n\nBody.\n")
    assert loaded.blocks[-1].path == ("The bold link code",)


def test_several_h1s_hang_under_the_title():
    loaded = load("# One\n\nA.\n\n# Two\n\nB.\n", name="book.md")
    assert [b.path for b in loaded.blocks if b.kind == "paragraph"] == [("book", "One"), ("book", "Two")]


def test_crlf_and_bom_are_normalised():
    from ingest.loaders.markdown.loader import load as load_bytes

    doc = Document(id="x", uri="x", name="x.md", mime_type="text/markdown", title="x")
    loaded = load_bytes("\ufeff# H\r\n\r\nBody line.\r\n".encode("utf-8"), doc)
    assert loaded.blocks[-1].text == "Body line."


def test_an_empty_heading_closes_the_section_without_naming_one():
    loaded = load("# Top\n\n## Part\n\nIn part.\n\n##\n\nAfter.\n")
    assert [b.path for b in loaded.blocks if b.kind == "paragraph"] == [("Top", "Part"), ("Top",)]


def test_deeply_nested_lists_lose_nothing():
    """markdown-it-py's preset stops at 20 levels of nesting unless told otherwise."""
    items = "".join("  " * i + f"- item {i}\n" for i in range(14))
    loaded = load(items + "\nAfter the list.\n")
    text = " ".join(b.text for b in loaded.blocks)
    assert all(f"item {i}" in text for i in range(14)) and "After the list." in text
