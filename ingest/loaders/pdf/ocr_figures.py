"""Figures on a page read by OCR: found from the page's image, where a text layer's are found
from its vector paths (`figures.py`). What the page draws rather than writes is its ink outside
the lines the engine read; runs of that ink close together make a drawing (a chart's bars, axes,
curves and legend keys), and the short lines in and beside it are its labels, as on text.

An image joins a bar or a curve into one run of ink where a PDF draws many paths, so a drawing
is told by its runs' extent and kind (marks, not only rules), not by counting paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .figures import figure_lines
from .model import Box, Line, Unit
from .paragraphs import box_of
from .thresholds import (
    AXIS_LENGTH,
    AXIS_THIN,
    FIGURE_LABEL_CHARS,
    FIGURE_MARK_AREA,
    FIGURE_MAX_PAGE_SHARE,
    FIGURE_MIN_SIDE,
    OCR_DRAWING_COVER,
    OCR_MARK_INK,
    OCR_MARK_NEAR,
    OCR_MARK_SPECK,
)


def drawn_regions(image: Any, lines: Sequence[tuple[Box, str]], scale: float) -> list[Box]:
    """Areas (points) of the page image held by drawings: its runs of ink outside the `lines`
    read (box in pixels, text), larger than a speck, joined where they come within
    `OCR_MARK_NEAR` of each other; a group at least `FIGURE_MIN_SIDE` both ways, with marks among
    its runs (a table's grid or an underline is rules only), within `FIGURE_MAX_PAGE_SHARE` of the
    page. A run larger than a mark that holds a line of prose is a panel or a frame round text,
    no drawing (a chart's axis joins its bars into one large run, but holds labels only). Its
    marks must cover `OCR_DRAWING_COVER` of its box: a scan's specks and signatures, chained down a
    page, cover a few hundredths of it."""
    import cv2
    import numpy as np

    ink = (image.mean(axis=2) < OCR_MARK_INK).astype(np.uint8)
    for (x0, y0, x1, y1), _ in lines:
        ink[max(0, round(y0)) : round(y1) + 1, max(0, round(x0)) : round(x1) + 1] = 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    runs = stats[1:count]
    x, y, w, h = runs[:, 0], runs[:, 1], runs[:, 2], runs[:, 3]
    kept = np.maximum(w, h) * scale >= OCR_MARK_SPECK
    prose = [box for box, text in lines if len(text) > FIGURE_LABEL_CHARS]
    for k in np.flatnonzero(kept & (w * h * scale * scale > FIGURE_MARK_AREA)).tolist():
        if any(_holds((x[k], y[k], x[k] + w[k], y[k] + h[k]), box) for box in prose):
            kept[k] = False
    if not kept.any():
        return []
    marks = np.isin(labels, np.flatnonzero(kept) + 1).astype(np.uint8)
    reach = max(1, round(OCR_MARK_NEAR / scale / 2))
    joined = cv2.dilate(marks, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    groups, _, spans, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    thin, long = np.minimum(w, h) * scale <= AXIS_THIN, np.maximum(w, h) * scale >= AXIS_LENGTH
    drawn = kept & ~(thin & long)
    height, width = image.shape[:2]
    out = []
    for gx, gy, gw, gh, _ in spans[1:groups].tolist():
        x0, y0, x1, y1 = gx + reach, gy + reach, gx + gw - reach, gy + gh - reach  # less the dilation
        own = drawn & (x >= x0 - 1) & (y >= y0 - 1) & (x + w <= x1 + 1) & (y + h <= y1 + 1)
        covered = float((w[own] * h[own]).sum()) / max(1, (x1 - x0) * (y1 - y0))
        if (
            covered >= OCR_DRAWING_COVER
            and (x1 - x0) * scale >= FIGURE_MIN_SIDE
            and (y1 - y0) * scale >= FIGURE_MIN_SIDE
            and (x1 - x0) * (y1 - y0) <= FIGURE_MAX_PAGE_SHARE * width * height
        ):
            out.append((x0 * scale, y0 * scale, x1 * scale, y1 * scale))
    return out


def _holds(outer: tuple[float, ...], inner: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def page_figures(lines: list[Line], regions: Sequence[Box], number: int) -> tuple[list[Line], list[Unit]]:
    """The page's lines outside its drawings, and a figure unit for each drawing with lines."""
    if not regions:
        return lines, []
    held, rest = figure_lines(lines, regions)
    return rest, [Unit("figure", ls, number, bbox=box_of(ls), region=region) for region, ls in held]
