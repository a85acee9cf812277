"""The Google Docs loader on Docs API JSON edge cases (list numbering and glyphs, footnotes in nested
tables, suggestions in cells), each shaped as `documents.get` reports it. The first tests each
failed before their fix."""

from __future__ import annotations

import json

from ingest.blocks import Document
from ingest.cleaners import build_chain, clean
from ingest.loaders import GOOGLE_DOC, load_bytes


def load(doc: dict):
    return load_bytes(
        json.dumps(doc).encode(),
        Document(id="d1", uri="https://docs.google.com/document/d/d1", name="Review", mime_type=GOOGLE_DOC),
    )


def run_(text: str, **extra) -> dict:
    return {"textRun": {"content": text, "textStyle": {}, **extra}}


def para(*elements, style: str = "NORMAL_TEXT", bullet: dict | None = None) -> dict:
    elements = tuple(run_(e + "\n") if isinstance(e, str) else e for e in elements)
    p = {"elements": list(elements), "paragraphStyle": {"namedStyleType": style}}
    if bullet is not None:
        p["bullet"] = bullet
    return {"paragraph": p}


def item(text: str, level: int = 0, list_id: str = "kix.list") -> dict:
    return para(text, bullet={"listId": list_id, "nestingLevel": level})


def lists(*levels: dict, list_id: str = "kix.list") -> dict:
    return {list_id: {"listProperties": {"nestingLevels": list(levels)}}}


def markers(doc: dict) -> list[tuple[str, str]]:
    return [(b.meta["marker"], b.text) for b in load(doc).blocks if b.kind == "list_item"]


def test_a_list_starting_at_zero_counts_up():
    doc = {
        "title": "Steps",
        "body": {"content": [item("Prepare"), item("Build"), item("Ship")]},
        "lists": lists({"glyphType": "DECIMAL", "glyphFormat": "%0.", "startNumber": 0}),
    }
    assert markers(doc) == [("0.", "Prepare"), ("1.", "Build"), ("2.", "Ship")]


def test_a_lettered_list_with_start_zero_begins_at_a():
    doc = {
        "title": "Options",
        "body": {"content": [item("Rent"), item("Buy")]},
        "lists": lists({"glyphType": "ALPHA", "glyphFormat": "%0)", "startNumber": 0}),
    }
    assert markers(doc) == [("a)", "Rent"), ("b)", "Buy")]


def test_a_level_with_glyph_type_none_has_no_marker():
    doc = {
        "title": "Plain",
        "body": {"content": [item("No marker shown")]},
        "lists": lists({"glyphType": "NONE", "glyphFormat": "%0"}),
    }
    assert markers(doc) == [("", "No marker shown")]


def test_a_footnote_cited_in_a_nested_table_is_kept():
    cited = para(run_("Revenue"), {"footnoteReference": {"footnoteId": "kix.fn1", "footnoteNumber": "1"}}, run_("\n"))
    inner = {"table": {"tableRows": [{"tableCells": [{"content": [cited]}]}]}}
    doc = {
        "title": "Report",
        "body": {"content": [{"table": {"tableRows": [{"tableCells": [{"content": [inner]}]}]}}]},
        "footnotes": {"kix.fn1": {"footnoteId": "kix.fn1", "content": [para("Audited figures, FY2026.")]}},
    }
    loaded = load(doc)
    assert [b.text for b in loaded.blocks if b.kind == "footnote"] == ["Audited figures, FY2026."]


def test_outline_numbering_with_parent_levels_in_the_format():
    doc = {
        "title": "Policy",
        "body": {"content": [item("Scope"), item("Staff", 1), item("Contractors", 1), item("Rules"), item("Leave", 1)]},
        "lists": lists(
            {"glyphType": "DECIMAL", "glyphFormat": "%0.", "startNumber": 1},
            {"glyphType": "DECIMAL", "glyphFormat": "%0.%1.", "startNumber": 1},
        ),
    }
    assert markers(doc) == [
        ("1.", "Scope"),
        ("1.1.", "Staff"),
        ("1.2.", "Contractors"),
        ("2.", "Rules"),
        ("2.1.", "Leave"),
    ]


def test_suggestions_in_table_cells_and_on_whole_paragraphs_resolve_both_ways():
    def cell(*elements):
        return {"content": [para(*elements)]}

    doc = {
        "title": "Leave",
        "body": {
            "content": [
                para("Allowance by role."),
                {
                    "table": {
                        "tableRows": [
                            {"tableCells": [cell("Role"), cell("Days")]},
                            {
                                "tableCells": [
                                    cell("Staff"),
                                    cell(
                                        run_("20", suggestedDeletionIds=["s1"]),
                                        run_("30", suggestedInsertionIds=["s2"]),
                                        run_("\n"),
                                    ),
                                ]
                            },
                        ]
                    }
                },
                para(run_("Carry-over is not allowed.\n", suggestedDeletionIds=["s3"])),
                para(run_("Carry-over of five days is allowed.\n", suggestedInsertionIds=["s4"])),
            ]
        },
    }
    loaded = load(doc)
    seen = {}
    for mode in ("accept", "reject"):
        blocks, _ = clean(loaded.blocks, loaded.document, build_chain([("track_changes", {"mode": mode})]))
        seen[mode] = [b.rows if b.kind == "table" else b.text for b in blocks]
    assert seen["accept"] == [
        "Allowance by role.",
        (("Role", "Days"), ("Staff", "30")),
        "Carry-over of five days is allowed.",
    ]
    assert seen["reject"] == ["Allowance by role.", (("Role", "Days"), ("Staff", "20")), "Carry-over is not allowed."]
