"""Shapes in reading order: top to bottom, left to right, a group read whole where it sits.

A slide's shapes are listed in z-order (what was drawn last is on top), which says nothing about
reading order; their positions do. Shapes whose tops are within `ROW_TOLERANCE_EMU` read as one
row, left to right (two columns set side by side), rows top to bottom. A group takes its place
among its siblings by its own position and its members are ordered inside it, so what the author
grouped stays together.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pptx.enum.shapes import MSO_SHAPE_TYPE

ROW_TOLERANCE_EMU = 228600
"""A quarter of an inch (914400 EMU to the inch): tops closer than this are one row."""
_UNPLACED = 1 << 62
"""Where a shape without a position (nor one inherited from its layout) is read: last."""


def in_reading_order(shapes: Iterable[Any]) -> Iterator[Any]:
    """Every leaf shape under `shapes` (groups opened), in reading order."""
    for shape in _ordered(list(shapes)):
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from in_reading_order(shape.shapes)
        else:
            yield shape


def _ordered(shapes: list[Any]) -> list[Any]:
    rows: list[list[Any]] = []
    for shape in sorted(shapes, key=lambda s: (_top(s), _left(s))):
        if rows and _top(shape) - _top(rows[-1][0]) < ROW_TOLERANCE_EMU:
            rows[-1].append(shape)
        else:
            rows.append([shape])
    return [shape for row in rows for shape in sorted(row, key=_left)]


def _top(shape: Any) -> int:
    return _UNPLACED if shape.top is None else int(shape.top)


def _left(shape: Any) -> int:
    return _UNPLACED if shape.left is None else int(shape.left)
