"""Cell comments of workbooks: notes and threaded comments become comment marks on their cell,
which the `comments` cleaner drops or keeps, as it does for Word comments.

Expected comments come from the workbook parts themselves (openpyxl's full-mode read, which loads
notes; the threaded-comment XML for threads), never from our output.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.comments import Comment
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import coordinate_to_tuple

from ingest.blocks import Loaded
from ingest.chunker import chunk
from ingest.cleaners import build_chain, clean
from ingest.loaders import load_bytes, load_file, local_document

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:openpyxl")

DUCKS = "docling/xlsx/sources/xlsx_comments.xlsx"  # two notes, two threads (one with a reply)
NOTES = "openpyxl/openpyxl/comments/tests/data/comments.xlsx"  # notes on three sheets, one on an empty cell
VBA = "openpyxl/openpyxl/tests/data/reader/vba+comments.xlsm"  # a note on an empty cell far from any value


def comments_by_cell(loaded: Loaded) -> dict[tuple[str, str], list[tuple[str, dict]]]:
    """(sheet, cell) -> [(anchor text, attrs)] over block marks and table cell marks."""
    out: dict[tuple[str, str], list[tuple[str, dict]]] = {}
    for b in loaded.blocks:
        found = [(b.text[m.start : m.end], m.attrs) for m in b.marks if m.kind == "comment"]
        found += [
            (b.rows[r][c][m.start : m.end], m.attrs) for r, c, m in b.meta.get("cell_marks", ()) if m.kind == "comment"
        ]
        for anchor, attrs in found:
            out.setdefault((b.meta["sheet"], attrs["cell"]), []).append((anchor, dict(attrs)))
    return out


def cell_value(path: Path, sheet: str, cell: str) -> str:
    value = openpyxl.load_workbook(path, data_only=True)[sheet][cell].value
    return "" if value is None else str(value)


def rezip(data: bytes, parts: dict[str, bytes | None]) -> bytes:
    """The package with some parts replaced (None: removed)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename not in parts:
                dst.writestr(info, src.read(info.filename))
            elif parts[info.filename] is not None:
                dst.writestr(info, parts[info.filename])
    return out.getvalue()


def load_data(data: bytes, name: str) -> Loaded:
    return load_bytes(data, local_document(Path(name), data, 0.0))


def test_notes_reach_their_cells_as_openpyxl_reads_them(corpus):
    """Every note openpyxl's full mode reads is one comment mark on that cell, over the cell's
    text, with its author; the "Author:" line Excel puts on top of a note is not repeated."""
    path = corpus / NOTES
    loaded = load_file(path)
    found = comments_by_cell(loaded)
    wb = openpyxl.load_workbook(path)
    expected = {
        (ws.title, cell.coordinate): cell.comment
        for ws in wb
        for row in ws.iter_rows()
        for cell in row
        if cell.comment is not None
    }
    assert len(expected) == 7 and set(found) == set(expected)
    for (sheet, cell), note in expected.items():
        ((anchor, attrs),) = found[(sheet, cell)]
        assert attrs["author"] == note.author
        assert note.text.endswith(attrs["text"]) and attrs["text"] in note.text.split("\n")
        value = cell_value(path, sheet, cell)
        assert anchor == value  # "" for E7, which holds no value
    # Sheet2 has no comments; its block carries none.
    assert not any(b.marks for b in loaded.blocks if b.meta.get("sheet") == "Sheet2")
    assert [c["cell"] for c in loaded.document.meta["comments"]] == [cell for _, cell in expected]


def test_comment_on_a_table_cell_is_a_cell_mark_at_its_position(corpus):
    loaded = load_file(corpus / NOTES)
    (table,) = [b for b in loaded.blocks if b.kind == "table"]
    top, left = coordinate_to_tuple(table.meta["cell"])
    for r, c, mark in table.meta["cell_marks"]:
        assert mark.attrs["cell"] == f"{get_column_letter(left + c)}{top + r}"
        assert table.rows[r][c] == cell_value(corpus / NOTES, "Sheet1", mark.attrs["cell"])


def test_comment_on_an_empty_cell_rides_on_the_nearest_block(corpus):
    """E7 holds nothing; C7 is the nearest value. B1 (vba+comments) is nearest to B6."""
    loaded = load_file(corpus / NOTES)
    (block,) = [b for b in loaded.blocks if any(m.attrs.get("cell") == "E7" for m in b.marks)]
    assert block.meta["cell"] == "C7"
    mark = next(m for m in block.marks if m.attrs["cell"] == "E7")
    assert (mark.start, mark.end) == (0, 0) and mark.attrs["text"] == "Comment without data in cell"

    loaded = load_file(corpus / VBA)
    (block,) = [b for b in loaded.blocks if b.marks]
    assert block.meta["cell"] == "B6"
    ((mark,),) = [block.marks]
    assert mark.attrs["cell"] == "B1" and mark.attrs["author"] == "John" and mark.attrs["text"] == "Hello"


def test_threads_win_over_their_legacy_mirror(corpus):
    """A thread and its reply come from the threaded part (people, dates); the "[Threaded
    comment]" mirror Excel writes beside it is not a second comment."""
    path = corpus / DUCKS
    loaded = load_file(path)
    found = comments_by_cell(loaded)
    assert set(found) == {("Sheet1", c) for c in ("A1", "B2", "F7", "G12")}
    assert not any("[Threaded comment]" in attrs["text"] for notes in found.values() for _, attrs in notes)
    first, reply = [attrs for _, attrs in found[("Sheet1", "F7")]]
    assert (first["text"], first["author"]) == ("Minimum number of saltwater ducks", "Jane Smith (JS)")
    assert (reply["text"], reply["author"]) == ("I never thought it would be so low", "Marcus Sterling (MS)")
    assert reply["parent"] == first["id"] and first["date"].startswith("2026-06-18T17:12")
    for (sheet, cell), notes in found.items():
        assert {anchor for anchor, _ in notes} == {cell_value(path, sheet, cell)}
    (note,) = [attrs for _, attrs in found[("Sheet1", "A1")]]
    assert (note["author"], note["text"]) == ("John Reviewer", "Why Python specifically?")


def test_default_chain_drops_comments_from_chunks_and_keeps_cell_values(corpus):
    loaded = load_file(corpus / DUCKS)
    blocks, report = clean(loaded.blocks, loaded.document, build_chain([]))
    blocks = list(blocks)
    assert report["comments"]["comments"] == 5
    assert not any(
        m.kind == "comment" for b in blocks for m in (*b.marks, *(x[2] for x in b.meta.get("cell_marks", ())))
    )
    chunks = list(chunk(loaded, None, blocks))
    text = "\n".join(c.text for c in chunks)
    assert "Python is great" in text and "|2019|120|80|200|" in text
    for words in ("Why Python specifically", "saltwater ducks", "so low", "Jane Smith"):
        assert words not in text
    assert not any("comments" in c.meta for c in chunks)


def test_keep_as_metadata_puts_sheet_comments_in_chunk_meta(corpus):
    loaded = load_file(corpus / DUCKS)
    blocks, report = clean(loaded.blocks, loaded.document, build_chain([("comments", {"keep_as_metadata": True})]))
    chunks = list(chunk(loaded, None, list(blocks)))
    kept = [entry for c in chunks for entry in c.meta.get("comments", ())]
    assert report["comments"]["comments"] == 5
    by_text = {e["text"]: e for e in kept}
    assert len(kept) == 5 and len(by_text) == 5
    assert by_text["Why Python specifically?"] == {
        "author": "John Reviewer",
        "text": "Why Python specifically?",
        "cell": "A1",
        "anchor": "Python is great",
    }
    assert by_text["I never thought it would be so low"]["anchor"] == "80"  # F7: Saltwater Ducks, 2019
    assert by_text["Maximum number of ducks"]["anchor"] == "310"  # G12: Ducks, 2024
    assert by_text["Minimum number of saltwater ducks"]["date"].startswith("2026-06-18")
    assert "saltwater ducks" not in "\n".join(c.text for c in chunks)


def test_broken_comments_part_costs_its_comments_and_a_warning(corpus):
    data = (corpus / NOTES).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        truncated = zf.read("xl/comments1.xml")[:300]
    whole = load_data(data, "comments.xlsx")
    broken = load_data(rezip(data, {"xl/comments1.xml": truncated}), "comments.xlsx")
    (warning,) = broken.warnings
    assert "xl/comments1.xml" in warning and "Sheet1" in warning
    assert [b.text for b in broken.blocks] == [b.text for b in whole.blocks]
    assert set(comments_by_cell(broken)) == {("Sheet3", "A1")}  # the other sheet's part is fine

    missing = load_data(rezip(data, {"xl/comments2.xml": None}), "comments.xlsx")
    (warning,) = missing.warnings
    assert "xl/comments2.xml" in warning and "missing" in warning
    assert ("Sheet3", "A1") not in comments_by_cell(missing) and ("Sheet1", "A1") in comments_by_cell(missing)


def test_broken_thread_part_falls_back_to_the_legacy_mirror(corpus):
    data = (corpus / DUCKS).read_bytes()
    name = "xl/threadedComments/threadedComment1.xml"
    loaded = load_data(rezip(data, {name: b"<ThreadedComments><threadedComment ref="}), "ducks.xlsx")
    (warning,) = loaded.warnings
    assert name in warning
    found = comments_by_cell(loaded)
    texts = [attrs["text"] for _, attrs in found[("Sheet1", "F7")]]
    assert texts == ["Minimum number of saltwater ducks", "I never thought it would be so low"]
    assert not any("Threaded comment" in attrs["text"] for notes in found.values() for _, attrs in notes)


def test_workbook_written_by_openpyxl(tmp_path):
    """Notes on a table cell, on an empty cell inside a table, on a merged title and far away."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws["A1"] = "Budget 2024"
    ws.merge_cells("A1:C1")
    ws.append(["Item", "Q1", "Q2"])
    ws.append(["Rent", 1200, 1250])
    ws.append(["Power", None, 310])
    ws["A1"].comment = Comment("Draft, not approved", "Eve")
    ws["C3"].comment = Comment("Raised in April", "Bob")
    ws["B4"].comment = Comment("Bill not in yet", "Bob")
    ws["H20"].comment = Comment("Scratch area", "Eve")
    wb.create_sheet("Hidden").sheet_state = "hidden"
    wb["Hidden"]["A1"] = "secret"
    wb["Hidden"]["A1"].comment = Comment("never shown", "Eve")
    path = tmp_path / "budget.xlsx"
    wb.save(path)

    loaded = load_file(path)
    found = comments_by_cell(loaded)
    assert found[("Budget", "A1")] == [
        ("Budget 2024", {"id": "Budget!A1", "author": "Eve", "text": "Draft, not approved", "cell": "A1"})
    ]
    assert [a for a, _ in found[("Budget", "C3")]] == ["1250"]
    assert [a for a, _ in found[("Budget", "B4")]] == [""]  # a hole in the table is still its cell
    (table,) = [b for b in loaded.blocks if b.kind == "table"]
    assert {m.attrs["cell"] for _, _, m in table.meta["cell_marks"]} == {"C3", "B4"}
    assert [m.attrs["cell"] for m in table.marks] == ["H20"]  # nearest block to H20
    assert not any("never shown" in str(c) for c in loaded.document.meta["comments"])
    assert len(loaded.document.meta["comments"]) == 4
    assert not any("comment" in w for w in loaded.warnings)  # the hidden sheet's note is not read


def test_workbooks_without_comments_carry_none(corpus):
    for path in (corpus / "unstructured/example-docs/stanley-cups.xlsx", corpus / "docling/xlsx/sources/xlsx_01.xlsx"):
        loaded = load_file(path)
        assert not comments_by_cell(loaded) and "comments" not in loaded.document.meta
        assert not any("comment" in w for w in loaded.warnings)


def test_missing_person_list_keeps_threads_without_authors(corpus):
    data = (corpus / DUCKS).read_bytes()
    loaded = load_data(rezip(data, {"xl/persons/person.xml": None}), "ducks.xlsx")
    (warning,) = loaded.warnings
    assert "xl/persons/person.xml" in warning
    first, reply = [attrs for _, attrs in comments_by_cell(loaded)[("Sheet1", "F7")]]
    assert (first["author"], reply["author"]) == ("", "")
    assert reply["text"] == "I never thought it would be so low" and reply["parent"] == first["id"]


def test_sheet_with_comments_but_no_values_is_said(tmp_path):
    wb = openpyxl.Workbook()
    wb.active["A1"] = "Totals"
    empty = wb.create_sheet("Scratch")
    empty["C3"].comment = Comment("to fill in", "Eve")
    path = tmp_path / "scratch.xlsx"
    wb.save(path)
    loaded = load_file(path)
    (warning,) = loaded.warnings
    assert "'Scratch'" in warning and "1 comment" in warning
    (kept,) = loaded.document.meta["comments"]
    assert (kept["sheet"], kept["cell"], kept["text"]) == ("Scratch", "C3", "to fill in")
    assert not comments_by_cell(loaded)
