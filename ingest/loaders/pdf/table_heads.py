"""A statement's column heads set in the page's top band over a ruled table: the table's first row.

A 10-K's statement pages put "(Millions, except per share amounts)  2022  2021  2020" right over
the grid of figures, high enough to sit in the top band, and the same row recurs on every
statement page, so as a band line it went as a running header and the table lost its years. A
top-band row made of periods and units with a year in it (`pdf_margins.head_words`), set right
over a ruled table (its top within a line and a half), each year over one of the table's columns
of figures, becomes the table's header row, its pieces in the columns under them.
"""

from __future__ import annotations

from dataclasses import replace

from .margins import YEAR, head_words
from .model import Line, PageLines, Unit
from .thresholds import HEAD_REACH, SAME_ROW


def heads_into_tables(placed: PageLines, tables: list[Unit]) -> tuple[PageLines, list[Unit]]:
    if not any(t.kind == "table" and t.columns for t in tables):
        return placed, tables
    taken: set[int] = set()
    out = list(tables)
    for group in placed.margin:
        band, lines = group
        if band != "top" or not all(head_words(line.text) for line in lines):
            continue
        years = [line for line in lines if YEAR.search(line.text)]
        if not years or not _one_row(lines):
            continue
        for k, table in enumerate(out):
            row = _row_over(lines, years, table) if table.kind == "table" and table.columns else None
            if row is not None:
                out[k] = replace(table, rows=(row, *(table.rows or ())), header_rows=table.header_rows + 1)
                taken.add(id(group))
                break
    if not taken:
        return placed, tables
    return replace(placed, margin=tuple(g for g in placed.margin if id(g) not in taken)), out


def _one_row(lines: tuple[Line, ...]) -> bool:
    top = max(line.bbox[1] for line in lines)
    bottom = min(line.bbox[3] for line in lines)
    return bottom - top > SAME_ROW * min(line.height for line in lines)


def _row_over(lines: tuple[Line, ...], years: list[Line], table: Unit) -> tuple[str, ...] | None:
    """The header row the lines make for the table right under them, or None."""
    assert table.bbox is not None
    x0, y0, x1, _ = table.bbox
    bottom = max(line.bbox[3] for line in lines)
    pitch = max(line.height for line in lines)
    if not bottom - 1 <= y0 <= bottom + HEAD_REACH * pitch:
        return None
    if min(line.bbox[0] for line in lines) > x1 or max(line.bbox[2] for line in lines) < x0:
        return None
    columns = table.columns
    cells = [""] * len(columns)
    for line in sorted(lines, key=lambda ln: ln.bbox[0]):
        k = _column(line, columns)
        if line in years and k == 0:
            return None  # a year over the row labels heads no column of figures
        cells[k] = f"{cells[k]} {line.text}".strip()
    return tuple(cells)


def _column(line: Line, columns: tuple[tuple[float, float], ...]) -> int:
    """The column the line's middle falls in, or the nearest."""
    mid = (line.bbox[0] + line.bbox[2]) / 2
    return min(range(len(columns)), key=lambda k: max(columns[k][0] - mid, mid - columns[k][1], 0.0))
