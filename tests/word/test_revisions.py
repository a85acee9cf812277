"""Revisions that change structure, resolved as Word and Google Docs show the document after
Accept all and Reject all (and `keep`: as their markup view shows it, both sides there, marked).

Every document is written by hand, WordprocessingML (`wordml.py`) or Docs API JSON shaped as
`documents.get` reports it with `suggestionsViewMode=SUGGESTIONS_INLINE`; every expected output is
what the editor shows, written down before running ingest (issue #32)."""

from __future__ import annotations

import json

import pytest

from ingest.blocks import Document
from ingest.chunker.units import display_text
from ingest.cleaners import build_chain, clean
from ingest.loaders import GOOGLE_DOC, load_bytes
from tests.word.wordml import dele, ins, load_docx, mark_del, mark_ins, num, p, ppr_change, style

MODES = ("accept", "reject", "keep")


def load_gdoc(content: list, lists: dict | None = None, comments: list | None = None):
    doc: dict = {"title": "Memo", "body": {"content": content}, "lists": lists or {}}
    if comments is not None:
        doc["comments"] = comments
    document = Document(id="d1", uri="https://docs.google.com/document/d/d1", name="Memo", mime_type=GOOGLE_DOC)
    return load_bytes(json.dumps(doc).encode(), document)


def run(text: str, insert: str = "", delete: str = "") -> dict:
    r: dict = {"content": text, "textStyle": {}}
    if insert:
        r["suggestedInsertionIds"] = [insert]
    if delete:
        r["suggestedDeletionIds"] = [delete]
    return {"textRun": r}


def para(*runs, style: str = "NORMAL_TEXT", bullet: dict | None = None, **extra) -> dict:
    elements = [run(r) if isinstance(r, str) else r for r in runs]
    if isinstance(runs[-1], str):
        elements[-1]["textRun"]["content"] += "\n"
    body = {"elements": elements, "paragraphStyle": {"namedStyleType": style}, **extra}
    if bullet is not None:
        body["bullet"] = bullet
    return {"paragraph": body}


def item(*runs, level: int = 0, **extra) -> dict:
    return para(*runs, bullet={"listId": "kix.l1", "nestingLevel": level}, **extra)


LISTS = {
    "kix.l1": {
        "listProperties": {
            "nestingLevels": [
                {"glyphType": "DECIMAL", "glyphFormat": "%0.", "startNumber": 1},
                {"glyphType": "ALPHA", "glyphFormat": "%1)", "startNumber": 1},
            ]
        }
    }
}


def resolved(loaded, mode: str) -> list:
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([("track_changes", {"mode": mode})]))
    return list(blocks)


def texts(loaded, mode: str) -> list[str]:
    return [display_text(b).rstrip() for b in resolved(loaded, mode)]


def outline(loaded, mode: str) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(b.kind, b.text.rstrip("\n"), b.path) for b in resolved(loaded, mode)]


# -- 1. paragraph joins and splits ---------------------------------------------------------------

JOINED = {
    "accept": ["Owls hunt at gloaming.Snorvelt keeps the watch."],
    "reject": ["Owls hunt at gloaming.", "Snorvelt keeps the watch."],
    "keep": ["Owls hunt at gloaming.", "Snorvelt keeps the watch."],
}


def joined_gdoc():
    return load_gdoc([para(run("Owls hunt at gloaming."), run("\n", delete="s1")), para("Snorvelt keeps the watch.")])


def joined_docx():
    return load_docx(p("Owls hunt at gloaming.", mark_del()) + p("Snorvelt keeps the watch."))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [joined_gdoc, joined_docx], ids=["gdoc", "docx"])
def test_a_deleted_line_break_joins_the_paragraphs_on_accept(make, mode):
    loaded = make()
    assert texts(loaded, mode) == JOINED[mode]
    if mode == "keep":  # both sides there: the paragraph's end is kept under its deletion mark
        first = resolved(loaded, mode)[0]
        assert any(m.kind == "deletion" and first.text[m.start : m.end] == "\n" for m in first.marks)


SPLIT = {
    "accept": ["Owls hunt", "at gloaming."],
    "reject": ["Owls hunt at gloaming."],
    "keep": ["Owls hunt", "at gloaming."],
}


def split_gdoc():
    return load_gdoc([para(run("Owls hunt "), run("\n", insert="s1")), para("at gloaming.")])


def split_docx():
    return load_docx(p("Owls hunt ", mark_ins()) + p("at gloaming."))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [split_gdoc, split_docx], ids=["gdoc", "docx"])
def test_an_inserted_line_break_splits_the_paragraph_until_rejected(make, mode):
    assert texts(make(), mode) == SPLIT[mode]


# -- 2. list numbers counted after resolving -----------------------------------------------------

INSERTED_ITEM = {
    "accept": ["1. Sow", "2. Water", "3. Harvest"],
    "reject": ["1. Sow", "2. Harvest"],
    "keep": ["1. Sow", "2. Water", "3. Harvest"],
}


def inserted_item_gdoc():
    return load_gdoc([item("Sow"), item(run("Water\n", insert="s1")), item("Harvest")], LISTS)


def inserted_item_docx():
    return load_docx(p("Sow", num()) + p(ppr=num() + mark_ins(), runs=ins("Water")) + p("Harvest", num()))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [inserted_item_gdoc, inserted_item_docx], ids=["gdoc", "docx"])
def test_rejecting_an_inserted_list_item_numbers_the_rest_again(make, mode):
    assert texts(make(), mode) == INSERTED_ITEM[mode]


DELETED_ITEM = {
    "accept": ["1. Sow", "2. Harvest"],
    "reject": ["1. Sow", "2. Water", "3. Harvest"],
    "keep": ["1. Sow", "2. Water", "3. Harvest"],
}


def deleted_item_gdoc():
    return load_gdoc([item("Sow"), item(run("Water\n", delete="s1")), item("Harvest")], LISTS)


def deleted_item_docx():
    return load_docx(p("Sow", num()) + p(ppr=num() + mark_del(), runs=dele("Water")) + p("Harvest", num()))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [deleted_item_gdoc, deleted_item_docx], ids=["gdoc", "docx"])
def test_accepting_a_deleted_list_item_numbers_the_rest_again(make, mode):
    assert texts(make(), mode) == DELETED_ITEM[mode]


# -- 3. paragraph style, list membership and level -----------------------------------------------

ROOT, PRUNING, HARVEST = ("Orchard",), ("Orchard", "Pruning"), ("Orchard", "Harvest")
AS_HEADING = [
    ("heading", "Orchard", ROOT),
    ("heading", "Pruning", PRUNING),
    ("paragraph", "Cut in winter.", PRUNING),
    ("heading", "Harvest", HARVEST),
    ("paragraph", "Pick in autumn.", HARVEST),
]
AS_PARAGRAPH = [
    ("heading", "Orchard", ROOT),
    ("heading", "Pruning", PRUNING),
    ("paragraph", "Cut in winter.", PRUNING),
    ("paragraph", "Harvest", PRUNING),
    ("paragraph", "Pick in autumn.", PRUNING),
]
STYLED = {"accept": AS_HEADING, "reject": AS_PARAGRAPH, "keep": AS_HEADING}


def styled_gdoc():
    suggestion = {
        "s1": {
            "paragraphStyle": {"namedStyleType": "HEADING_2"},
            "paragraphStyleSuggestionState": {"namedStyleTypeSuggested": True},
        }
    }
    return load_gdoc(
        [
            para("Orchard", style="HEADING_1"),
            para("Pruning", style="HEADING_2"),
            para("Cut in winter."),
            para("Harvest", suggestedParagraphStyleChanges=suggestion),
            para("Pick in autumn."),
        ]
    )


def styled_docx():
    return load_docx(
        p("Orchard", style("Heading1"))
        + p("Pruning", style("Heading2"))
        + p("Cut in winter.")
        + p("Harvest", style("Heading2") + ppr_change(""))
        + p("Pick in autumn.")
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [styled_gdoc, styled_docx], ids=["gdoc", "docx"])
def test_a_paragraph_made_a_heading_heads_what_follows_only_when_accepted(make, mode):
    assert outline(make(), mode) == STYLED[mode]


HEADING_UNDONE = {"accept": AS_PARAGRAPH, "reject": AS_HEADING, "keep": AS_PARAGRAPH}


def unheaded_docx():
    """A heading made body text: Word records Heading 2 in `w:pPrChange`."""
    return load_docx(
        p("Orchard", style("Heading1"))
        + p("Pruning", style("Heading2"))
        + p("Cut in winter.")
        + p("Harvest", ppr_change(style("Heading2")))
        + p("Pick in autumn.")
    )


def unheaded_gdoc():
    suggestion = {
        "s1": {
            "paragraphStyle": {"namedStyleType": "NORMAL_TEXT"},
            "paragraphStyleSuggestionState": {"namedStyleTypeSuggested": True},
        }
    }
    return load_gdoc(
        [
            para("Orchard", style="HEADING_1"),
            para("Pruning", style="HEADING_2"),
            para("Cut in winter."),
            para("Harvest", style="HEADING_2", suggestedParagraphStyleChanges=suggestion),
            para("Pick in autumn."),
        ]
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [unheaded_gdoc, unheaded_docx], ids=["gdoc", "docx"])
def test_a_heading_made_body_text_heads_again_when_rejected(make, mode):
    assert outline(make(), mode) == HEADING_UNDONE[mode]


JOINED_LIST = {
    "accept": ["1. Sow", "2. Water", "3. Harvest"],
    "reject": ["1. Sow", "Water", "2. Harvest"],
    "keep": ["1. Sow", "2. Water", "3. Harvest"],
}


def joined_list_gdoc():
    change = {"s1": {"bullet": {"listId": "kix.l1"}, "bulletSuggestionState": {"listIdSuggested": True}}}
    return load_gdoc([item("Sow"), para("Water", suggestedBulletChanges=change), item("Harvest")], LISTS)


def joined_list_docx():
    return load_docx(p("Sow", num()) + p("Water", num() + ppr_change("")) + p("Harvest", num()))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [joined_list_gdoc, joined_list_docx], ids=["gdoc", "docx"])
def test_a_paragraph_made_a_list_item_counts_only_when_accepted(make, mode):
    assert texts(make(), mode) == JOINED_LIST[mode]


LEVELLED = {
    "accept": ["1. Sow", "  a) Water", "2. Harvest"],
    "reject": ["1. Sow", "2. Water", "3. Harvest"],
    "keep": ["1. Sow", "  a) Water", "2. Harvest"],
}


def levelled_gdoc():
    change = {"s1": {"bullet": {"nestingLevel": 1}, "bulletSuggestionState": {"nestingLevelSuggested": True}}}
    return load_gdoc([item("Sow"), item("Water", suggestedBulletChanges=change), item("Harvest")], LISTS)


def levelled_docx():
    return load_docx(p("Sow", num()) + p("Water", num(1) + ppr_change(num(0))) + p("Harvest", num()))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [levelled_gdoc, levelled_docx], ids=["gdoc", "docx"])
def test_a_list_item_moved_a_level_down_counts_there_only_when_accepted(make, mode):
    assert texts(make(), mode) == LEVELLED[mode]


# -- 4. a comment on the whole document ----------------------------------------------------------


def test_a_comment_quoting_nothing_stays_in_the_documents_metadata():
    comments = [
        {"id": "c1", "content": "Please check the whole memo", "author": {"displayName": "Ann"}},
        {"id": "c2", "content": "Which owls?", "quotedFileContent": {"value": "Owls"}},
    ]
    loaded = load_gdoc([para("Owls hunt at gloaming.")], comments=comments)
    chain = build_chain([("comments", {"keep_as_metadata": True})])
    blocks, _ = clean(loaded.blocks, loaded.document, chain)
    assert [c["text"] for b in blocks for c in b.meta.get("comments", ())] == ["Which owls?"]
    whole = [c for c in loaded.document.meta["comments"] if c["id"] == "c1"]
    assert whole == [{"id": "c1", "text": "Please check the whole memo", "author": "Ann", "anchor": ""}]
    assert not any("no longer in the document" in w for w in loaded.warnings)  # it never quoted any


# -- the rest of the vocabulary ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_formatting_only_revisions_leave_the_text_alone_in_every_mode(mode):
    """Word's w:rPrChange (bold undone), w:tblPrChange and w:sectPrChange change no text."""
    bold = (
        "<w:r><w:rPr><w:b/><w:rPrChange w:id='7' w:author='Ann' w:date='2026-03-01T10:00:00Z'><w:rPr/>"
        "</w:rPrChange></w:rPr><w:t>Owls</w:t></w:r><w:r><w:t xml:space='preserve'> hunt.</w:t></w:r>"
    )
    table = (
        "<w:tbl><w:tblPr><w:tblW w:w='0' w:type='auto'/><w:tblPrChange w:id='8' w:author='Ann'"
        " w:date='2026-03-01T10:00:00Z'><w:tblPr/></w:tblPrChange></w:tblPr>"
        "<w:tblGrid><w:gridCol/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>Night</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    )
    section = (
        "<w:sectPr><w:pgSz w:w='11906' w:h='16838'/><w:sectPrChange w:id='9' w:author='Ann'"
        " w:date='2026-03-01T10:00:00Z'><w:sectPr/></w:sectPrChange></w:sectPr>"
    )
    loaded = load_docx(p(runs=bold) + table + section)
    assert [b.rows if b.kind == "table" else b.text for b in resolved(loaded, mode)] == ["Owls hunt.", (("Night",),)]


def test_inserted_and_deleted_cells_are_said_not_resolved():
    cell = "<w:tc><w:tcPr><w:cellIns w:id='6' w:author='Ann' w:date='2026-03-01T10:00:00Z'/></w:tcPr>"
    table = (
        "<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid><w:tr>"
        "<w:tc><w:p><w:r><w:t>Owls</w:t></w:r></w:p></w:tc>"
        f"{cell}<w:p><w:r><w:t>Larks</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    )
    loaded = load_docx(table)
    assert any("w:cellIns" in w for w in loaded.warnings)


@pytest.mark.parametrize("mode", MODES)
def test_docs_cell_style_and_text_style_suggestions_leave_the_text_alone(mode):
    styled = run("Owls")
    styled["textRun"]["suggestedTextStyleChanges"] = {"s1": {"textStyle": {"bold": True}}}
    cell = {
        "content": [para("Night")],
        "suggestedTableCellStyleChanges": {"s2": {"tableCellStyle": {"backgroundColor": {}}}},
    }
    loaded = load_gdoc([para(styled, run(" hunt.\n")), {"table": {"tableRows": [{"tableCells": [cell]}]}}])
    assert [b.rows if b.kind == "table" else b.text for b in resolved(loaded, mode)] == ["Owls hunt.", (("Night",),)]


DELETED_FIELD = {"accept": ["See ."], "reject": ["See page four."], "keep": ["See page four."]}


@pytest.mark.parametrize("mode", MODES)
def test_a_deleted_field_result_goes_on_accept(mode):
    by = "w:author='Ann' w:date='2026-03-01T10:00:00Z'"
    field = (
        f"<w:del w:id='10' {by}><w:r><w:fldChar w:fldCharType='begin'/></w:r>"
        "<w:r><w:delInstrText xml:space='preserve'> REF four \\h </w:delInstrText></w:r>"
        "<w:r><w:fldChar w:fldCharType='separate'/></w:r>"
        "<w:r><w:delText>page four</w:delText></w:r><w:r><w:fldChar w:fldCharType='end'/></w:r></w:del>"
    )
    loaded = load_docx(p(runs="<w:r><w:t xml:space='preserve'>See </w:t></w:r>" + field + "<w:r><w:t>.</w:t></w:r>"))
    assert texts(loaded, mode) == DELETED_FIELD[mode]


MOVED = {
    "accept": ["Larks sing.", "Owls hunt at gloaming.", "Night falls."],
    "reject": ["Owls hunt at gloaming.", "Larks sing.", "Night falls."],
    "keep": ["Owls hunt at gloaming.", "Larks sing.", "Owls hunt at gloaming.", "Night falls."],
}


@pytest.mark.parametrize("mode", MODES)
def test_a_paragraph_moved_down_is_there_once_in_each_mode(mode):
    """w:moveFrom / w:moveTo with their range markers, the moved paragraph's mark moved too."""
    by = "w:author='Ann' w:date='2026-03-01T10:00:00Z'"
    moved_from = (
        f"<w:p><w:pPr><w:rPr><w:moveFrom w:id='11' {by}/></w:rPr></w:pPr>"
        f"<w:moveFromRangeStart w:id='12' w:name='move1' {by}/>"
        f"<w:moveFrom w:id='13' {by}><w:r><w:t>Owls hunt at gloaming.</w:t></w:r></w:moveFrom>"
        "<w:moveFromRangeEnd w:id='12'/></w:p>"
    )
    moved_to = (
        f"<w:p><w:pPr><w:rPr><w:moveTo w:id='14' {by}/></w:rPr></w:pPr>"
        f"<w:moveToRangeStart w:id='15' w:name='move1' {by}/>"
        f"<w:moveTo w:id='16' {by}><w:r><w:t>Owls hunt at gloaming.</w:t></w:r></w:moveTo>"
        "<w:moveToRangeEnd w:id='15'/></w:p>"
    )
    loaded = load_docx(moved_from + p("Larks sing.") + moved_to + p("Night falls."))
    assert texts(loaded, mode) == MOVED[mode]
