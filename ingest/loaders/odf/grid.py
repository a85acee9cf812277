"""Rows and cells of an ODF table, with `number-rows-repeated` / `number-columns-repeated` expanded
within a bound: a sheet's style often repeats an empty row a million times, or an empty cell to
column 16384, which costs nothing here (empty repeats only move the position), and a filled row or
cell repeated past `MAX_REPEAT` is kept `MAX_REPEAT` times, with a warning."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from lxml import etree

from .package import TABLE

MAX_REPEAT = 1000
"""Copies kept of a filled row or cell the file repeats: more is a style artefact, not data."""
_ROW_GROUPS = frozenset({TABLE + "table-rows", TABLE + "table-row-group", TABLE + "table-header-rows"})


@dataclass(frozen=True, slots=True)
class GridCell:
    col: int
    """0-based column."""
    el: etree._Element
    col_span: int = 1
    row_span: int = 1


@dataclass(frozen=True, slots=True)
class GridRow:
    row: int
    """0-based row."""
    cells: tuple[GridCell, ...]
    """Cells that are not covered by a span, with their content element."""
    width: int
    """Columns the row reaches, covered and empty cells included (empty repeats at the end too)."""
    header: bool
    clipped: bool
    """The file repeats the row, or a filled cell in it, more than `MAX_REPEAT` times."""


def rows(table: etree._Element, filled: Callable[[etree._Element], bool]) -> Iterator[GridRow]:
    """Each row of `table` in order, a repeated row once per copy kept; a row where `filled(cell)`
    is false for every cell is yielded once whatever its repeat count, with the count."""
    at = 0
    for row_el, header in _row_elements(table, False):
        repeat = _int(row_el.get(TABLE + "number-rows-repeated"))
        cells, width, clipped = _cells(row_el, filled)
        copies = min(repeat, MAX_REPEAT) if cells else 1
        clipped = clipped or (bool(cells) and repeat > MAX_REPEAT)
        for k in range(copies):
            yield GridRow(at + k, cells, width, header, clipped)
        at += repeat


def _row_elements(parent: etree._Element, header: bool) -> Iterator[tuple[etree._Element, bool]]:
    for el in parent:
        if el.tag == TABLE + "table-row":
            yield el, header
        elif el.tag in _ROW_GROUPS:
            yield from _row_elements(el, header or el.tag == TABLE + "table-header-rows")


def _cells(row: etree._Element, filled: Callable[[etree._Element], bool]) -> tuple[tuple[GridCell, ...], int, bool]:
    out: list[GridCell] = []
    col = 0
    clipped = False
    for el in row:
        if el.tag not in (TABLE + "table-cell", TABLE + "covered-table-cell"):
            continue
        repeat = _int(el.get(TABLE + "number-columns-repeated"))
        if el.tag == TABLE + "table-cell" and filled(el):
            span_c = _int(el.get(TABLE + "number-columns-spanned"))
            span_r = _int(el.get(TABLE + "number-rows-spanned"))
            clipped = clipped or repeat > MAX_REPEAT
            for k in range(min(repeat, MAX_REPEAT)):
                out.append(GridCell(col + k, el, span_c, span_r))
        col += repeat
    return tuple(out), col, clipped


def _int(value: str | None) -> int:
    try:
        return max(1, int(value)) if value else 1
    except ValueError:
        return 1
