"""HTML tables as a grid of cell texts, in the shared table convention (see word/docx_tables.py):
a merged cell's text once, in its anchor (top-left) cell; the cells a `rowspan`/`colspan` covers
are empty strings listed in `covered` and the range in `merges`. Header rows are the `thead`'s and
the leading rows made only of `th` cells."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from lxml import etree

from ..word.outline import Table

MAX_SPAN = 1000
"""Browsers clamp colspan at 1000 and rowspan at 65534; a span past the table's end stops there."""

CellText = Callable[[etree._Element], str]


def rows_of(table: etree._Element) -> Iterator[tuple[etree._Element, bool]]:
    """The table's own rows (not a nested table's), each with whether it sits in `thead`."""
    for child in table:
        if child.tag == "tr":
            yield child, False
        elif child.tag in ("thead", "tbody", "tfoot"):
            for row in child:
                if row.tag == "tr":
                    yield row, child.tag == "thead"


def cells_of(row: etree._Element) -> list[etree._Element]:
    return [c for c in row if c.tag in ("td", "th")]


def read_table(table: etree._Element, cell_text: CellText, skip: Callable[[etree._Element], bool]) -> Table | None:
    """The grid of `table`, or None when it has no cell."""
    rows: list[list[str]] = []
    covered: list[tuple[int, int]] = []
    merges: list[tuple[int, int, int, int]] = []
    carry: dict[int, int] = {}  # column -> rows a rowspan above still covers there
    header_rows = 0
    counting_header = True
    for r, (tr, in_head) in enumerate(x for x in rows_of(table) if not skip(x[0])):
        row: list[str] = []
        cells = [c for c in cells_of(tr) if not skip(c)]
        for cell in cells:
            _carried(row, r, carry, covered)
            c = len(row)
            cols = _span(cell.get("colspan"))
            down = _span(cell.get("rowspan"))
            row.append(cell_text(cell))
            for k in range(1, cols):
                covered.append((r, c + k))
                row.append("")
            if down > 1:
                for k in range(cols):
                    carry[c + k] = down - 1
            if cols > 1 or down > 1:
                merges.append((r, c, r + down - 1, c + cols - 1))
        while any(n > 0 for col, n in carry.items() if col >= len(row)):
            if carry.get(len(row), 0) > 0:
                _carried(row, r, carry, covered)
            else:
                row.append("")
        counting_header = counting_header and bool(cells) and (in_head or all(c.tag == "th" for c in cells))
        header_rows += counting_header
        rows.append(row)
    if not any(any(row) for row in rows):
        return None
    width = max(len(r) for r in rows)
    for row in rows:
        row.extend([""] * (width - len(row)))
    last = len(rows) - 1
    # A rowspan past the last row stops there, as browsers draw it; its phantom cells are not covered.
    covered = [(r, c) for r, c in covered if r <= last]
    clipped = [(r, c, min(r1, last), c1) for r, c, r1, c1 in merges]
    guessed = header_rows == 0 and len(rows) > 1
    return Table(
        rows=tuple(tuple(r) for r in rows),
        header_rows=1 if guessed else min(header_rows, len(rows)),
        header_guessed=guessed,
        covered=tuple(covered),
        cell_marks=(),
        row_marks=(),
        merges=tuple(m for m in clipped if (m[2], m[3]) != (m[0], m[1])),
    )


def _carried(row: list[str], r: int, carry: dict[int, int], covered: list[tuple[int, int]]) -> None:
    """Fill the cells a rowspan from above covers at the row's end, as empty covered cells."""
    while carry.get(len(row), 0) > 0:
        carry[len(row)] -= 1
        covered.append((r, len(row)))
        row.append("")


def _span(value: str | None) -> int:
    value = (value or "").strip()
    if not value.isdigit() or int(value) < 1:
        return 1  # rowspan="0" ("to the end of the group") is rare; read as one row
    return min(int(value), MAX_SPAN)
