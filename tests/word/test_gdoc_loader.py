"""The Google Docs loader on a real `documents.get` response (encoda's fixture), and on that
response edited the way the API reports suggestions, notes, headers, merged cells and tabs."""

from __future__ import annotations

import copy
import json

import pytest

from ingest import ChunkOptions, chunk, clean_blocks
from ingest.blocks import Document
from ingest.cleaners import build_chain, clean
from ingest.errors import LoaderError
from ingest.loaders import GOOGLE_DOC, load_bytes

TITLE = "A Google Doc test fixture for Stencila Encoda"


@pytest.fixture(scope="module")
def fixture_doc(corpus) -> dict:
    return json.loads((corpus / "encoda_gdoc" / "__fixtures__" / "test-fixture-1.gdoc").read_text(encoding="utf-8"))


def load(doc: dict, name: str = "fixture"):
    return load_bytes(
        json.dumps(doc).encode(),
        Document(id=name, uri=f"https://docs.google.com/document/d/{name}", name=name, mime_type=GOOGLE_DOC),
    )


def paragraph(text: str, style: str = "NORMAL_TEXT", **run) -> dict:
    return {
        "paragraph": {
            "elements": [{"textRun": {"content": text + "\n", "textStyle": {}, **run}}],
            "paragraphStyle": {"namedStyleType": style},
        }
    }


def test_structure_of_the_real_fixture(fixture_doc):
    loaded = load(fixture_doc)
    blocks = loaded.blocks
    assert loaded.document.title == TITLE  # the Title paragraph roots every path
    assert blocks[0].kind == "heading" and blocks[0].path == (TITLE,)
    headings = [b.path for b in blocks if b.kind == "heading"][1:]
    assert headings[:4] == [
        (TITLE, "Lists"),
        (TITLE, "Lists", "Unordered"),
        (TITLE, "Lists", "Ordered"),
        (TITLE, "Lists", "Nested"),
    ]
    nested = [(b.level, b.meta["marker"], b.text) for b in blocks if b.kind == "list_item" and b.path[-1] == "Nested"]
    # as Docs shows it (and encoda's Markdown snapshot): 1. Fruit / ○ Apple / i. Braeburn ...
    assert nested[:5] == [
        (0, "1.", "Fruit"),
        (1, "○", "Apple"),
        (2, "i.", "Braeburn"),
        (2, "ii.", "Cox’s Orange"),
        (1, "○", "Orange"),
    ]
    assert (0, "2.", "Dairy") in nested and (2, "i.", "Salted") in nested  # numbering restarts under Dairy
    ordered = [b.meta["marker"] + " " + b.text for b in blocks if b.kind == "list_item" and b.path[-1] == "Ordered"]
    assert ordered == ["1. First", "2. Second", "3. Third"]
    (table,) = [b for b in blocks if b.kind == "table"]
    assert table.rows == (("A", "B", "C"), ("1", "2", "3"), ("4", "5", "6")) and table.path == (TITLE, "Tables")
    intro = blocks[1]
    (link,) = [m for m in intro.marks if m.kind == "link"]
    assert intro.text[link.start : link.end] == "here" and link.attrs["href"].startswith("https://github.com/stencila")
    assert any("images" in w for w in loaded.warnings)  # the image is said to be left out


def test_chunks_carry_paths_and_list_markers(fixture_doc):
    loaded = load(fixture_doc)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=60, min_tokens=0, overlap_tokens=0), clean_blocks(loaded)))
    nested = next(c for c in chunks if c.heading_path[-1] == "Nested")
    assert nested.text.startswith("1. Fruit\n  ○ Apple\n    i. Braeburn")
    assert all(c.heading_path[0] == TITLE for c in chunks)
    assert any(c.kinds == ("table",) and "|4|5|6|" in c.text for c in chunks)


def test_suggestions_resolve_like_tracked_changes(fixture_doc):
    doc = copy.deepcopy(fixture_doc)
    runs = doc["body"]["content"][2]["paragraph"]["elements"]
    # As the API reports a suggestion made inside the paragraph: runs split, ids on the new ones.
    first = runs[0]["textRun"]
    runs[0]["textRun"] = {**first, "content": "Given that this is a "}
    runs.insert(1, {"textRun": {"content": "real ", "textStyle": {}, "suggestedInsertionIds": ["suggest.a1"]}})
    runs.insert(
        2, {"textRun": {"content": "test fixture (used ", "textStyle": {}, "suggestedDeletionIds": ["suggest.b2"]}}
    )
    doc["suggestionsViewMode"] = "SUGGESTIONS_INLINE"
    loaded = load(doc)
    marked = loaded.blocks[1]
    kinds = {m.kind: marked.text[m.start : m.end] for m in marked.marks if m.kind in ("insertion", "deletion")}
    assert kinds == {"insertion": "real ", "deletion": "test fixture (used "}
    accepted = [b.text for b in clean_blocks(loaded)][1]
    assert accepted.startswith("Given that this is a real here), please")
    rejected, _ = clean(loaded.blocks, loaded.document, build_chain([("track_changes", {"mode": "reject"})]))
    assert list(rejected)[1].text.startswith("Given that this is a test fixture (used here)")


def test_footnotes_headers_footers_and_chips(fixture_doc):
    doc = copy.deepcopy(fixture_doc)
    body = doc["body"]["content"]
    body.insert(
        3,
        {
            "paragraph": {
                "elements": [
                    {"textRun": {"content": "Ask ", "textStyle": {}}},
                    {"person": {"personProperties": {"name": "Ada Lovelace", "email": "ada@example.com"}}},
                    {"textRun": {"content": " about ", "textStyle": {}}},
                    {
                        "richLink": {
                            "richLinkProperties": {
                                "title": "Budget 2027",
                                "uri": "https://docs.google.com/spreadsheets/d/1",
                            }
                        }
                    },
                    {"footnoteReference": {"footnoteId": "kix.fn1", "footnoteNumber": "1"}},
                    {"textRun": {"content": ".\n", "textStyle": {}}},
                ],
                "paragraphStyle": {"namedStyleType": "NORMAL_TEXT"},
            }
        },
    )
    doc["footnotes"] = {"kix.fn1": {"footnoteId": "kix.fn1", "content": [paragraph(" Approved in March.")]}}
    doc["headers"] = {"kix.h1": {"headerId": "kix.h1", "content": [paragraph("ACME Confidential")]}}
    doc["footers"] = {
        "kix.f1": {
            "footerId": "kix.f1",
            "content": [
                {
                    "paragraph": {
                        "elements": [
                            {"textRun": {"content": "Page ", "textStyle": {}}},
                            {"autoText": {"type": "PAGE_NUMBER"}},
                            {"textRun": {"content": "\n", "textStyle": {}}},
                        ],
                        "paragraphStyle": {"namedStyleType": "NORMAL_TEXT"},
                    }
                }
            ],
        }
    }
    loaded = load(doc)
    kinds = [(b.kind, b.text) for b in loaded.blocks]
    assert kinds[0] == ("paragraph", "ACME Confidential") and kinds[-1] == ("paragraph", "Page")
    assert loaded.blocks[0].layer == loaded.blocks[-1].layer == "furniture"
    assert {b.layer for b in loaded.blocks[1:-1]} == {"body"}
    i = kinds.index(("paragraph", "Ask Ada Lovelace about Budget 2027[1]."))
    assert kinds[i + 1] == ("footnote", "Approved in March.")  # the note follows its citation
    assert loaded.blocks[i + 1].meta["label"] == "1"
    chip = loaded.blocks[i]
    assert {m.kind for m in chip.marks} >= {"link", "footnote_ref"}
    texts = [b.text for b in clean_blocks(loaded)]
    assert "ACME Confidential" not in texts and "Page" not in texts  # furniture is dropped by default
    assert "Approved in March." in texts


def test_merged_cells_header_rows_and_row_suggestions(fixture_doc):
    doc = copy.deepcopy(fixture_doc)
    table = next(el["table"] for el in doc["body"]["content"] if "table" in el)
    rows = table["tableRows"]
    rows[0]["tableRowStyle"] = {"tableHeader": True}
    rows[1]["tableCells"][0]["tableCellStyle"] = {"rowSpan": 2, "columnSpan": 1}
    rows[2]["tableCells"][0]["content"] = [paragraph("")]  # Docs empties a covered cell
    rows[2]["suggestedInsertionIds"] = ["suggest.row"]
    block = next(b for b in load(doc).blocks if b.kind == "table")
    assert block.header_rows == 1 and not block.meta["header_guessed"]
    assert block.meta["merges"] == ((1, 0, 2, 0),) and block.meta["covered"] == ((2, 0),)
    assert [(r, m.kind) for r, m in block.meta["row_marks"]] == [(2, "insertion")]
    loaded = load(doc)
    rejected, _ = clean(loaded.blocks, loaded.document, build_chain([("track_changes", {"mode": "reject"})]))
    table_after = next(b for b in rejected if b.kind == "table")
    assert table_after.rows == (("A", "B", "C"), ("1", "2", "3"))  # the suggested row is gone


def test_tabs_root_their_own_headings(fixture_doc):
    body = fixture_doc["body"]
    doc = {
        "documentId": "d1",
        "title": "Handbook",
        "tabs": [
            {
                "tabProperties": {"tabId": "t.0", "title": "Policies"},
                "documentTab": {
                    "body": {"content": [paragraph("Leave", "HEADING_1"), paragraph("Twenty days a year.")]}
                },
                "childTabs": [
                    {
                        "tabProperties": {"tabId": "t.1", "title": "Travel"},
                        "documentTab": {"body": {"content": [paragraph("Book through the portal.")]}},
                    }
                ],
            },
            {
                "tabProperties": {"tabId": "t.2", "title": "Fixture"},
                "documentTab": {"body": body, "lists": fixture_doc["lists"]},
            },
        ],
    }
    blocks = load(doc).blocks
    paths = {b.text: b.path for b in blocks if b.kind != "heading"}
    assert paths["Twenty days a year."] == ("Handbook", "Policies", "Leave")
    assert paths["Book through the portal."] == ("Handbook", "Policies", "Travel")
    fruit = next(b for b in blocks if b.text == "Fruit")
    # a Title paragraph inside a tab is that tab's top heading, not the document's root
    assert fruit.path == ("Handbook", "Fixture", TITLE, "Lists", "Nested") and fruit.meta["marker"] == "1."


@pytest.mark.parametrize(
    "data, why",
    [
        (b"{not json", "not the JSON"),
        (b'{"kind": "drive#file"}', "without a document body"),
        (b"\xff\xfe", "not the JSON"),
    ],
)
def test_bad_input_names_the_document(data, why):
    doc = Document(id="bad", uri="https://docs.google.com/document/d/bad", name="bad", mime_type=GOOGLE_DOC)
    with pytest.raises(LoaderError, match=why) as err:
        load_bytes(data, doc)
    assert err.value.subject == doc.uri


def test_drive_comments_land_on_the_text_they_quote(fixture_doc):
    doc = copy.deepcopy(fixture_doc)
    person = {"displayName": "Grace Hopper", "emailAddress": "grace@example.com"}
    doc["comments"] = [  # as the Drive source adds them: the Drive API's Comment resources
        {
            "id": "c1",
            "content": "Link to the tagged release?",
            "author": person,
            "createdTime": "2026-11-02T10:00:00.000Z",
            "quotedFileContent": {"mimeType": "text/html", "value": "here"},
            "anchor": "kix.a1",
            "replies": [
                {
                    "id": "r1",
                    "content": "Done.",
                    "author": {"displayName": "Ada"},
                    "createdTime": "2026-11-03T09:00:00.000Z",
                }
            ],
        },
        {
            "id": "c2",
            "content": "Is this the right spelling?",
            "author": person,
            "resolved": True,
            "quotedFileContent": {"mimeType": "text/html", "value": "Cox&#8217;s Orange"},
        },  # HTML, as Drive sends it
        {"id": "c3", "content": "Check this total", "author": person, "quotedFileContent": {"value": "6"}},
        {
            "id": "c4",
            "content": "This sentence was rewritten",
            "author": person,
            "quotedFileContent": {"value": "no longer here"},
        },
        {"id": "c5", "content": "gone", "deleted": True, "quotedFileContent": {"value": "Fruit"}},
    ]
    loaded = load(doc)
    intro = loaded.blocks[1]
    comments = [m for m in intro.marks if m.kind == "comment"]
    assert [(intro.text[m.start : m.end], m.attrs["text"], m.attrs.get("parent")) for m in comments] == [
        ("here", "Link to the tagged release?", None),
        ("here", "Done.", "c1"),
    ]
    assert comments[0].attrs["author"] == "Grace Hopper"
    cox = next(b for b in loaded.blocks if b.text == "Cox’s Orange")
    assert [m.attrs["resolved"] for m in cox.marks if m.kind == "comment"] == ["true"]
    table = next(b for b in loaded.blocks if b.kind == "table")
    assert [(r, c, m.attrs["id"]) for r, c, m in table.meta["cell_marks"]] == [(2, 2, "c3")]
    listed = {c["id"]: c["anchor"] for c in loaded.document.meta["comments"]}
    assert listed == {"c1": "here", "c2": "Cox’s Orange", "c3": "6", "c4": ""}  # c5 was deleted
    assert any("1 comment(s)" in w for w in loaded.warnings)
    assert not any(m.kind == "comment" for b in clean_blocks(loaded) for m in b.marks)  # dropped by default
    kept, _ = clean(loaded.blocks, loaded.document, build_chain([("comments", {"keep_as_metadata": True})]))
    pieces = list(chunk(loaded, ChunkOptions(max_tokens=400), list(kept)))
    entries = {e["text"]: e for c in pieces for e in c.meta.get("comments", ())}
    assert entries["Check this total"]["anchor"] == "6" and entries["Done."]["parent"] == "c1"
