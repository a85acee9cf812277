"""Columns inside one pymupdf block: lines set side by side are split at the gutter between them.

MuPDF groups lines into blocks by proximity, and on some pages (narrow gutters, text set line by
line by the producer) one block holds both columns, its lines alternating left, right, left. Read in
that order the columns interleave line by line. The evidence is the whitespace: a gutter is an
x-range that none of the side-by-side lines crosses. Lines are then read column by column between
the lines that cross the gutter (a title or a figure set across both columns), each run of one
column an item of its own for the page's reading order. A form that sets a label and its value on
one row holds single lines or short labels per side, not runs of text, and keeps its row-by-row
order.
"""

from __future__ import annotations

from collections.abc import Sequence

from .lines import text_length
from .model import Line
from .thresholds import COLUMN_GUTTER, COLUMN_MEAN_CHARS, COLUMN_MIN_CHARS, COLUMN_MIN_PAIRS, SAME_ROW


def split_columns(lines: Sequence[Line], rtl: bool = False) -> list[list[Line]]:
    """The block's lines as runs to read one after another: the whole block when it holds no
    columns, else each column's run between lines that cross the gutters (right column first on
    a right-to-left page)."""
    if len(lines) < 2 * COLUMN_MIN_PAIRS:
        return [list(lines)]
    paired = _side_by_side(lines)
    if len(paired) < 2 * COLUMN_MIN_PAIRS:
        return [list(lines)]
    gutters = _gaps([lines[i] for i in paired])
    if not gutters:
        return [list(lines)]
    runs: list[list[Line]] = []
    segment: list[tuple[int, int, Line]] = []
    split = False
    for k, line in sorted(enumerate(lines), key=lambda kl: kl[1].bbox[1]):
        column = _column(line, gutters)
        if column is None:  # across the gutter: it closes the columns above it
            split |= _read_segment(segment, runs, rtl)
            segment = []
            runs.append([line])
        else:
            segment.append((k, column, line))
    split |= _read_segment(segment, runs, rtl)
    return runs if split else [list(lines)]


def _side_by_side(lines: Sequence[Line]) -> set[int]:
    """Indexes of lines that share a row with another line, a gutter apart."""
    order = sorted(range(len(lines)), key=lambda i: lines[i].bbox[1])
    out: set[int] = set()
    for k, i in enumerate(order):
        a = lines[i]
        for j in order[k + 1 :]:
            b = lines[j]
            if b.bbox[1] >= a.bbox[3]:
                break
            if text_length(a.text) < COLUMN_MIN_CHARS or text_length(b.text) < COLUMN_MIN_CHARS:
                continue  # a bullet or a number beside its text
            overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
            gap = max(b.bbox[0] - a.bbox[2], a.bbox[0] - b.bbox[2])
            if overlap > SAME_ROW * min(a.height, b.height) and gap >= COLUMN_GUTTER:
                out.update((i, j))
    return out


def _gaps(lines: Sequence[Line]) -> list[tuple[float, float]]:
    """x-ranges at least COLUMN_GUTTER wide that no line crosses, between the lines' extremes."""
    spans = sorted((line.bbox[0], line.bbox[2]) for line in lines)
    gaps = []
    right = spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - right >= COLUMN_GUTTER:
            gaps.append((right, x0))
        right = max(right, x1)
    return gaps


def _column(line: Line, gutters: list[tuple[float, float]]) -> int | None:
    column = 0
    for a, b in gutters:
        if line.bbox[0] < b - 1 and line.bbox[2] > a + 1:
            return None
        if line.bbox[0] >= b - 1:
            column += 1
    return column


def _read_segment(segment: list[tuple[int, int, Line]], runs: list[list[Line]], rtl: bool) -> bool:
    """Append the segment's runs: one per column, or the lines as MuPDF ordered them (labels and
    values on rows, not columns of text). True if it was split."""
    if not segment:
        return False
    by_column: dict[int, list[Line]] = {}
    for _, column, line in segment:
        by_column.setdefault(column, []).append(line)
    columns = [by_column[c] for c in sorted(by_column, reverse=rtl)]
    if len(columns) < 2 or any(len(run) < 2 or _mean_chars(run) < COLUMN_MEAN_CHARS for run in columns):
        runs.append([line for _, _, line in sorted(segment, key=lambda s: s[0])])
        return False
    runs.extend(columns)
    return True


def _mean_chars(run: list[Line]) -> float:
    return sum(text_length(line.text) for line in run) / len(run)
