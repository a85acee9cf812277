"""Ruled tables from the rules MuPDF already collected while it read the page's text.

pymupdf's `page.find_tables()` costs 20-200 ms a page: it runs the page again for its drawings
and again for a dict per character, and guesses headers from renderings. The loader reads each
page once, as a text page that also collects vector graphics (`TEXT_COLLECT_VECTORS`; MuPDF splits
a path into its straight pieces, each a rectangle). This module turns those rectangles into the
same grids the table finder's default "lines" strategy finds, with its tolerances:

- rules: a thin rectangle is a line along its middle, any other rectangle gives its four sides;
  rectangles that touch at corners are joined, and a joined group with text in it gives its
  bounding box's four sides too (a table with inner rules only, framed by shading);
- rules close to one line are snapped onto it and joined where they meet or nearly meet;
- crossings of horizontal and vertical rules are the grid's corners; the smallest rectangle of
  corners linked by rules is a cell; cells sharing corners form a table, which needs two columns
  and some text.

Cell text comes from MuPDF's words placed by their centres: right-to-left cells in MuPDF's
logical order (the finder returned them reversed), other cells row by row, left to right. Not
carried over: the finder's guess of a header row above the ruling (`header.external`); the first
row is the header. Tests compare both finders on every PDF of the corpus.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence

from .groups import Groups
from .model import Box, Grid
from .thresholds import (
    EDGE_SLACK,
    FILE_CELL,
    GRID_MIN_VERTICALS,
    HEAD_MAX_CHARS,
    MAX_SHADES,
    SAME_ROW,
    SHADE_INSET,
    SNAP,
    THIN,
    TOUCH,
)

_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def find_grids(rects: Sequence[Box], shapes: Sequence[Box], has_text: Callable[[Box], bool]) -> list[Grid]:
    """Tables made by `rects` (axis-aligned pieces of paths); `shapes` are all vector boxes,
    curves included, joined where they touch; `has_text(box)` says whether text lies in a box."""
    horizontal: list[tuple[float, float, float]] = []  # (y, x0, x1)
    vertical: list[tuple[float, float, float]] = []  # (x, y0, y1)
    for box in rects:
        _rules(box, horizontal, vertical)
    if not horizontal or not vertical:
        return []
    for box in _joined(shapes):
        if has_text(box):
            _sides(box, horizontal, vertical)
    horizontal = _merge(horizontal)
    vertical = _merge(vertical)
    if len(horizontal) < 2 or len(vertical) < GRID_MIN_VERTICALS:
        return []  # two rows need two rules across, two columns three down
    corners = _crossings(horizontal, vertical)
    cells = _cells(corners)
    grids = []
    for group in _tables(cells):
        if len({c[0] for c in group}) < 2 or len({c[2] for c in group}) < 2:
            continue
        box = (min(c[0] for c in group), min(c[1] for c in group), max(c[2] for c in group), max(c[3] for c in group))
        if has_text(box):
            grids.append(Grid(box, _rows(group)))
    grids.sort(key=lambda g: (g.bbox[1], g.bbox[0]))
    return grids


_CURRENCY = r"(?:US\$|[$\u20ac\u00a3\u00a5])"
_AMOUNT = re.compile(rf"[-(+]?\s*{_CURRENCY}?\s*\(?\d[\d,.]*\)?\s*%?\)?(?:\s*{_CURRENCY})?")
"""An amount as a cell shows it; the sign of the next column's amount may stand at its end."""
_YEAR = re.compile(r"\(?(?:19|20)\d\d\)?")


def header_rows(rows: Sequence[Sequence[str]]) -> int:
    """How many leading rows are column heads: the first row, unless it holds an amount that is no
    year ("Net sales | 1,234 | 5,678" is a data row; "| 2023 | 2022" heads its columns) or a cell
    of prose; and the rows of years under it ("Years ended December 31," over "2022 | 2021"),
    which say which column is which period. A data row taken for the header would repeat in every
    piece of the table and stand apart from its rows; a years row taken for data would leave every
    piece after the first without its periods."""
    if len(rows) < 2 or not _head_row(rows[0]):
        return 0
    return with_year_rows(rows, 1)


def with_year_rows(rows: Sequence[Sequence[str]], heads: int) -> int:
    """`heads` column-head rows, and the rows of years right under them (two or more years, no
    other amount), whatever rule found the first ones; at least one data row stays."""
    while 0 < heads < len(rows) - 1 and _head_row(rows[heads]) and _years(rows[heads]) >= 2:
        heads += 1
    return heads


def _head_row(row: Sequence[str]) -> bool:
    cells = _filled(row)
    return not any(_AMOUNT.fullmatch(c) and not _YEAR.fullmatch(c) or len(c) > HEAD_MAX_CHARS for c in cells)


def _years(row: Sequence[str]) -> int:
    # Distinct years: a comparative statement heads its columns with two or more.
    return len({c for c in _filled(row) if _YEAR.fullmatch(c)})


def _filled(row: Sequence[str]) -> list[str]:
    return [" ".join(c.split()) for c in row if c and c.strip()]


def cell_texts(grid: Grid, words: Sequence[tuple]) -> list[tuple[str, ...]]:
    """Each cell's words (MuPDF `extractWORDS` tuples) placed by their centres.

    A cell with right-to-left script keeps MuPDF's order (logical, as written); any other reads
    its lines left to right (MuPDF orders the runs of a number or date set in a right-to-left
    line from right to left: "19 / 09 / 1403" for 1403/09/19).
    """
    x0, y0, x1, y1 = grid.bbox
    # (centre y, MuPDF order, word) sorted by centre: each row takes its stretch by bisection.
    inside = sorted(
        ((w[1] + w[3]) / 2, w[5:8], w) for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1
    )
    ys = [i[0] for i in inside]
    out = []
    for row in grid.rows:
        boxes = [c for c in row if c is not None]
        top, bottom = min(c[1] for c in boxes), max(c[3] for c in boxes)
        stretch = sorted(inside[bisect_left(ys, top) : bisect_left(ys, bottom)], key=lambda i: i[1])
        cells = []
        for cell in row:
            if cell is None:
                cells.append("")
                continue
            a, b, c, d = cell
            found = [w for cy, _, w in stretch if a <= (w[0] + w[2]) / 2 < c and b <= cy < d]
            if any(_RTL.search(w[4]) for w in found):
                cells.append(" ".join(w[4] for w in found))
            else:
                cells.append(_left_to_right(found))
        out.append(tuple(cells))
    return out


def right_to_left_rows(rows: Sequence[Sequence[str]]) -> bool:
    """Most of the table's columns are in a right-to-left script: its rows read from the right.
    Columns vote, each by its letters, so one column of Hebrew names in an English table (more
    letters than its English heads and numbers) leaves it read from the left; at a tie (a label
    column and a value column), the letters of the whole table decide."""
    votes = rtl_letters = other_letters = 0
    for k in range(max(map(len, rows), default=0)):
        rtl, other = _letters(row[k] for row in rows if k < len(row))
        votes += (rtl > other) - (other > rtl)
        rtl_letters += rtl
        other_letters += other
    return votes > 0 or (votes == 0 and rtl_letters > other_letters)


def _letters(cells: Iterable[str]) -> tuple[int, int]:
    """Letters of a right-to-left script, and other letters, in the cells."""
    rtl = other = 0
    for cell in cells:
        if cell.isascii():
            other += sum(map(str.isalpha, cell))
            continue
        found = len(_RTL.findall(cell))
        rtl += found
        other += sum(map(str.isalpha, cell)) - found
    return rtl, other


def shading_within(vectors: Sequence[dict]) -> tuple[set[int], set[int]]:
    """Indexes of filled rectangles that draw nothing: each lies inside a larger fill of its
    colour, and no area of another colour meets it along a side inside that fill (no mark of a
    figure, then); and of those, the ones that are a line's shading in a cell (no cell edge).

    A word processor shades a cell and, again, each of its paragraphs' lines, inset from the
    cell's sides by its padding: the inner fills show no edge anyone can see, but their sides
    would cut the cell into rows (a label wrapped over two lines became two rows, its second
    line under an empty value cell). Only fills inset from both sides of the one they lie in,
    each by a cell's padding (under a tenth of its width), in a colour that shades two or more
    lines of some cell, are such lines': one reaching a side, or set well inside, is a cell of a
    shaded band, the producer's own division, and stays. A white row between shaded rows on a
    white page is inside the page's white too, but its sides meet the shaded rows: they show, and
    the row stays. A colour filled hundreds of times is a chart's
    marks, never a cell's shading, and is not searched.
    """
    by_colour: dict[int, list[int]] = {}
    for k, v in enumerate(vectors):
        if v["isrect"] and not v["stroked"]:
            by_colour.setdefault(v["color"], []).append(k)
    if not any(1 < len(m) <= MAX_SHADES for m in by_colour.values()):
        return set(), set()
    boxes = [v["bbox"] for v in vectors]  # a fill's box is as drawn (a stroke's is widened)
    areas = [k for k, b in enumerate(boxes) if min(b[2] - b[0], b[3] - b[1]) > THIN]  # rules show anyway
    near = _buckets(boxes, areas)
    hidden: set[int] = set()
    stacked: dict[int, list[int]] = {}  # the fill a line's shading lies in -> those lines
    for members in by_colour.values():
        if len(members) < 2 or len(members) > MAX_SHADES:
            continue
        members.sort(key=lambda k: (boxes[k][0] - boxes[k][2]) * (boxes[k][3] - boxes[k][1]))
        for i, k in enumerate(members):
            box = boxes[k]
            if min(box[2] - box[0], box[3] - box[1]) <= THIN:
                continue  # a rule is seen whatever lies under it
            for outer in members[:i]:
                around = boxes[outer]
                if tuple(around) == tuple(box) or not _within(box, around):
                    continue
                colour = vectors[k]["color"]
                others = [j for j in _touching(near, box) if vectors[j]["color"] != colour and j != k]
                if not any(_meets(boxes[j], box, around) for j in others):
                    hidden.add(k)
                    pad = SHADE_INSET * (around[2] - around[0])
                    if (
                        around[0] + EDGE_SLACK < box[0] < around[0] + pad
                        and around[2] - pad < box[2] < around[2] - EDGE_SLACK
                    ):
                        stacked.setdefault(outer, []).append(k)  # inset by a cell's padding: a line's shading
                break
    # A colour that shades two or more lines in one cell shades lines: all its inset fills go.
    # Where every cell holds one (a ruled list, each row shaded), they may be the cells' own
    # fills, and their padding slivers are what the table finder sees too.
    by_lines = {vectors[k]["color"] for group in stacked.values() if len(group) >= 2 for k in group}
    lines = {k for group in stacked.values() for k in group if vectors[k]["color"] in by_lines}
    return hidden, lines


def _buckets(boxes: Sequence[Box], ids: Sequence[int]) -> dict[tuple[int, int], list[int]]:
    """The ids filed under every square their box covers: a page of thousands of fills is searched
    by place, not each against all (a legend grid of 30 colours took seconds a page)."""
    grid: dict[tuple[int, int], list[int]] = {}
    for j in ids:
        x0, y0, x1, y1 = boxes[j]
        for gx in range(int(x0 // FILE_CELL), int(x1 // FILE_CELL) + 1):
            for gy in range(int(y0 // FILE_CELL), int(y1 // FILE_CELL) + 1):
                grid.setdefault((gx, gy), []).append(j)
    return grid


def _touching(grid: dict[tuple[int, int], list[int]], box: Box) -> set[int]:
    """The ids filed under the squares the box, widened by the half point `_meets` allows, covers."""
    x0, y0, x1, y1 = box
    found: set[int] = set()
    for gx in range(int((x0 - EDGE_SLACK) // FILE_CELL), int((x1 + EDGE_SLACK) // FILE_CELL) + 1):
        for gy in range(int((y0 - EDGE_SLACK) // FILE_CELL), int((y1 + EDGE_SLACK) // FILE_CELL) + 1):
            found.update(grid.get((gx, gy), ()))
    return found


def _within(box: Box, around: Box) -> bool:
    return (
        around[0] <= box[0] + EDGE_SLACK
        and around[1] <= box[1] + EDGE_SLACK
        and around[2] >= box[2] - EDGE_SLACK
        and around[3] >= box[3] - EDGE_SLACK
    )


def _meets(other: Box, box: Box, around: Box) -> bool:
    """`other` lies over `box`, or against one of its sides that is inside `around` (a side on
    `around`'s own edge shows or not whatever is beyond it)."""
    x0, y0, x1, y1 = box
    a, b, c, d = other
    if a < x1 and x0 < c and b < y1 and y0 < d:
        return True
    across = a < x1 and x0 < c  # beside the box's top or bottom side
    down = b < y1 and y0 < d  # beside its left or right side
    return (
        (across and y0 > around[1] + EDGE_SLACK and abs(d - y0) <= EDGE_SLACK)
        or (across and y1 < around[3] - EDGE_SLACK and abs(b - y1) <= EDGE_SLACK)
        or (down and x0 > around[0] + EDGE_SLACK and abs(c - x0) <= EDGE_SLACK)
        or (down and x1 < around[2] - EDGE_SLACK and abs(a - x1) <= EDGE_SLACK)
    )


def _left_to_right(words: list[tuple]) -> str:
    """Words in visual rows, each read left to right; pieces that touch are one word."""
    rows: list[list[tuple]] = []
    for w in sorted(words, key=lambda w: (w[1] + w[3]) / 2):
        last = rows[-1][-1] if rows else None
        overlap = min(last[3], w[3]) - max(last[1], w[1]) if last is not None else 0.0
        if last is not None and overlap > SAME_ROW * min(w[3] - w[1], last[3] - last[1]):
            rows[-1].append(w)
        else:
            rows.append([w])
    text = ""
    for row in rows:
        row.sort(key=lambda w: w[0])
        for i, w in enumerate(row):
            if text and not (i and w[0] - row[i - 1][2] < TOUCH):
                text += " "
            text += w[4]
    return text


def _rules(box: Box, horizontal: list, vertical: list) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w <= THIN and w < h:
        vertical.append(((x0 + x1) / 2, y0, y1))
    elif h <= THIN and h < w:
        horizontal.append(((y0 + y1) / 2, x0, x1))
    elif w > 0 or h > 0:
        _sides(box, horizontal, vertical)


def _sides(box: Box, horizontal: list, vertical: list) -> None:
    x0, y0, x1, y1 = box
    horizontal += [(y0, x0, x1), (y1, x0, x1)]
    vertical += [(x0, y0, y1), (x1, y0, y1)]


def _joined(shapes: Sequence[Box]) -> list[Box]:
    """Boxes of groups of shapes that touch: a corner of one within SNAP of the other's box.

    As in the finder, a shape joins a group when it touches the group's box grown so far, and
    groups whose boxes touch are one. Largest shapes first: a figure's frame takes in its hundreds
    of strokes one test each.
    """
    groups: list[list[float]] = []
    for box in sorted(set(shapes), key=lambda b: (b[0] - b[2]) * (b[3] - b[1])):
        hit = [g for g in groups if _touch(g, box)]
        if not hit:
            groups.append(list(box))
            continue
        first = hit[0]
        _grow(first, box)
        if len(hit) > 1:
            for other in hit[1:]:
                _grow(first, other)
            groups = [g for g in groups if g is first or all(g is not h for h in hit)]
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(groups):
            for b in groups[i + 1 :]:
                if _touch(a, b):
                    _grow(a, b)
                    groups = [g for g in groups if g is not b]
                    merged = True
                    break
            if merged:
                break
    return [(g[0], g[1], g[2], g[3]) for g in groups]


def _touch(a: Sequence[float], b: Sequence[float]) -> bool:
    ax0, ay0, ax1, ay1 = a[0] - SNAP, a[1] - SNAP, a[2] + SNAP, a[3] + SNAP
    bx0, by0, bx1, by1 = b
    if (ax0 <= bx0 <= ax1 or ax0 <= bx1 <= ax1) and (ay0 <= by0 <= ay1 or ay0 <= by1 <= ay1):
        return True
    bx0, by0, bx1, by1 = bx0 - SNAP, by0 - SNAP, bx1 + SNAP, by1 + SNAP
    ax0, ay0, ax1, ay1 = a[0], a[1], a[2], a[3]
    return (bx0 <= ax0 <= bx1 or bx0 <= ax1 <= bx1) and (by0 <= ay0 <= by1 or by0 <= ay1 <= by1)


def _grow(group: list[float], box: Sequence[float]) -> None:
    group[0], group[1] = min(group[0], box[0]), min(group[1], box[1])
    group[2], group[3] = max(group[2], box[2]), max(group[3], box[3])


def _merge(rules: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Snap rules within SNAP of each other onto their mean position, join pieces that meet."""
    rules.sort()
    snapped: list[tuple[float, float, float]] = []
    group: list[tuple[float, float, float]] = []
    for rule in rules:
        if group and rule[0] > group[-1][0] + SNAP:
            snapped += _snap(group)
            group = []
        group.append(rule)
    snapped += _snap(group)
    snapped.sort()
    out: list[tuple[float, float, float]] = []
    for at, a, b in snapped:
        if out and out[-1][0] == at and a <= out[-1][2] + SNAP:
            if b > out[-1][2]:
                out[-1] = (at, out[-1][1], b)
        else:
            out.append((at, a, b))
    return [r for r in out if r[2] - r[1] >= THIN]


def _snap(group: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    if not group:
        return []
    at = sum(r[0] for r in group) / len(group)
    return [(at, a, b) for _, a, b in group]


def _crossings(horizontal: list, vertical: list) -> dict[tuple[float, float], tuple[set, set]]:
    """Grid corners: (x, y) -> (indexes of vertical rules, of horizontal rules) through it."""
    ys = [h[0] for h in horizontal]  # sorted by y
    corners: dict[tuple[float, float], tuple[set, set]] = {}
    for vi, (x, top, bottom) in enumerate(vertical):
        for hi in range(bisect_left(ys, top - SNAP), bisect_right(ys, bottom + SNAP)):
            y, x0, x1 = horizontal[hi]
            if x0 - SNAP <= x <= x1 + SNAP:
                v, h = corners.setdefault((x, y), (set(), set()))
                v.add(vi)
                h.add(hi)
    return corners


def _cells(corners: dict[tuple[float, float], tuple[set, set]]) -> list[Box]:
    """For each corner, the smallest rectangle of corners linked by rules, with it as top-left."""
    by_x: dict[float, list[float]] = {}
    by_y: dict[float, list[float]] = {}
    for x, y in sorted(corners):
        by_x.setdefault(x, []).append(y)
        by_y.setdefault(y, []).append(x)
    cells = []
    for (x, y), (vs, hs) in sorted(corners.items()):
        found = None
        column, row = by_x[x], by_y[y]
        for b in column[bisect_right(column, y) :]:
            if not vs & corners[(x, b)][0]:
                continue  # no rule down from (x, y) to (x, b)
            for r in row[bisect_right(row, x) :]:
                if not hs & corners[(r, y)][1]:
                    continue
                far = corners.get((r, b))
                if far and far[0] & corners[(r, y)][0] and far[1] & corners[(x, b)][1]:
                    found = (x, y, r, b)
                    break
            if found:
                cells.append(found)
                break
    return cells


def _tables(cells: list[Box]) -> list[list[Box]]:
    """Cells that share a corner, transitively, are one table."""
    owner: dict[tuple[float, float], int] = {}
    groups = Groups(len(cells))
    for i, (x0, y0, x1, y1) in enumerate(cells):
        for corner in ((x0, y0), (x0, y1), (x1, y0), (x1, y1)):
            j = owner.setdefault(corner, i)
            if j != i:
                groups.attach(j, i)
    return [[cells[i] for i in members] for members in groups.members()]


def _rows(cells: list[Box]) -> tuple[tuple[Box | None, ...], ...]:
    """Cells by row (same top), one slot per distinct left edge of the table."""
    xs = sorted({c[0] for c in cells})
    rows: dict[float, dict[float, Box]] = {}
    for cell in sorted(cells, key=lambda c: (c[1], c[0])):
        rows.setdefault(cell[1], {})[cell[0]] = cell
    return tuple(tuple(row.get(x) for x in xs) for _, row in sorted(rows.items()))
