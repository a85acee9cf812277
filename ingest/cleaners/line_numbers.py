"""Drop the line-number gutter of pleading paper: a column of small increasing integers.

The PDF loader keeps a bare small number that sits left (or right) of the body's text edge as its
own block with `meta["band"]` "left"/"right". On one page, those sharing an x position (right
edges within a few points) form a column; a column of at least `min_run` numbers that mostly rise
down the page is a gutter and goes. Numbered list items, table cells and figures in the text never
reach this cleaner as candidates: they sit inside the body's edge.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pydantic import BaseModel, Field

from ..blocks import Block
from . import CleanContext, Cleaner, drop_lines


class LineNumberOptions(BaseModel):
    min_run: int = Field(5, ge=2)
    """Numbers a column needs on one page to count as a gutter."""
    tolerance: float = Field(4.0, ge=0)
    """Points the numbers' right edges may drift within one column."""
    rising: float = Field(0.8, gt=0, le=1)
    """Share of a column's numbers that must rise down the page."""


def drop_line_numbers(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    opts = ctx.options_as(LineNumberOptions)
    blocks = list(blocks)
    columns: dict[tuple[int | None, str], list[list[int]]] = {}
    boxes: dict[int, tuple[float, float, float, float]] = {}  # the candidates' positions, by index
    for i, block in enumerate(blocks):
        band = block.meta.get("band") if block.meta else None
        if band not in ("left", "right") or not block.text.strip().isdigit() or block.bbox is None:
            continue
        boxes[i] = block.bbox
        cols = columns.setdefault((block.page, band), [])
        for col in cols:
            if abs(boxes[col[0]][2] - block.bbox[2]) <= opts.tolerance:
                col.append(i)
                break
        else:
            cols.append([i])
    drop: set[int] = set()
    for cols in columns.values():
        for col in cols:
            if len(col) < opts.min_run:
                continue
            col.sort(key=lambda i: boxes[i][1])
            values = [int(blocks[i].text) for i in col]
            rising = _rising(values)
            if len(rising) >= opts.rising * len(col):
                drop.update(col[k] for k in rising)
    yield from drop_lines(blocks, drop, ctx)


def _rising(values: list[int]) -> list[int]:
    """Positions of the longest strictly rising subsequence."""
    best = [1] * len(values)
    prev = [-1] * len(values)
    for j in range(len(values)):
        for i in range(j):
            if values[i] < values[j] and best[i] + 1 > best[j]:
                best[j], prev[j] = best[i] + 1, i
    if not values:
        return []
    j = max(range(len(values)), key=best.__getitem__)
    out = []
    while j != -1:
        out.append(j)
        j = prev[j]
    return out[::-1]


cleaner = Cleaner(
    name="line_numbers",
    run=drop_line_numbers,
    options=LineNumberOptions,
    default_for=frozenset({"application/pdf"}),
)
