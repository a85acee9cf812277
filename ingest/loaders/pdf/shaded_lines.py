"""Lines painted each over its own fill, read as the block they are.

A sidebar may shade every line of its text with a fill of its own (the box's colour, drawn right
before the line). Collecting the page's vectors, MuPDF ends a text block at every drawing, so
such a column comes out as one block a line; read among the items beside it (a chart's title and
notes), a block of one line is no column, and the page was read row by row across the two, the
sidebar's lines mixed with the notes'. A text block whose only predecessors since the last text
block are fills behind its own line, stacked right under that block's last line in its size and
at its left edge, is the same block: it takes that block's number.
"""

from __future__ import annotations

from .thresholds import SAME_SIZE_TIGHT, SHADE_COVER, SHADED_OVERLAP, SHADED_STACKED, VECTOR_BLOCK


def rejoin_shaded_lines(blocks: list[dict]) -> None:
    """In place: renumber each text block split off its predecessor by its line's own fills."""
    above: dict | None = None
    fills: list[dict] = []
    for block in blocks:
        if block["type"] == VECTOR_BLOCK:
            fills.append(block)
            continue
        if block["type"] != 0 or not block["lines"]:
            continue
        if above is not None and fills and all(_behind(f, block) for f in fills) and _stacked(above, block):
            block["number"] = above["number"]
        above, fills = block, []


def _behind(fill: dict, block: dict) -> bool:
    """A filled rectangle behind the block's box (its line's shading; a line may run a little
    past its fill's end)."""
    if not fill.get("isrect") or fill.get("stroked") or fill.get("color") is None:
        return False
    x0, y0, x1, y1 = fill["bbox"]
    a, b, c, d = block["bbox"]
    return x0 <= a + 1 and y0 <= b + 2 and d - 2 <= y1 and min(c, x1) - a >= SHADE_COVER * (c - a)


def _stacked(above: dict, block: dict) -> bool:
    last, first = above["lines"][-1], block["lines"][0]
    size = _size(last)
    height = last["bbox"][3] - last["bbox"][1]
    gap = first["bbox"][1] - last["bbox"][3]
    return (
        size > 0
        and abs(_size(first) - size) <= SAME_SIZE_TIGHT
        and abs(first["bbox"][0] - last["bbox"][0]) <= 1
        and -SHADED_OVERLAP * height <= gap <= SHADED_STACKED * height
    )


def _size(line: dict) -> float:
    return max((s["size"] for s in line["spans"] if s["text"].strip()), default=0.0)
