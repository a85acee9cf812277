"""Shaded boxes that hold text: an aside's reach.

A manual sets a "NOTE" in bold atop a grey box over the note's lines; a report sets a sidebar's
title atop its shaded box. Taken for a heading, such a title held everything after it, the
section's own text under the box included. A filled rectangle, in a colour other than the paper's
white, that holds whole lines (two or more, none crossing its edge) and leaves other text of the
page outside is a box; a heading inside it that heads text inside it, below the heading in force,
heads only the box.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from .model import Box, Line
from .thresholds import PAPER, TEXT_BOX_MAX_PAGE_SHARE, TEXT_BOX_MIN_HEIGHT, TEXT_BOX_MIN_LINES


def text_boxes(vectors: Sequence[dict], lines: Sequence[Line], width: float, height: float) -> tuple[Box, ...]:
    """The page's shaded rectangles that hold two or more whole lines, none across their edge,
    with text of the page left outside (a page's background holds it all)."""
    fills = [
        v["bbox"]
        for v in vectors
        if v.get("isrect")
        and not v.get("stroked")
        and v.get("color") not in (None, PAPER)
        and v["bbox"][3] - v["bbox"][1] >= TEXT_BOX_MIN_HEIGHT
    ]
    if not fills or len(lines) < TEXT_BOX_MIN_LINES:
        return ()
    rows = sorted(lines, key=lambda line: line.bbox[1])
    tops = [line.bbox[1] for line in rows]
    tallest = max(line.height for line in rows)
    least = 2 * min(line.height for line in rows)
    out = []
    for box in fills:
        if box[3] - box[1] < least or (box[2] - box[0]) * (box[3] - box[1]) > TEXT_BOX_MAX_PAGE_SHARE * width * height:
            continue
        # Only lines whose top lies within a line's height of the box can meet it.
        near = rows[bisect.bisect_left(tops, box[1] - tallest) : bisect.bisect_right(tops, box[3])]
        inside = sum(1 for line in near if holds(box, line.bbox))
        if inside < 2 or inside == len(rows):
            continue
        if not any(_meets(box, line.bbox) and not holds(box, line.bbox) for line in near):
            out.append(box)
    return tuple(out)


def holds(box: Box, bbox: Box) -> bool:
    return box[0] - 1 <= bbox[0] and bbox[2] <= box[2] + 1 and box[1] - 1 <= bbox[1] and bbox[3] <= box[3] + 1


def _meets(box: Box, bbox: Box) -> bool:
    return min(box[2], bbox[2]) - max(box[0], bbox[0]) > 1 and min(box[3], bbox[3]) - max(box[1], bbox[1]) > 1
