"""The .odt loader on tests/fixtures/odf/report.odt (written by tests/fixtures/make_odf.py: the
expected values are what that script puts in the file) and on the corpus's two .odt files."""

from __future__ import annotations

from ingest.cleaners import build_chain, clean_blocks
from ingest.loaders import load_file
from tests.fixtures.make_odf import ODT as ODT_TYPE
from tests.fixtures.make_odf import content, package
from tests.paths import CORPUS, FIXTURES

REPORT = FIXTURES / "odf" / "report.odt"
SIMPLE = CORPUS / "formats/unstructured/example-docs/simple.odt"
MULTI = CORPUS / "formats/unstructured/example-docs/language-docs/eng_spa_mult.odt"


def by_text(blocks, start):
    return next(b for b in blocks if b.text.startswith(start))


def test_title_headings_and_paths():
    loaded = load_file(REPORT)
    assert loaded.document.title == "Quarterly Review"  # the Title paragraph, above meta.xml's title
    headings = [(b.text, b.level, b.path) for b in loaded.blocks if b.kind == "heading"]
    assert headings == [
        ("Quarterly Review", 1, ("Quarterly Review",)),
        ("Summary", 1, ("Quarterly Review", "Summary")),
        ("Steps", 2, ("Quarterly Review", "Summary", "Steps")),  # outline level from its style
        ("Figures", 1, ("Quarterly Review", "Figures")),
    ]
    assert by_text(loaded.blocks, "End of review").path == ("Quarterly Review", "Figures")


def test_meta_from_meta_xml():
    meta = load_file(REPORT).document.meta
    assert meta["author"] == "Ann Lee" and meta["last_modified_by"] == "Bob Baker"
    assert meta["created"] == "2025-01-02T09:00:00" and meta["modified"] == "2025-01-03T10:30:00"
    assert meta["keywords"] == "sales, review"


def test_lists_nest_with_their_markers():
    items = [
        (b.text, b.level, b.meta["marker"], b.meta["ordered"])
        for b in load_file(REPORT).blocks
        if b.kind == "list_item"
    ]
    assert items == [
        ("Open the Lyon warehouse", 0, "1.", True),
        ("Hire staff  locally", 1, "a)", True),  # "Hire   staff" collapses; text:s c="2" is two spaces
        ("Sign the lease", 1, "b)", True),
        ("Close Porto", 0, "2.", True),
        ("Tea", 0, "•", False),
        ("Coffee", 0, "•", False),
    ]


def test_table_header_spans_and_repeats():
    table = next(b for b in load_file(REPORT).blocks if b.kind == "table")
    assert table.rows == (
        ("Region", "Revenue", "Growth"),
        ("North", "4,210", "6%"),
        ("Spare", "0", "0"),  # number-rows-repeated="2", and number-columns-repeated="2" for the zeros
        ("Spare", "0", "0"),
        ("All regions", "", "4%"),  # spans two columns: the covered cell is empty, as in Word
    )
    assert table.header_rows == 1 and table.meta["header_guessed"] is False
    assert table.meta["merges"] == ((4, 0, 4, 1),) and table.meta["covered"] == ((4, 1),)


def test_footnote_link_text_box():
    blocks = load_file(REPORT).blocks
    para = by_text(blocks, "Sales grew")
    assert para.text == "Sales grew in every region[1] but one, as the Q3 figures show."
    link = next(m for m in para.marks if m.kind == "link")
    assert para.text[link.start : link.end] == "Q3 figures" and link.attrs["href"] == "https://example.com/q3"
    note = blocks[blocks.index(para) + 1]
    assert (note.kind, note.text, note.meta["label"]) == ("footnote", "Excluding the East.", "1")
    box = by_text(blocks, "Boxed note")
    assert box.kind == "paragraph" and box.meta["textbox"] is True


def test_tracked_changes_accepted_by_default_and_rejected_on_request():
    loaded = load_file(REPORT)
    accepted = [b.text for b in clean_blocks(loaded)]
    assert "Revenue rose by 4% this quarter." in accepted
    assert not any("3%" in t or "Oslo" in t for t in accepted)  # deleted text never reaches the index
    rejected = [b.text for b in clean_blocks(loaded, build_chain([("track_changes", {"mode": "reject"})]))]
    assert "Revenue rose by 3% this quarter." in rejected
    assert "Shipping to Oslo stopped in March." in rejected


def test_comment_is_a_mark_over_its_range_and_dropped_from_text():
    loaded = load_file(REPORT)
    para = by_text(loaded.blocks, "Revenue rose")
    comment = next(m for m in para.marks if m.kind == "comment")
    assert para.text[comment.start : comment.end] == "quarter"
    assert comment.attrs["author"] == "Ann Lee" and comment.attrs["text"] == "Check the figure."
    assert not any("Check the figure" in b.text for b in clean_blocks(loaded))


def test_corpus_simple_odt():
    loaded = load_file(SIMPLE)
    # content.xml: one text:h, a bulleted text:list (one filled item, one empty), then paragraphs.
    assert loaded.document.title == "These are a few of my favorite things:"
    kinds = [(b.kind, b.text) for b in loaded.blocks]
    assert kinds == [
        ("heading", "These are a few of my favorite things:"),
        ("paragraph", "• Parrots"),
        ("paragraph", "•"),
        ("list_item", "Hockey"),
        ("paragraph", "Analysis"),
        ("paragraph", "This is my first thought. This is my second thought."),
        ("paragraph", "This is my third thought."),
        ("paragraph", "2023"),
        ("paragraph", "DOYLESTOWN, PA 18901"),
    ]
    assert loaded.document.meta["created"] == "2024-05-15T21:26:37Z"


def test_corpus_multilingual_odt_keeps_every_paragraph():
    loaded = load_file(MULTI)
    texts = [b.text for b in loaded.blocks]
    # Five paragraphs with text (meta.xml counts five; an empty one between them is not a block).
    assert len(texts) == 5 and all(b.kind == "paragraph" for b in loaded.blocks)
    assert texts[0].startswith("All human beings are born free and equal in dignity and rights.")
    assert any("Todos los seres humanos nacen libres e iguales" in t for t in texts)
    assert loaded.document.title == "eng_spa_mult"  # no title anywhere: the file name


def test_an_inserted_paragraph_break_joins_the_halves_on_reject(tmp_path):
    changes = (
        '<text:tracked-changes><text:changed-region text:id="ct9"><text:insertion><office:change-info>'
        "<dc:creator>Eve</dc:creator><dc:date>2025-01-05T09:00:00</dc:date></office:change-info>"
        "</text:insertion></text:changed-region></text:tracked-changes>"
    )
    # As LibreOffice writes Enter pressed after "Alpha " with changes tracked: the insertion is the
    # paragraph break alone, opened at the first half's end and closed at the second's start.
    body = (
        '<text:p>Alpha <text:change-start text:change-id="ct9"/></text:p>'
        '<text:p><text:change-end text:change-id="ct9"/>beta.</text:p><text:p>Omega.</text:p>'
    )
    path = tmp_path / "ins.odt"
    package(path, ODT_TYPE, content(changes + body))
    loaded = load_file(path)
    assert [b.text for b in clean_blocks(loaded)] == ["Alpha", "beta.", "Omega."]
    rejected = clean_blocks(loaded, build_chain([("track_changes", {"mode": "reject"})]))
    assert [b.text for b in rejected] == ["Alpha beta.", "Omega."]
