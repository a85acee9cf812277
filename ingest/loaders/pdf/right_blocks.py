"""Blocks of a right-to-left page, regrouped where MuPDF cut them line by line.

MuPDF groups a page's lines into blocks by where they start, and it takes the left edge for the
start. A right-to-left column set ragged left starts each line at its right edge, so MuPDF opens
a block per line, and where two such columns share the page a block per row holds one line of
each: no block is a column, and the columns' lines were read across the gutter, row by row. Here
a block joins the one above it when each of its lines sits right under a line of that block,
their right edges aligned (the script's starting edge) and in the same type: lines stacked from
one right edge are one column's, as MuPDF would have grouped them from a left edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import Line
from .thresholds import RIGHT_BLOCK_GAP, RIGHT_EDGE, SAME_SIZE


def regroup(blocks: Sequence[list[Line]]) -> list[list[Line]]:
    """The blocks (each in MuPDF's line order) with those that go on a column's lines from the
    block above them joined to it."""
    out: list[list[Line]] = []
    last: list[Line] = []  # the lines of the block joined last: the rows to go on from
    for block in sorted(blocks, key=lambda b: min(line.bbox[1] for line in b)):
        if out and _goes_on(last, block):
            out[-1].extend(block)
        else:
            out.append(list(block))
        last = block
    return out


def _goes_on(above: list[Line], block: list[Line]) -> bool:
    if len(above) != len(block):
        return False
    taken: set[int] = set()
    for line in block:
        match = next(
            (
                k
                for k, a in enumerate(above)
                if k not in taken
                and abs(a.bbox[2] - line.bbox[2]) <= RIGHT_EDGE
                and abs(a.size - line.size) <= SAME_SIZE
                and a.bold == line.bold
                and -1 <= line.bbox[1] - a.bbox[3] <= RIGHT_BLOCK_GAP * line.height
            ),
            None,
        )
        if match is None:
            return False
        taken.add(match)
    return True
