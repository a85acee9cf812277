"""Comments: anchors are marks, the text never enters the body, the cleaner drops or keeps them."""

from __future__ import annotations

from ingest.cleaners import CleanContext, build_chain, clean
from ingest.cleaners.comments import CommentsOptions, drop_comments
from ingest.loaders import load_file


def test_comment_anchors_carry_text_and_author(corpus):
    loaded = load_file(corpus / "docling/docx/sources/docx_comments.docx")
    marks = [(b.text[m.start : m.end], m.attrs) for b in loaded.blocks for m in b.marks if m.kind == "comment"]
    assert len(marks) == 3
    anchor, attrs = marks[0]
    assert anchor == "This is the first paragraph that has a comment attached to it."
    assert attrs["text"].startswith("This is a sample reviewer comment")
    assert attrs["author"]
    body = " ".join(b.text for b in loaded.blocks)
    assert "reviewer comment" not in body  # comment text is metadata, never block text
    assert len(loaded.document.meta["comments"]) == 3


def test_replies_and_overlapping_ranges_are_separate_comments(corpus):
    loaded = load_file(corpus / "docx2python/comments.docx")
    first = loaded.blocks[0]
    texts = [m.attrs["text"] for m in first.marks if m.kind == "comment"]
    assert texts[:3] == ["COMMENT", "RESPONSE", "Response from Shay Hill"]
    subset = next(m for m in first.marks if m.attrs.get("text", "").startswith("Comment on subset"))
    assert first.text[subset.start : subset.end].startswith("tempor incididunt")


def test_default_chain_drops_comment_marks(corpus):
    loaded = load_file(corpus / "mammoth/comments.docx")
    assert any(m.kind == "comment" for b in loaded.blocks for m in b.marks)
    blocks, report = clean(loaded.blocks, loaded.document, build_chain([]))
    blocks = list(blocks)
    assert not any(m.kind == "comment" for b in blocks for m in b.marks)
    assert "comments" not in blocks[0].meta
    assert report["comments"]["comments"] == 2
    assert [b.text for b in blocks] == ["Ouch."]


def test_keep_as_metadata_puts_comment_texts_on_the_block(corpus):
    loaded = load_file(corpus / "python_docx/comments-rich-para.docx")
    ctx = CleanContext(loaded.document, CommentsOptions(keep_as_metadata=True))
    blocks = list(drop_comments(loaded.blocks, ctx))
    noted = {b.text: b.meta["comments"] for b in blocks if "comments" in b.meta}
    (entry,) = noted["Paragraph 5"]
    assert entry["text"] == "Text with character style." and entry["anchor"] == "Paragraph 5"
    assert "Paragraph 7" not in noted
    assert not any(m.kind == "comment" for b in blocks for m in b.marks)


def test_configuring_a_default_cleaner_keeps_its_place():
    """Comments (and tracked changes) must resolve before merged cells and empty rows reshape a
    table, or a kept comment's anchor points at the wrong cell: options must not move a cleaner."""
    default = [s.cleaner.name for s in build_chain([])]
    assert default.index("comments") < default.index("merged_cells")
    configured = build_chain([("comments", {"keep_as_metadata": True}), ("furniture", False)])
    assert [s.cleaner.name for s in configured] == [n for n in default if n != "furniture"]
    assert not any(s.explicit for s in configured)  # configured, still on its own formats only


def test_configuring_a_spreadsheet_cleaner_does_not_run_it_on_word_tables(corpus):
    """`empty_cells: {}` in a config tunes the spreadsheet cleaner; Word tables keep their rows."""
    loaded = load_file(corpus / "docx2python" / "libreoffice_conversion.docx")
    default, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    configured, report = clean(loaded.blocks, loaded.document, build_chain([("empty_cells", {})]))
    default, configured = list(default), list(configured)
    assert any(b.kind == "table" for b in default)
    assert configured == default and "empty_cells" not in report
