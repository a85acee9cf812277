"""Figures on a PDF page, and the text that belongs to them rather than to the body.

A chart drawn in vectors leaves its axis numbers, tick labels and legend as text lines on the
page; read as body they become paragraphs of bare numbers between the sentences around them. A
figure is found from the page's own drawing: a cluster of vector paths close together (a plot's
axes, ticks, bars and marks), or a picture that is neither a page background nor a speck. Short
lines that reach into a figure (or come within a few points of it, where tick labels sit) are its text; a long
line there (a caption, a sentence in a box) stays body, and so does a title set in larger type
than the page's text.

Shading is no drawing: a statement that fills its rows or cells in a tint (and underlines its
totals) leaves as many filled boxes and short rules as a chart leaves marks. What tells them
apart is the text over them: a table's text lines up in rows and columns of figures (the
alignment rule of `text_tables` finds it), a chart's labels are scattered (an axis, a legend).
A region whose lines are mostly a table's rows is a table, read as body, not a figure. A filing
also draws a table in pieces (an underline cut at each column's gap, a grid ruled one cell at a
time, a row shaded cell by cell), each piece too short to be a rule: joined, they are the rules
and bands of a table, and a region that draws nothing else is no figure either.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...page_furniture import CAPTION
from ...type_sizes import body_size
from .groups import Groups
from .lines import inside
from .model import Line
from .text_tables import merged_spans, rows_of, text_tables
from .thresholds import (
    AXIS_LENGTH,
    AXIS_THIN,
    FIGURE_GRID_CELL,
    FIGURE_LABEL_CHARS,
    FIGURE_LABEL_MARGIN,
    FIGURE_LABEL_WORDS,
    FIGURE_MARK_AREA,
    FIGURE_MAX_PAGE_SHARE,
    FIGURE_MIN_PAGE_SHARE,
    FIGURE_MIN_PATHS,
    FIGURE_MIN_SIDE,
    FIGURE_NEAR,
    FIGURE_SHADE_MAX_SHARE,
    FIGURE_TABLE_ADJOIN,
    FIGURE_TABLE_PAD,
    FIGURE_TABLE_SHARE,
    FIGURE_TITLE_LETTERS,
    LARGER_THAN_BODY,
    PAPER,
    ROW_BAND_SHORT,
    SHAPE_PIECE_ALIGN,
    SHAPE_PIECE_GAP,
    TEXT_TABLE_MIN_ROWS,
)

Box = tuple[float, float, float, float]


_NUMBER = re.compile(r"[-\u2212+]?[$\u20ac\u00a3]?\d[\d.,]*[%kKmMbB]?")


def figure_regions(
    vectors: Sequence[Box], images: Sequence[Box], width: float, height: float, tables: Sequence[Box]
) -> list[Box]:
    """Areas of the page held by figures: clusters of vector paths, and pictures."""
    area = width * height
    # Marks and rules, not panels: a filled box behind a paragraph frames text, it draws nothing.
    # A table's own rules (its frame may sit a little outside the grid found) draw no figure.
    framed = [
        (t[0] - FIGURE_TABLE_PAD, t[1] - FIGURE_TABLE_PAD, t[2] + FIGURE_TABLE_PAD, t[3] + FIGURE_TABLE_PAD)
        for t in tables
    ]
    paths = [
        b for b in vectors if (b[2] - b[0]) * (b[3] - b[1]) <= FIGURE_MARK_AREA and not (framed and inside(b, framed))
    ]
    regions = []
    # Each path tested once, for the page and for its cluster.
    rules = [_rule(b) for b in paths] if len(paths) >= FIGURE_MIN_PATHS else []
    if len(paths) >= FIGURE_MIN_PATHS and rules.count(False) >= FIGURE_MIN_PATHS // 2:
        for members, box in _clusters(paths):
            # A grid or frame is all rules; a drawing has marks (ticks, bars, curves, symbols).
            marks = sum(1 for i in members if not rules[i])
            w, h = box[2] - box[0], box[3] - box[1]
            # A frame round the whole page (or most of it) is decoration, not a figure.
            if (
                len(members) >= FIGURE_MIN_PATHS
                and marks >= FIGURE_MIN_PATHS // 2
                and w >= FIGURE_MIN_SIDE
                and h >= FIGURE_MIN_SIDE
                and w * h <= FIGURE_MAX_PAGE_SHARE * area
            ):
                regions.append(box)
    for box in images:
        share = (box[2] - box[0]) * (box[3] - box[1]) / area if area else 0
        if FIGURE_MIN_PAGE_SHARE <= share <= FIGURE_MAX_PAGE_SHARE and not inside(box, tables):
            regions.append(box)
    return regions


def tabulated(regions: Sequence[Box], vectors: Sequence[dict], lines: Sequence[Line], page: int) -> list[Box]:
    """The regions that are a table's shading and rules, not a drawing: every path in them a
    rectangle (a chart's curves, slices, arrows and markers are not), and their text a table's,
    read either way:

    - most of the lines over them are rows the alignment rule reads as a table (`text_tables`,
      on the page's lines together, so a table shaded only in part is found whole);
    - or most of them sit on the region's fills (each a row's or a cell's, not a background
      under the whole region), and they are the head or a row of a table right under or over
      the region, or rows whose pieces stand in shared columns;
    - or the region draws only rules across (a head's underlines) and is a table's head;
    - or, its pieces joined, it draws nothing but a table's furniture (`_furniture`): rules, fills
      in the paper's colour and bands across its whole width, under text set in columns.
    """
    if not regions:
        return []
    tables: list[Box] | None = None
    out = []
    for region in regions:
        paths = [v for v in vectors if inside(v["bbox"], (region,))]
        over = [line for line in lines if inside(line.bbox, (region,))]
        if not over or not all(v["isrect"] for v in paths):
            continue
        if tables is None:
            found, _ = text_tables(lines, page)
            tables = [t.bbox for t in found if t.bbox is not None]
        held = sum(1 for line in over if inside(line.bbox, tables))
        if held >= FIGURE_TABLE_SHARE * len(over):
            out.append(region)
        elif _on_fills(region, paths, over) and (_adjoins(region, over, tables) or _aligned_rows(over)):
            out.append(region)
        elif all(_underline(v["bbox"]) for v in paths) and _adjoins(region, over, tables):
            out.append(region)
        elif _furniture(region, paths) and any(len(row) >= 2 for row in rows_of(over)):
            out.append(region)
    return out


def _furniture(region: Box, paths: Sequence[dict]) -> bool:
    """The region draws only what a table draws, once the pieces of each shape are joined (a
    filing cuts an underline at each column's gap, fills a row's shading cell by cell, draws a
    grid's rule one cell at a time, and the pieces were counted as a chart's marks): rules, fills
    in the paper's colour (they draw nothing) and bands across the region's whole width (a row's
    shading; a chart's bars have lengths of their own)."""
    width = region[2] - region[0]
    for (colour, stroked), box in _shapes(paths):
        if _rule(box) or _underline(box) or (colour == PAPER and not stroked):
            continue
        if box[2] - box[0] < width - 2 * ROW_BAND_SHORT:
            return False
    return True


Paint = tuple[object, bool]
"""A path's colour and whether it is stroked: pieces of one shape are painted alike."""


def _shapes(paths: Sequence[dict]) -> list[tuple[Paint, Box]]:
    """The shapes the paths draw, the pieces of each joined: pieces painted alike that meet end
    to end along one band (the same top and bottom across, then the same sides down)."""
    keyed: list[tuple[Paint, Box]] = [((v["color"], bool(v["stroked"])), tuple(v["bbox"])) for v in paths]
    return _joined(_joined(keyed, across=True), across=False)


def _joined(keyed: list[tuple[Paint, Box]], across: bool) -> list[tuple[Paint, Box]]:
    """The pieces that meet end to end along one band joined (across: along a row; else down)."""
    lo, hi = (1, 3) if across else (0, 2)  # the band's edges
    start, end = (0, 2) if across else (1, 3)  # along it
    order = sorted(keyed, key=lambda kb: (repr(kb[0]), kb[1][lo], kb[1][hi]))
    out: list[tuple[Paint, Box]] = []
    i = 0
    while i < len(order):
        paint, first = order[i]
        j = i + 1
        while (
            j < len(order)
            and order[j][0] == paint
            and abs(order[j][1][lo] - first[lo]) <= SHAPE_PIECE_ALIGN
            and abs(order[j][1][hi] - first[hi]) <= SHAPE_PIECE_ALIGN
        ):
            j += 1
        band = sorted((box for _, box in order[i:j]), key=lambda box: box[start])
        run = band[0]
        for box in band[1:]:
            if box[start] <= run[end] + SHAPE_PIECE_GAP:
                run = (min(run[0], box[0]), min(run[1], box[1]), max(run[2], box[2]), max(run[3], box[3]))
            else:
                out.append((paint, run))
                run = box
        out.append((paint, run))
        i = j
    return out


def _on_fills(region: Box, paths: Sequence[dict], over: Sequence[Line]) -> bool:
    """Most of the lines sit on the region's fills, each a row's or a cell's shading (a bar of a
    chart has its label beside it, a plot's background is under the whole region)."""
    area = (region[2] - region[0]) * (region[3] - region[1])
    fills = [
        b
        for v in paths
        if not v["stroked"]
        for b in (v["bbox"],)
        if (b[2] - b[0]) * (b[3] - b[1]) <= FIGURE_SHADE_MAX_SHARE * area
    ]
    on = sum(1 for line in over if inside(line.bbox, fills))
    return on >= FIGURE_TABLE_SHARE * len(over)


def _underline(box: Box) -> bool:
    """A rule drawn across under a head or a total: flat and thin (no bar, no tick, no axis up)."""
    return box[3] - box[1] <= AXIS_THIN and box[2] - box[0] > box[3] - box[1]


def _adjoins(region: Box, over: Sequence[Line], tables: Sequence[Box]) -> bool:
    """A table's head or one of its rows, shaded on its own: a table the alignment rule reads
    stands right under or over the region, across the same width."""
    reach = FIGURE_TABLE_ADJOIN * max(line.height for line in over)
    width = region[2] - region[0]
    for t in tables:
        gap = max(t[1] - region[3], region[1] - t[3])
        if gap <= reach and min(t[2], region[2]) - max(t[0], region[0]) >= FIGURE_TABLE_SHARE * width:
            return True
    return False


def _aligned_rows(over: Sequence[Line]) -> bool:
    """Rows of two pieces or more whose pieces stand in shared columns, most of the lines: a
    shaded head row of stacked column titles, rows whose figures MuPDF ran into one line."""
    rows = rows_of(over)
    multi = [row for row in rows if len(row) >= 2]
    if len(multi) < TEXT_TABLE_MIN_ROWS or sum(map(len, multi)) < FIGURE_TABLE_SHARE * sum(map(len, rows)):
        return False
    # Aligned: the pieces of all those rows fall in no more columns than the widest row has.
    columns = merged_spans((piece.bbox[0], piece.bbox[2]) for row in multi for piece in row)
    return len(columns) <= max(map(len, multi))


def figure_lines(lines: Sequence[Line], regions: Sequence[Box]) -> tuple[list[tuple[Box, list[Line]]], list[Line]]:
    """Each figure's region and lines (for the regions that hold any), and the other lines."""
    if not regions:
        return [], list(lines)
    body = body_size((line.size, len(line.text)) for line in lines)
    held: list[list[Line]] = [[] for _ in regions]
    rest = []
    for line in lines:
        at = _region_of(line, regions)
        if at is not None and _title(line, regions[at], body):
            at = None
        if at is None:
            rest.append(line)
        else:
            held[at].append(line)
    kept = _within_prose(held, rest)
    if kept:
        held = [[line for line in h if id(line) not in kept] for h in held]
        figure = {id(line) for h in held for line in h}
        rest = [line for line in lines if id(line) not in figure]
    return [(region, h) for region, h in zip(regions, held) if h], rest


def _within_prose(held: list[list[Line]], rest: list[Line]) -> set[int]:
    """id() of the figure lines set inside a run of body lines of their own pymupdf block: a line
    of a column of prose beside a chart, within a label's reach of it ("China," we have tracked
    the" between "very unfavorable view of" and "ups and downs in"), not a label."""
    out: set[int] = set()
    by_block: dict[int, list[Line]] = {}
    for o in rest:
        by_block.setdefault(o.block, []).append(o)
    for line in (line for h in held for line in h):
        mine = [o for o in by_block.get(line.block, ()) if abs(o.bbox[0] - line.bbox[0]) <= 2]
        above = any(0 <= line.bbox[1] - o.bbox[3] <= line.height for o in mine)
        below = any(0 <= o.bbox[1] - line.bbox[3] <= line.height for o in mine)
        if above and below:
            out.add(id(line))
    return out


def _title(line: Line, region: Box, body: float) -> bool:
    """A figure's title names it: set larger than the page's text, upright, over the figure's upper
    half. (Bold alone is no title: diagrams set their labels in bold; axis titles run beside or
    under the plot.)"""
    return (
        line.size >= body + LARGER_THAN_BODY
        and not line.rotated
        and sum(c.isalpha() for c in line.text) >= FIGURE_TITLE_LETTERS
        and line.bbox[3] <= (region[1] + region[3]) / 2
    )


def _region_of(line: Line, regions: Sequence[Box]) -> int | None:
    text = line.text
    if (line.mono and text.isascii()) or CAPTION.match(text):
        return None  # code in a framed listing (CJK fonts are fixed-width too); a caption names the figure
    words = text.split()
    if (
        len(text) > FIGURE_LABEL_CHARS
        or len(words) > FIGURE_LABEL_WORDS
        or (len(words) > 2 and text.endswith((".", ":")))
    ) and not all(_NUMBER.fullmatch(w) for w in words):
        return None  # a caption or a sentence: body, wherever it sits (an axis's numbers run long)
    lx0, ly0, lx1, ly1 = line.bbox
    near = max(FIGURE_LABEL_MARGIN, 2 * line.size)
    for i, (x0, y0, x1, y1) in enumerate(regions):
        if lx0 < x1 + near and lx1 > x0 - near and ly0 < y1 + near and ly1 > y0 - near:
            return i
    return None


def _rule(box: Box) -> bool:
    """A line drawn to divide or frame: thin and long."""
    w, h = box[2] - box[0], box[3] - box[1]
    return min(w, h) <= AXIS_THIN and max(w, h) >= AXIS_LENGTH


def _clusters(boxes: Sequence[Box]) -> list[tuple[list[int], Box]]:
    """Boxes joined where they come within FIGURE_NEAR of each other: (members, enclosing box) each.

    A grid of cells FIGURE_NEAR wide finds the neighbours, so a chart of a thousand marks costs about
    as many steps, not a million.
    """
    groups = Groups(len(boxes))
    cell = FIGURE_GRID_CELL * FIGURE_NEAR
    # (index, x0, y0, x1, y1) in each cell: a dense chart tests each mark against hundreds.
    grid: dict[tuple[int, int], list[tuple[int, float, float, float, float]]] = {}
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        a0, b0, a1, b1 = x0 - FIGURE_NEAR, y0 - FIGURE_NEAR, x1 + FIGURE_NEAR, y1 + FIGURE_NEAR
        keys = [
            (gx, gy)
            for gx in range(int(a0 // cell), int(a1 // cell) + 1)
            for gy in range(int(b0 // cell), int(b1 // cell) + 1)
        ]
        met: list[tuple[int, float, float, float, float]] = []  # boxes placed before, in the cells it reaches
        entry = (i, x0, y0, x1, y1)
        for key in keys:
            bucket = grid.get(key)
            if bucket is None:
                grid[key] = [entry]
            else:
                met.extend(bucket)
                bucket.append(entry)
        candidates = set(met) if len(keys) > 1 else met  # a box met in two cells is tested once
        # The order of `near` does not matter: the groups, and the order members() gives, do not
        # depend on which item became a group's root.
        near = [j for j, c0, d0, c1, d1 in candidates if a0 <= c1 and c0 <= a1 and b0 <= d1 and d0 <= b1]
        if near:
            groups.attach_all(near, i)
    out = []
    for members in groups.members():
        xs0, ys0, xs1, ys1 = zip(*(boxes[i] for i in members))
        out.append((members, (min(xs0), min(ys0), max(xs1), max(ys1))))
    return out
