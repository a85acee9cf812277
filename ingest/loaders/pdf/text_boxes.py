"""Shaded boxes that hold text: an aside's reach.

A manual sets a "NOTE" in bold atop a grey box over the note's lines; a report sets a sidebar's
title atop its shaded box. Taken for a heading, such a title held everything after it, the
section's own text under the box included. A filled rectangle that holds whole lines (two or
more, none crossing its edge) and leaves other text of the page outside is a box; a heading inside
it that heads text inside it, below the heading in force, heads only the box.
"""

from __future__ import annotations

from collections.abc import Sequence

from .lines import Line
from .tables import Box


def text_boxes(vectors: Sequence[dict], lines: Sequence[Line], width: float, height: float) -> tuple[Box, ...]:
    """The page's filled rectangles that hold two or more whole lines, none across their edge,
    with text of the page left outside (a page's background holds it all)."""
    out = []
    for v in vectors:
        if not v.get("isrect") or v.get("color") is None or v.get("stroked"):
            continue
        box = v["bbox"]
        if (box[2] - box[0]) * (box[3] - box[1]) > 0.5 * width * height:
            continue
        inside = outside = 0
        for line in lines:
            if holds(box, line.bbox):
                inside += 1
            elif _meets(box, line.bbox):
                break  # a line across the edge: the fill is behind a figure or a cell, not a box
            else:
                outside += 1
        else:
            if inside >= 2 and outside:
                out.append(box)
    return tuple(out)


def holds(box: Box, bbox: Box) -> bool:
    return box[0] - 1 <= bbox[0] and bbox[2] <= box[2] + 1 and box[1] - 1 <= bbox[1] and bbox[3] <= box[3] + 1


def _meets(box: Box, bbox: Box) -> bool:
    return min(box[2], bbox[2]) - max(box[0], bbox[0]) > 1 and min(box[3], bbox[3]) - max(box[1], bbox[1]) > 1
