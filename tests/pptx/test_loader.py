"""The .pptx loader on the fixture deck (tests/fixtures/make_fixtures.py says what each slide holds)
and on real decks of the corpus, two of them Google Slides exports."""

from __future__ import annotations

import pytest

from ingest.config import parse_config
from ingest.errors import LoaderError
from ingest.loaders import load_bytes, load_file, local_document, mime_type_of
from ingest.loaders.options import LoaderOptions, PptxOptions
from tests.paths import CORPUS, FIXTURES

DECK = FIXTURES / "pptx" / "review.pptx"
EXAMPLES = CORPUS / "formats" / "unstructured" / "example-docs"


def shown(blocks, *, notes=True):
    return [
        (b.page, b.kind, b.text, b.level, b.meta.get("marker"), b.layer)
        for b in blocks
        if notes or not b.meta.get("speaker_notes")
    ]


def test_each_slide_is_a_section_under_its_title_with_its_page():
    loaded = load_file(DECK)
    assert loaded.document.title == "review"
    headings = [(b.page, b.text, b.path) for b in loaded.blocks if b.kind == "heading"]
    assert headings == [
        (1, "Quarterly Review", ("review", "Quarterly Review")),
        (2, "Plan for next year", ("review", "Plan for next year")),
        (3, "Sales by region", ("review", "Sales by region")),
        (4, "Budget 2026", ("review", "Budget 2026")),  # no title: its first line
    ]
    for b in loaded.blocks:
        assert b.path == next(h[2] for h in headings if h[0] == b.page)


def test_bullets_levels_numbers_furniture_and_notes():
    slide = [b for b in load_file(DECK).blocks if b.page == 2]
    assert shown(slide) == [
        (2, "heading", "Plan for next year", 1, None, "body"),
        (2, "list_item", "Grow sales", 0, "•", "body"),
        (2, "list_item", "North region", 1, "–", "body"),
        (2, "list_item", "South region", 1, "–", "body"),
        (2, "list_item", "Cut costs", 0, "•", "body"),
        (2, "list_item", "Hire two buyers", 0, "1.", "body"),
        (2, "list_item", "Open the Lyon warehouse", 0, "2.", "body"),
        (2, "paragraph", "2025-12-01", 0, None, "furniture"),
        (2, "paragraph", "Northwind confidential", 0, None, "furniture"),
        (2, "paragraph", "2", 0, None, "furniture"),
        (2, "paragraph", "Mention the new warehouses.", 0, None, "body"),
        (2, "paragraph", "Ask for questions.", 0, None, "body"),
    ]
    assert [b.text for b in slide if b.meta.get("speaker_notes")] == [
        "Mention the new warehouses.",
        "Ask for questions.",
    ]


def test_a_table_with_its_header_row_and_merged_cell():
    (table,) = [b for b in load_file(DECK).blocks if b.kind == "table"]
    assert table.page == 3
    assert table.rows == (("Region", "Q1", "Q2"), ("North", "4,210", "4,400"), ("", "", "4,650"))
    assert table.header_rows == 1 and table.meta["header_guessed"] is False
    assert table.meta["covered"] == ((2, 0),)
    assert table.meta["merges"] == ((1, 0, 2, 0),)


def test_reading_order_rows_then_columns_groups_kept_together_and_hidden_slides_said():
    loaded = load_file(DECK)
    assert [b.text for b in loaded.blocks if b.page == 4 and b.kind != "heading"] == [
        "The budget grows by four percent.",  # the rest of the line that titles the slide
        "The right column comes second.",  # same row, further right
        "Group top",
        "Group bottom",  # the group read whole, though "Beside the group" sits between its members
        "Beside the group",
    ]
    assert not any(b.page == 5 for b in loaded.blocks)
    assert loaded.warnings == ("hidden slide 5 left out (shown in no presentation)",)


def test_notes_false_leaves_speaker_notes_out():
    data = DECK.read_bytes()
    doc = local_document(DECK, data, 0)
    kept = load_bytes(data, doc).blocks
    dropped = load_bytes(data, doc, LoaderOptions(pptx=PptxOptions(notes=False))).blocks
    assert [b.text for b in kept if b.meta.get("speaker_notes")] == [
        "Welcome everyone.",
        "Mention the new warehouses.",
        "Ask for questions.",
    ]
    assert shown(dropped) == shown(kept, notes=False)


def test_the_config_key_reaches_the_loader_options_and_is_checked():
    config, _, _ = parse_config({"source": {"local": {"path": "."}}, "pptx": {"notes": False}})
    assert config.loader_options().of("pptx") == PptxOptions(notes=False)
    with pytest.raises(Exception, match="pptx.note"):
        parse_config({"source": {"local": {"path": "."}}, "pptx": {"note": False}})


def test_a_google_slides_export_keeps_slide_ids_lists_and_table():
    loaded = load_file(EXAMPLES / "sample-presentation.pptx")
    headings = [(b.page, b.text, b.meta.get("slide_id")) for b in loaded.blocks if b.kind == "heading"]
    # The ids are those Google wrote on each slide's notes page ("<id>:notes").
    assert headings == [
        (1, "Title Slide", "p"),
        (2, "This is the first content slide", "g285fcc35375_0_0"),
        (3, "This is the second content slide", "g285fcc35375_0_5"),
        (4, "This is kinda backwards, huh?", "g285fcc35375_0_11"),
    ]
    slide2 = [(b.kind, b.text, b.level) for b in loaded.blocks if b.page == 2][1:]
    assert slide2 == [
        ("paragraph", "There’s text here", 0),  # a:buNone on a body placeholder
        ("list_item", "And a list of bulleted information", 0),
        ("list_item", "With a sub-bullet", 1),
        ("list_item", "And another one", 1),
        ("list_item", "This one is a sub-sub-bullet", 2),
        ("list_item", "We can see how it works", 0),
    ]
    (table,) = [b for b in loaded.blocks if b.kind == "table"]
    assert table.rows == (("Table", "A", "B", "C"), ("1", "A1", "B1", "C1"), ("2", "A2", "B2", "C2"))
    assert table.header_rows == 1 and table.meta["header_guessed"] is True  # no firstRow flag: guessed


def test_nested_groups_are_read_whole_top_to_bottom_left_to_right():
    # A sits top left; B and D share a group to its right; C, E (a group), F, G (a group) and H
    # share an outer group further right; I and J stand alone, lowest and furthest right.
    loaded = load_file(EXAMPLES / "group-shapes-nested.pptx")
    assert [b.text for b in loaded.blocks] == ["A", "B", "D", "C", "E", "F", "G", "H", "I", "J"]
    assert loaded.blocks[0].kind == "heading"  # no title: the first line


def test_an_untitled_slide_takes_its_first_line_and_symbol_bullets_read_as_bullets():
    blocks = load_file(EXAMPLES / "science-exploration-1p.pptx").blocks
    assert blocks[0].kind == "heading" and blocks[0].text == "GSFC: Sciences and Exploration Directorate"
    assert blocks[1].text == "Virtual Machine Environment Scorecard"
    markers = {b.meta["marker"] for b in blocks if b.kind == "list_item"}
    assert markers == {"•", "–"}  # a Wingdings arrow (U+F0D8) shows as a plain bullet


def test_a_date_placeholder_is_furniture_and_a_pictures_only_deck_has_no_blocks():
    blocks = load_file(EXAMPLES / "fake-power-point-malformed.pptx").blocks
    assert [(b.kind, b.text, b.layer) for b in blocks] == [
        ("heading", "Test Slide", "body"),
        ("paragraph", "Problem Date Placeholder", "furniture"),
    ]
    assert load_file(EXAMPLES / "picture.pptx").blocks == ()


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (lambda deck: deck[: len(deck) // 2], "truncated"),
        (lambda deck: b"Slide one\nSlide two\n", "not a ZIP archive"),
        (lambda deck: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504), "legacy .ppt"),
    ],
)
def test_bad_files_fail_naming_the_file(tmp_path, content, said):
    bad = tmp_path / "broken deck.pptx"
    bad.write_bytes(content(DECK.read_bytes()))
    assert mime_type_of(bad) == "application/vnd.openxmlformats-officedocument.presentationml.presentation"
    with pytest.raises(LoaderError, match=said) as err:
        load_file(bad)
    assert "broken%20deck.pptx" in str(err.value)


def test_an_empty_deck_is_a_warning_as_in_every_format(tmp_path):
    empty = tmp_path / "empty.pptx"
    empty.write_bytes(b"")
    loaded = load_file(empty)
    assert loaded.blocks == () and loaded.warnings == ("is empty (0 bytes): nothing to index",)


def test_a_zip_that_is_no_presentation_is_named(tmp_path):
    bad = tmp_path / "memo.pptx"
    bad.write_bytes((FIXTURES / "word" / "memo.docx").read_bytes())
    with pytest.raises(LoaderError, match="no PowerPoint presentation part"):
        load_file(bad)
