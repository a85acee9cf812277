"""Large generated sheets: the row-by-row grid must cut the same regions a cell-by-cell one did.

The expected blocks are built from the values written, not from the loader: a big table with
holes, a title line over it, a table beside it past an empty column, a lone cell below a blank row.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import openpyxl

from ingest.loaders import load_bytes, local_document

ROWS = 20_000
CITIES = ("Oslo", "Lima", "Pune", "Kyiv")


def _quarter(i: int) -> str:
    return str(i // 4) if i % 4 == 0 else repr(i / 4)  # General format: no trailing zeros


def _big_sheet(path: Path) -> list[tuple[str, ...]]:
    """Writes the workbook; returns the big table's rows as a reader sees them."""
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Data")
    ws.append(["Quarterly items"])  # a title line above the table
    header = ("id", "name", "quarter", "day", "city", "note")
    ws.append([*header, None, "side", "by"])  # column G empty: H:I is a table of its own
    expected = [header]
    start = date(2021, 3, 1)
    for i in range(ROWS):
        note = f"note {i}" if i % 5 == 0 else None  # holes in the last column
        day = start + timedelta(days=i % 900)
        side = [None, f"s{i}", str(i % 3)] if i < 3 else []
        ws.append([i + 1, f"item {i}", i / 4, day, CITIES[i % 4], note, *side])
        expected.append((str(i + 1), f"item {i}", _quarter(i), day.isoformat(), CITIES[i % 4], note or ""))
    ws.append([])
    ws.append([None, "the end"])
    wb.save(path)
    return expected


def test_large_sheet_regions(tmp_path: Path) -> None:
    path = tmp_path / "large.xlsx"
    expected = _big_sheet(path)
    data = path.read_bytes()
    loaded = load_bytes(data, local_document(path, data, 0.0))
    kinds = [(b.kind, b.meta.get("cell")) for b in loaded.blocks]
    assert kinds == [
        ("heading", None),
        ("caption", "A1"),
        ("table", "A2"),
        ("table", "H2"),
        ("paragraph", f"B{ROWS + 4}"),
    ]
    caption, table, side, end = loaded.blocks[1:]
    assert caption.text == "Quarterly items"
    assert table.rows == tuple(expected)
    assert table.header_rows == 1
    assert table.meta["range"] == f"A2:F{ROWS + 2}"
    assert table.meta["header"] == "detected"
    assert "merges" not in table.meta
    assert table.text.splitlines()[:3] == [
        "|id|name|quarter|day|city|note|",
        "|---|---|---|---|---|---|",
        "|1|item 0|0|2021-03-01|Oslo|note 0|",
    ]
    assert side.rows == (("side", "by"), ("s0", "0"), ("s1", "1"), ("s2", "2"))
    assert side.meta["range"] == "H2:I5"
    assert end.text == "the end"


def test_merged_header_over_many_rows(tmp_path: Path) -> None:
    """Rows under a merge take the cell-by-cell path, the rest the row-as-read path."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Merged"
    ws.append(["id", "amounts", None, "label"])
    ws.merge_cells("B1:C1")
    for i in range(3_000):
        ws.append([i, i * 2, i * 3, f"L{i}" if i % 2 else None])
    ws.merge_cells("A1000:A1001")  # a vertical merge inside the body
    path = tmp_path / "merged.xlsx"
    wb.save(path)
    data = path.read_bytes()
    loaded = load_bytes(data, local_document(path, data, 0.0))
    table = loaded.blocks[1]
    assert table.rows[0] == ("id", "amounts", "amounts", "label")
    body = [(str(i), str(i * 2), str(i * 3), f"L{i}" if i % 2 else "") for i in range(3_000)]
    body[999] = (body[998][0], *body[999][1:])  # row 1001 lies under A1000's merge: its text
    assert table.rows[1:] == tuple(body)
    assert sorted(table.meta["merges"]) == [(0, 1, 0, 2), (999, 0, 1000, 0)]  # table coordinates
    assert table.meta["covered"] == ((0, 2), (1000, 0))
    assert table.meta["range"] == "A1:D3001"
