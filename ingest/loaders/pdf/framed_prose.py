"""Prose caught in a ruled grid: text boxes, framed sidebars, columns drawn with rules, and the
paragraphs a table's frame takes in above or below its rows.

Read as a table, such a grid's sentences lose their paragraphs and a cell of 300 words becomes
one pipe-table row the chunker cannot cut between sentences. The evidence is the cells: nearly
all of the grid's text stands in cells of full sentences, no row holds two short cells (a header
or a record: label, figure, date), and at most one row sets a short cell beside a prose one (rows
of a term and its description are a glossary's or a risk table's records, which stay a table).
A real table's first or last rows that hold nothing but prose (a spanning row of paragraphs the
ruling reaches) are peeled off it: their lines stay the page's text, the rows below the table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .model import Grid
from .thresholds import PROSE_CHARS, PROSE_LETTERS_PER_DIGIT, PROSE_SHARE

_SENTENCE_END = re.compile(r"[a-z)\]\"'\u2019\u201d][.!?][\"'\u2019\u201d)]?(?:\s|$)")


def is_prose(cell: str) -> bool:
    """Long, in sentences, and in words rather than figures."""
    if len(cell) < PROSE_CHARS or len(_SENTENCE_END.findall(cell)) < 2:
        return False
    letters = sum(c.isalpha() for c in cell)
    return letters > PROSE_LETTERS_PER_DIGIT * sum(c.isdigit() for c in cell)


def framed_prose(rows: Sequence[Sequence[str]]) -> bool:
    """Whether a ruled grid's cells are paragraphs set in frames rather than a table's values."""
    total = prose = 0
    paired = 0
    for row in rows:
        cells = [c for c in row if c.strip()]
        long = [c for c in cells if is_prose(c)]
        short = len(cells) - len(long)
        if short >= 2:
            return False  # a header or a record row: the grid tabulates
        if long and short:
            paired += 1
        total += sum(len(c) for c in cells)
        prose += sum(len(c) for c in long)
    return paired <= 1 and total > 0 and prose >= PROSE_SHARE * total


def peel_prose(grid: Grid, rows: Sequence[Sequence[str]]) -> Grid:
    """The grid without its leading and trailing rows of prose only (or of nothing); `rows` are
    its cells' texts, one tuple a grid row."""
    keep = [k for k, row in enumerate(rows) if not all(is_prose(c) for c in row if c.strip())]
    if not keep:
        return grid
    first, last = keep[0], keep[-1]
    if not any(any(c.strip() for c in row) for row in (*rows[:first], *rows[last + 1 :])):
        return grid  # nothing but empty rows to peel: the frame stays the table's
    top = min(c[1] for c in grid.rows[first] if c is not None)
    bottom = max(c[3] for c in grid.rows[last] if c is not None)
    x0, _, x1, _ = grid.bbox
    return replace(grid, bbox=(x0, top, x1, bottom), rows=grid.rows[first : last + 1])
