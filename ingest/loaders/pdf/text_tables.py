"""Tables set without rules: rows of short pieces whose columns line up down the page.

A financial statement or a booktabs table in a paper draws no grid for `pdf_tables` to find; its
cells come out of MuPDF as separate short lines, and read as paragraphs they put a row's label and
its figures in different blocks, one number a line. The evidence is the alignment itself: several
consecutive visual rows, each split by gaps into short pieces, whose pieces fall into the same
columns (x-ranges that overlap from row to row), with figures in the cells. Prose in two columns
has long pieces; a list has one piece a row; a label and its value on a few rows is too short a run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from .model import Line, Unit
from .paragraphs import box_of
from .tables import with_year_rows
from .thresholds import (
    BLOCK_SEGMENT,
    CELL_WORD_GAP,
    DOUBLE_STRUCK,
    LONG_ROW_CELLS,
    MIN_FILLED,
    SAME_ROW,
    TEXT_TABLE_MAX_CELL,
    TEXT_TABLE_MAX_LABEL_ROWS,
    TEXT_TABLE_MIN_ROWS,
    TEXT_TABLE_ROW_GAP,
    TEXT_TABLE_ROW_OVERLAP,
    YEAR_HEAD_SIZE_SLACK,
)

BEFORE = ("$", "\u20ac", "\u00a3", "\u00a5", "US$")
AFTER = ("%", ")", "%)", "pts", "bps")
"""A currency sign set apart before its amount, a sign set apart after it: one cell with it."""
_YEAR = re.compile(r"(?:19|20)\d\d")


def text_tables(lines: Sequence[Line], page: int) -> tuple[list[Unit], list[Line]]:
    """The tables found among a page's body lines, and the lines left for paragraphs."""
    # Most pages hold prose: without three rows that carry two short pieces each, no table.
    ys = sorted((line.bbox[1] + line.bbox[3]) / 2 for line in lines if len(line.text) <= 2 * TEXT_TABLE_MAX_CELL)
    paired = sum(
        1
        for i in range(len(ys) - 1)
        if ys[i + 1] - ys[i] < DOUBLE_STRUCK and (i == 0 or ys[i] - ys[i - 1] >= DOUBLE_STRUCK)
    )
    if paired < TEXT_TABLE_MIN_ROWS:
        return [], list(lines)
    parts: dict[int, list[Line]] = {}  # id() of a joined piece: the lines it was made of
    rows = _rows(lines, parts)
    tables: list[Unit] = []
    taken: set[int] = set()
    run: list[list[Line]] = []
    held: list[list[Line]] = []  # label rows met inside a run: its rows if more rows follow
    for row in rows + [[]]:
        if row and _cell_row(row) and (not run or _follows((held or run)[-1], row, heads=len(run) == 1 and not held)):
            run += held + [row]
            held = []
            continue
        if (
            run
            and row
            and len(held) < TEXT_TABLE_MAX_LABEL_ROWS
            and _label_row(row, run)
            and _follows((held or run)[-1], row)
        ):
            held.append(row)
            continue
        held = []
        if len(run) >= TEXT_TABLE_MIN_ROWS:
            table = _table(run, page)
            if table is not None:
                tables.append(table)
                taken.update(id(o) for r in run for line in r for o in parts.get(id(line), (line,)))
        run = [row] if row and _cell_row(row) else []
    if not tables:
        return [], list(lines)
    return tables, cut_at_tables([line for line in lines if id(line) not in taken], tables)


def cut_at_tables(lines: list[Line], tables: list[Unit]) -> list[Line]:
    """The lines left, with a pymupdf block that a table was cut out of split at the table.

    MuPDF often lays a whole statement out as one block; its lines that are no table rows (a
    title, a row group's label) would keep the block's box, which spans the tables, and read
    as one item before all of them. Split at each table above them, each part is read in its
    place: the label over the rows it heads."""
    out = []
    for line in lines:
        centre = (line.bbox[1] + line.bbox[3]) / 2
        above = sum(
            1
            for t in tables
            if t.bbox is not None and t.bbox[3] <= centre and t.bbox[0] < line.bbox[2] and line.bbox[0] < t.bbox[2]
        )
        out.append(replace(line, block=line.block + above * BLOCK_SEGMENT) if above else line)
    return out


def rows_of(lines: Sequence[Line]) -> list[list[Line]]:
    """Lines grouped into visual rows, top to bottom, each row's pieces (cells) left to right."""
    return _rows(lines, {})


def _rows(lines: Sequence[Line], parts: dict[int, list[Line]]) -> list[list[Line]]:
    """Lines grouped into visual rows (they overlap vertically by half a line), top to bottom, each
    row left to right."""
    rows: list[list[Line]] = []
    for line in sorted((ln for ln in lines if not ln.rotated), key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2):
        if rows:
            last = rows[-1]
            top, bottom = min(ln.bbox[1] for ln in last), max(ln.bbox[3] for ln in last)
            overlap = min(bottom, line.bbox[3]) - max(top, line.bbox[1])
            if overlap > SAME_ROW * min(line.height, bottom - top):
                last.append(line)
                continue
        rows.append([line])
    return [_pieces(sorted(row, key=lambda ln: ln.bbox[0]), parts) for row in rows]


def _pieces(row: list[Line], parts: dict[int, list[Line]]) -> list[Line]:
    """A row's lines with those set a word space apart joined (a phrase whose words MuPDF split is
    one cell; cells stand an em or more apart), and a currency sign or a "%" with its amount."""
    out = [row[0]]
    for line in row[1:]:
        last = out[-1]
        close = line.bbox[0] - last.bbox[2] < CELL_WORD_GAP * max(line.size, last.size)
        if line.text not in BEFORE and (close or last.text in BEFORE or line.text in AFTER):
            box = (last.bbox[0], min(last.bbox[1], line.bbox[1]), line.bbox[2], max(last.bbox[3], line.bbox[3]))
            joined = Line(f"{last.text} {line.text}", box, last.size, last.bold, last.block, italic=last.italic)
            parts[id(joined)] = parts.pop(id(last), [last]) + [line]
            out[-1] = joined
        else:
            out.append(line)
    return out


def _cell_row(row: list[Line]) -> bool:
    if len(row) < 2:
        return False
    if any(b.bbox[0] < a.bbox[2] - 1 for a, b in zip(row, row[1:])):
        return False  # pieces overlap: not cells side by side
    first, *rest = row
    if not all(len(line.text) <= TEXT_TABLE_MAX_CELL for line in rest):
        return False
    # A statement's row label may run long when only figures stand beside it.
    longest = (
        LONG_ROW_CELLS * TEXT_TABLE_MAX_CELL if all(figure(line.text) for line in rest) else 2 * TEXT_TABLE_MAX_CELL
    )
    return len(first.text) <= longest


def _label_row(row: list[Line], run: list[list[Line]]) -> bool:
    """A row of the label column alone, inside a table: a group's caption ("Cash Flows from
    Investing Activities"), a label wrapped onto a second line. It stays in the table when
    more rows follow; read apart, it would become a heading or a paragraph between two tables."""
    if len(row) != 1 or len(row[0].text) > LONG_ROW_CELLS * TEXT_TABLE_MAX_CELL or figure(row[0].text):
        return False
    cells = run[-1][1:]  # where the figure columns of the row above begin
    return row[0].bbox[0] < cells[0].bbox[0] and row[0].bbox[2] <= max(line.bbox[2] for line in cells)


def _follows(above: list[Line], row: list[Line], heads: bool = False) -> bool:
    """The next row of the same table: close below, in the same type (column heads over the first
    row may be set a size smaller or larger)."""
    gap = min(line.bbox[1] for line in row) - max(line.bbox[3] for line in above)
    height = max(line.height for line in above + row)
    slack = YEAR_HEAD_SIZE_SLACK * max(above[0].size, row[0].size) if heads and _year_heads(above) else 1.0
    # Set close, line boxes overlap a little, bold type's a little more.
    return -TEXT_TABLE_ROW_OVERLAP <= gap <= TEXT_TABLE_ROW_GAP * height and abs(above[0].size - row[0].size) <= slack


def _year_heads(row: list[Line]) -> bool:
    """A row of years over the columns ("(Millions)  2018  2017  2016"): a statement's column heads."""
    return len(row) >= 2 and all(_YEAR.fullmatch(line.text.strip()) for line in row[1:])


def _table(run: list[list[Line]], page: int) -> Unit | None:
    data = [row for row in run if any(figure(ln.text) for ln in row[1:])]
    if len(data) < max(TEXT_TABLE_MIN_ROWS, len(run) // 2):
        return None  # a grid of words is as likely a layout as a table; figures make it one
    columns = _columns(data)  # heads may span columns: the figures' rows set them
    if len(columns) < 2:
        return None
    grid = [[""] * len(columns) for _ in run]
    for r, row in enumerate(run):
        for line in row:
            c = _column_of(line, columns)
            grid[r][c] = f"{grid[r][c]} {line.text}".strip()
    grid = _rejoin_wrapped(grid)
    filled = sum(1 for row in grid for cell in row if cell)
    if filled < MIN_FILLED * len(grid) * len(columns):
        return None  # labels scattered over a chart, not rows of a table
    # The column heads: a first row without figures, or without a row label ("", "2023", "2022").
    header = with_year_rows(grid, 1 if run[0] not in data or not grid[0][0] or _year_heads(run[0]) else 0)
    lines = [ln for row in run for ln in row]
    return Unit("table", [], page, rows=tuple(tuple(r) for r in grid), header_rows=header, bbox=box_of(lines))


def _rejoin_wrapped(grid: list[list[str]]) -> list[list[str]]:
    """A label wrapped onto the next line ("Adjustments to reconcile ... to net cash" / "provided
    by operating activities") is one label: a label-only row that goes on in lower case joins the
    label-only row above it."""
    out: list[list[str]] = []
    for row in grid:
        label_only = bool(row[0]) and not any(row[1:])
        if label_only and out and not any(out[-1][1:]) and out[-1][0] and row[0][0].islower():
            out[-1][0] = f"{out[-1][0]} {row[0]}"
        else:
            out.append(row)
    return out


def _columns(rows: list[list[Line]]) -> list[tuple[float, float]]:
    """x-ranges of the rows' columns: the pieces' ranges merged where they overlap."""
    return merged_spans((line.bbox[0], line.bbox[2]) for row in rows for line in row)


def merged_spans(pieces: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """x-ranges merged where they overlap, left to right: the columns their pieces stand in."""
    spans = sorted(pieces)
    columns: list[list[float]] = []
    for x0, x1 in spans:
        if columns and x0 <= columns[-1][1]:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])
    return [(a, b) for a, b in columns]


def _column_of(line: Line, columns: list[tuple[float, float]]) -> int:
    """The column holding the piece's centre, or the nearest one."""
    centre = (line.bbox[0] + line.bbox[2]) / 2
    return min(
        range(len(columns)),
        key=lambda i: (
            0
            if columns[i][0] <= centre <= columns[i][1]
            else min(abs(centre - columns[i][0]), abs(centre - columns[i][1]))
        ),
    )


def figure(text: str) -> bool:
    """A cell that holds a figure: digits with the signs and marks of amounts and dates."""
    stripped = text.strip().replace(",", "").replace(".", "").replace("%", "").replace("$", "")
    stripped = stripped.strip("()+-\u2013\u2014 *")
    return bool(stripped) and (stripped.isdigit() or text.strip() in ("\u2014", "\u2013", "-", "n/a", "N/A"))
