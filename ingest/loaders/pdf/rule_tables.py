"""Tables ruled across only (booktabs): a rule over the table, one under its heads, one under it.

Papers set most tables this way: horizontal rules of one length, none down the page, columns by
alignment alone. The grid finder needs rules down to see columns, and `pdf_text_tables` reads
rows across the whole page, where the other column's prose shares every row and MuPDF has
already joined cells a few ems apart into one line. Here the rules give the table its box, and
the words between them its cells:

- rules: horizontal strokes (pieces that meet end to end on one line joined: a filing cuts a
  rule at every cell's edge) of one span (left and right ends within a snap), two or more, over
  one another, none beside them on their line (a statement rules each column's totals apart),
  none right under a line of words it runs the length of (a link's underline in a passage);
  the stretches between them must hold rows, not prose (a run of six or more words, most in
  lower case, is a caption or a paragraph between two tables), so a run of such stretches is
  one table's (until a stretch opens with heads over the figures' columns: the next table's);
  rows that run on past the rules' ends (one MuPDF line, or most rows with short
  pieces beside them on their line: a statement's labels left of its ruled figures) make it
  part of something wider, no table;
- rows: the words' centres, a new row where they step down by over half a word's height (a label
  centred over its two sub-rows joins one of them); where that leaves too few rows of figures, a
  label wrapped over lines (going on in lower case) is one row with the figures on its last line;
- cells: a row's words joined across gaps under an em's half (a phrase), two figures apart;
  columns: the phrases of the rows with figures, their x-ranges merged where they overlap (heads
  spanning columns would merge them, so heads are placed afterwards, by centre);
- a table needs two columns, three rows and figures in half its rows below the heads (or one
  row of figures, all there is under them); its heads are the rows above the rule right over
  its first row of figures.

The loader (`_units`) lets `pdf_text_tables` read a statement as it always has: a table found
here stands where the alignment rule found none, or one that read past the rules' ends or saw
fewer columns inside them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import replace

from .model import Box, Unit
from .tables import header_rows, with_year_rows
from .text_tables import AFTER, BEFORE, figure, merged_spans
from .thresholds import (
    MIN_FILLED,
    PHRASE_GAP,
    RULE_COLUMN_EDGE,
    RULE_COVERED,
    RULE_GRID_HELD,
    RULE_LEVEL,
    RULE_LINE_WORDS,
    RULE_MAX_CELL,
    RULE_MIN_ROWS,
    RULE_MIN_TOUCHED,
    RULE_PROSE_WORDS,
    RULE_ROW_STEP,
    RULE_TABLE_MIN_WIDTH,
    RULE_TRAIL_GAP,
    RULE_UNDER,
    RULE_WORD_CENTRE,
    SHAPE_PIECE_GAP,
    SNAP,
    THIN,
    THIRDS,
)

_GROUP = re.compile(r"\d{3}(?:[.,]\d+)?")
"""A group of three digits after a space: the thousands of a number spaced as "1 234"."""


def rule_tables(
    rects: Sequence[Box],
    lines: Callable[[], Sequence[Box]],
    words: Callable[[], Sequence[tuple]],
    taken: Sequence[Box],
    page: int,
) -> list[Unit]:
    """The booktabs tables among a page's rectangles (axis-aligned pieces of its paths); `lines`
    gives the boxes of the page's MuPDF lines, `words` its MuPDF words (each read only where
    rules could frame rows), `taken` the boxes of the tables found already."""
    sets = _rule_sets(rects, taken)
    if sets:
        boxes = lines()
        sets = [s for s in sets if _framed_lines(s, boxes) >= RULE_MIN_ROWS]
    if not sets:
        return []
    found: list[Unit] = []
    all_words = words()
    by_foot: dict[int, list[tuple]] = {}  # words by their bottom, to a point: the underline test
    for w in all_words:
        by_foot.setdefault(round(w[3]), []).append(w)
    for x0, x1, ruled in sets:
        ys = [y for y in ruled if not _underline(y, x0, x1, by_foot)]
        if len(ys) < 2:
            continue
        inside: list[tuple] = []
        outside: list[tuple] = []
        for w in all_words:
            if ys[0] < (w[1] + w[3]) / 2 < ys[-1]:
                (inside if x0 - SNAP <= (w[0] + w[2]) / 2 <= x1 + SNAP else outside).append(w)
        for top, bottom, inner in _runs(ys, inside):
            words_in = [w for w in inside if top < (w[1] + w[3]) / 2 < bottom]
            beside = [w for w in outside if top < (w[1] + w[3]) / 2 < bottom]
            # Rows that run on past the rules' ends are no table's rows: the rules underline a
            # part of something wider (a statement's figures, a passage).
            own = {w[5:7] for w in words_in}  # the MuPDF lines of the words between the rules
            continued, column = _beside(x0, x1, _rows(words_in), beside)
            if continued or any(w[5:7] in own for w in beside):
                continue
            # Prose beside the rows (another column's, most of its lines sentences): an aligned
            # table that takes it in with the rows misreads them (`loader._units`).
            lined = _rows(beside)
            prose = column and 2 * sum(1 for row in lined if _sentence(row)) >= len(lined)
            # The box holds the rules and the words they took (a figure may stand out a little).
            box = (min([x0] + [w[0] for w in words_in]), top, max([x1] + [w[2] for w in words_in]), bottom)
            table = _table(box, inner, words_in, page)
            if table is not None:
                found.append(replace(table, across=True, prose_beside=bool(prose)))
    # Rules of two spans over one stretch (a contents page's rules under its titles and under
    # its entries) frame one table: the widest.
    found.sort(key=lambda t: -_width(t))
    kept: list[Unit] = []
    for table in found:
        if not any(_overlap(table.bbox, k.bbox) for k in kept):
            kept.append(table)
    return sorted(kept, key=lambda t: (t.bbox or (0.0,) * 4)[1])


def one_claim(grids: list[Unit], ruled: list[Unit], words: Sequence[tuple]) -> tuple[list[Unit], list[Unit]]:
    """The grids and the tables ruled across left when each word is read by one table: rules
    outside a grid (its own lie inside it and make no rule set) may frame a table round it, its
    heads over a shaded grid of them or its body in a grid ruled cell by cell, which reads the
    grid's words again. A ruled table holding nearly all of each grid it overlaps
    (`RULE_GRID_HELD`), and more, takes their place; one that only meets a grid goes."""
    dropped: set[int] = set()
    kept: list[Unit] = []
    held: dict[int, set[int]] = {}  # a grid's words, found once however many ruled tables meet it
    for table in ruled:
        met = [i for i, grid in enumerate(grids) if _overlap(table.bbox, grid.bbox)]
        if met:
            mine = _held(table.bbox, words)
            for i in met:
                if i not in held:
                    held[i] = _held(grids[i].bbox, words)
            theirs = [held[i] for i in met]
            if not all(len(g & mine) >= RULE_GRID_HELD * len(g) and len(mine) > len(g) for g in theirs):
                continue
            dropped.update(met)
        kept.append(table)
    return [g for i, g in enumerate(grids) if i not in dropped], kept


def _held(box: Box | None, words: Sequence[tuple]) -> set[int]:
    """The words (their indices) whose centres lie in the box."""
    if box is None:
        return set()
    x0, y0, x1, y1 = box
    return {i for i, w in enumerate(words) if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1}


def _framed_lines(rules: tuple[float, float, list[float]], lines: Sequence[Box]) -> int:
    """Rows of text between the rules, counted from MuPDF's lines before any word is read."""
    x0, x1, ys = rules
    centres = {
        round((b[1] + b[3]) / 2)
        for b in lines
        if ys[0] < (b[1] + b[3]) / 2 < ys[-1] and x0 - SNAP <= (b[0] + b[2]) / 2 <= x1 + SNAP
    }
    return len(centres)


def _width(table: Unit) -> float:
    return table.bbox[2] - table.bbox[0] if table.bbox is not None else 0.0


def _overlap(a: Box | None, b: Box | None) -> bool:
    return a is not None and b is not None and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _rule_sets(rects: Sequence[Box], taken: Sequence[Box]) -> list[tuple[float, float, list[float]]]:
    """Horizontal rules of one span, two or more, outside the tables found already (a grid's own
    rules): (left, right, their heights top to bottom)."""
    flat = [((y0 + y1) / 2, x0, x1) for x0, y0, x1, y1 in rects if y1 - y0 <= THIN and x1 - x0 > y1 - y0]
    strokes = [s for s in _end_to_end(flat) if s[2] - s[1] > THIN]
    wide = [s for s in strokes if s[2] - s[1] >= RULE_TABLE_MIN_WIDTH]
    if len(wide) < 2:
        return []  # most pages: no two rules that could span a table
    level: dict[int, list[tuple[float, float, float]]] = {}  # strokes by their height, to a point
    for stroke in strokes:
        level.setdefault(round(stroke[0]), []).append(stroke)
    rules: list[tuple[float, float, float]] = []  # (y, x0, x1)
    for y, x0, x1 in wide:
        if any(t[0] - SNAP <= x0 and x1 <= t[2] + SNAP and t[1] - SNAP <= y <= t[3] + SNAP for t in taken):
            continue
        # A rule with another beside it on its line underlines one column of a statement (each
        # column's totals are ruled apart); a table's rule spans all its columns.
        near = (b for k in (round(y) - 1, round(y), round(y) + 1) for b in level.get(k, ()))
        if not any(abs(b[0] - y) <= RULE_LEVEL and (b[2] < x0 - SNAP or b[1] > x1 + SNAP) for b in near):
            rules.append((y, x0, x1))
    if len(rules) < 2:
        return []
    sets: list[tuple[float, float, list[float]]] = []
    for y, x0, x1 in sorted(rules):
        for s in sets:
            if abs(s[0] - x0) <= SNAP and abs(s[1] - x1) <= SNAP:
                if y - s[2][-1] > SNAP:  # a rule drawn twice (or in pieces) is one rule
                    s[2].append(y)
                break
        else:
            sets.append((x0, x1, [y]))
    return [s for s in sets if len(s[2]) >= 2]


def _end_to_end(strokes: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Strokes on one line that meet end to end joined: a filing cuts a rule at every cell's edge,
    and its pieces, each beside the next, would read as columns' underlines ruled apart (those
    leave a gap between them; pieces of one rule touch)."""
    out: list[tuple[float, float, float]] = []
    for y, x0, x1 in sorted(strokes, key=lambda s: (round(s[0] / RULE_LEVEL), s[1])):
        last = out[-1] if out else None
        if last is not None and abs(last[0] - y) <= RULE_LEVEL and x0 <= last[2] + SHAPE_PIECE_GAP:
            out[-1] = (last[0], last[1], max(last[2], x1))
        else:
            out.append((y, x0, x1))
    return out


def _underline(y: float, x0: float, x1: float, by_foot: dict[int, list[tuple]]) -> bool:
    """The rule underlines a line of text (a link's, in a passage): the words right over it,
    word spaces (under an em) included, run nine tenths of its length. A table's rule runs
    under a row of cells set apart."""
    feet = range(round(y - RULE_UNDER) - 1, round(y + RULE_UNDER) + 2)
    over = sorted(
        (max(w[0], x0), min(w[2], x1), w[3] - w[1])
        for k in feet
        for w in by_foot.get(k, ())
        if y - RULE_UNDER <= w[3] <= y + RULE_UNDER and (w[1] + w[3]) / 2 < y and w[0] < x1 and x0 < w[2]
    )
    runs: list[list[float]] = []  # stretches of words a word space apart
    for a, b, em in over:
        if runs and a - runs[-1][1] < em:
            runs[-1][1] = max(runs[-1][1], b)
        else:
            runs.append([a, b])
    return sum(b - a for a, b in runs) >= RULE_COVERED * (x1 - x0)


def _runs(ys: list[float], words: Sequence[tuple]) -> list[tuple[float, float, list[float]]]:
    """Stretches of consecutive rules whose gaps hold rows, not prose: (top, bottom, the rules
    between). A gap holding prose ends one table; the next may start at its lower rule. A gap
    opening with heads under rows of figures starts the next table at its upper rule."""
    runs: list[tuple[float, float, list[float]]] = []
    ordered = sorted(words, key=lambda w: (w[1] + w[3]) / 2)
    centres = [(w[1] + w[3]) / 2 for w in ordered]
    start = 0
    cells = float("inf")  # the left edge of the run's figures so far (right of its labels)
    for k in range(len(ys) - 1):
        gap = ordered[bisect_right(centres, ys[k]) : bisect_left(centres, ys[k + 1])]
        rows = [_phrases(row) for row in _rows(gap)]
        if any(_prose(p) for row in rows for p in row):
            if k > start:
                runs.append((ys[start], ys[k], ys[start + 1 : k]))
            start, cells = k + 1, float("inf")
            continue
        # Rows of figures, then a rule and a row of heads over the figures' columns (none in the
        # labels' column, no figure: "Secured by real estate" over the next period's columns)
        # with rows of figures under them: the next table stacked under the rule, its own heads
        # first. A group's label opens at the labels' edge ("Assets") and stays a row; a line
        # alone between two rules (lined paper's) heads nothing.
        head = bool(rows) and rows[0][0][0][0] >= cells and not any(_figure(p) for p in rows[0])
        if k > start and head and any(_figures(row) for row in rows[1:]):
            runs.append((ys[start], ys[k], ys[start + 1 : k]))
            start, cells = k, float("inf")
        cells = min([cells] + [row[1][0][0] for row in rows if _figures(row)])
    if len(ys) - 1 > start:
        runs.append((ys[start], ys[-1], ys[start + 1 : -1]))
    return runs


def _beside(x0: float, x1: float, rows: list[list[tuple]], beside: Sequence[tuple]) -> tuple[bool, bool]:
    """What stands beside the rules on the rows of figures: (most rows, two in three, go on past
    the rules' ends on their line: more figures, or labels that end ragged, of a wider table
    whose rules span only some of its columns, a statement's; a column of text stands beside:
    the other column's lines, in words, face the table with one edge, justified or aligned)."""
    rows = [row for row in rows if _figures(_phrases(row))]  # heads may stand alone
    on = figures = 0
    edges: list[int] = []  # per row with words beside: the edge they turn to the rules
    for row in rows:
        centre = sorted((w[1] + w[3]) / 2 for w in row)[len(row) // 2]
        height = sorted(w[3] - w[1] for w in row)[len(row) // 2]
        near = sorted(
            (w for w in beside if abs((w[1] + w[3]) / 2 - centre) <= RULE_WORD_CENTRE * height), key=lambda w: w[0]
        )
        if not near:
            continue
        on += 1
        if any(_figure(p) for p in _phrases(near)):
            figures += 1  # a cell of figures beside: the table goes on
            continue
        left = [w[2] for w in near if w[2] <= x0 + SNAP]
        right = [w[0] for w in near if w[0] >= x1 - SNAP]
        edges.append(round(max(left) / RULE_COLUMN_EDGE) if left else -round(min(right or [0.0]) / RULE_COLUMN_EDGE))
    common = max((sum(1 for e in edges if abs(e - f) <= 1) for f in edges), default=0)
    column = len(edges) >= RULE_MIN_ROWS and 2 * common >= len(edges) and THIRDS * figures < len(rows)
    return not column and THIRDS * on >= 2 * max(1, len(rows)), column


def _sentence(words: list[tuple]) -> bool:
    """Words on one line, however far apart (justified, in a fixed-width font), that read as a
    line of prose: eight or more, most in lower case."""
    return len(words) >= RULE_LINE_WORDS and 2 * sum(1 for w in words if w[4][:1].islower()) >= len(words)


def _prose(phrase: list[tuple]) -> bool:
    """A sentence's run of words, most in lower case (column heads set close are capitalised or
    acronyms: "CoNLL OntoNotes FewNERD TACREV TACRED ACE05"), or a run too long for a cell."""
    lower = sum(1 for w in phrase if w[4][:1].islower())
    return (len(phrase) >= RULE_PROSE_WORDS and 2 * lower >= len(phrase)) or sum(
        len(w[4]) + 1 for w in phrase
    ) > RULE_MAX_CELL


def _rows(words: Sequence[tuple]) -> list[list[tuple]]:
    """Words in visual rows, top to bottom, each left to right."""
    if not words:
        return []
    ordered = sorted(words, key=lambda w: (w[1] + w[3]) / 2)
    heights = sorted(w[3] - w[1] for w in ordered)
    step = RULE_ROW_STEP * heights[len(heights) // 2]
    rows: list[list[tuple]] = [[ordered[0]]]
    for prev, w in zip(ordered, ordered[1:]):
        if (w[1] + w[3]) / 2 - (prev[1] + prev[3]) / 2 > step:
            rows.append([])
        rows[-1].append(w)
    return [sorted(row, key=lambda w: w[0]) for row in rows]


def _phrases(row: list[tuple]) -> list[list[tuple]]:
    """A row's words joined across word spaces (cells stand half an em or more apart), and a
    currency sign or a "%" set apart with its amount, as `pdf_text_tables` joins them."""
    out: list[list[tuple]] = [[row[0]]]
    for w in row[1:]:
        last = out[-1][-1]
        close = w[0] - last[2] < PHRASE_GAP * min(w[3] - w[1], last[3] - last[1])
        if close and figure(w[4]) and figure(last[4]) and not _GROUP.fullmatch(w[4]):
            close = False  # two figures are two cells ("99.34 97.01"); "1 234" is one
        if w[4] not in BEFORE and (close or last[4] in BEFORE or w[4] in AFTER):
            out[-1].append(w)
        else:
            out.append([w])
    return out


def _table(box: Box, inner: list[float], words: list[tuple], page: int) -> Unit | None:
    rows, box = _trimmed([_phrases(row) for row in _rows(words)], box)
    table = _read(box, inner, rows, page)
    if table is None:
        # Too few rows of figures, maybe for labels wrapped over lines (their first lines read as
        # rows of words): read again with each wrapped label in the row of its figures. Only
        # then: a caption over a group's rows may be followed by a label in lower case ("bert-base").
        wrapped = _wrapped(rows)
        if len(wrapped) < len(rows):
            table = _read(box, inner, wrapped, page)
    return table


def _trimmed(rows: list[list[list[tuple]]], box: Box) -> tuple[list[list[list[tuple]]], Box]:
    """The rows without those that end it far below the rest, without figures: the table's own
    bottom rule lay in a grid found already, so the next rule down (the page's, under its folio)
    took in the lines between. The box ends between the last row kept and the first dropped."""
    centres = [_centre(row) for row in rows]
    steps = sorted(b - a for a, b in zip(centres, centres[1:]))
    n = len(rows)
    while (
        n > 1
        and not _figures(rows[n - 1])
        and centres[n - 1] - centres[n - 2] > RULE_TRAIL_GAP * steps[len(steps) // 2]
    ):
        n -= 1
    if n == len(rows):
        return rows, box
    bottom = (max(w[3] for p in rows[n - 1] for w in p) + min(w[1] for p in rows[n] for w in p)) / 2
    return rows[:n], (box[0], box[1], box[2], bottom)


def _read(box: Box, inner: list[float], rows: list[list[list[tuple]]], page: int) -> Unit | None:
    """The table the rows of phrases make, or None: too few rows, figures or columns."""
    if len(rows) < RULE_MIN_ROWS:
        return None
    data = [r for r, row in enumerate(rows) if _figures(row)]
    # The heads: the rows above the rule right over the first row of figures (rows grouped
    # under captions further down keep theirs as rows).
    over = [y for y in inner if data and y < _centre(rows[data[0]])]
    heads = sum(1 for row in rows if _centre(row) < over[-1]) if over else 0
    # A ruled box of words (an algorithm, a list) is no table of figures; one row of figures
    # under the heads is a table when it is all there is below them.
    enough = len(data) >= 2 or (0 < heads and data == list(range(heads, len(rows))))
    if not enough or 2 * len(data) < len(rows) - heads:
        return None
    columns = _columns([rows[r] for r in data])
    if len(columns) < 2:
        return None
    grid = [[""] * len(columns) for _ in rows]
    for r, row in enumerate(rows):
        for phrase in row:
            for c, cell in _placed(phrase, columns):
                grid[r][c] = f"{grid[r][c]} {cell}".strip()
    filled = sum(1 for row in grid for cell in row if cell)
    if filled < MIN_FILLED * len(grid) * len(columns):
        return None
    cells = tuple(tuple(row) for row in grid)
    heads = with_year_rows(cells, heads) if 0 < heads < len(cells) else header_rows(cells)
    return Unit("table", [], page, rows=cells, header_rows=heads, bbox=box)


def _wrapped(rows: list[list[list[tuple]]]) -> list[list[list[tuple]]]:
    """A row label wrapped over lines is one row's: a lone phrase (no figure) joins the row under
    it when that row's first phrase goes on in lower case under it ("Equity compensation" /
    "plans approved by" / "security holders  30,678,206  47.12": a filing sets a long label's
    figures on its last line). Read apart, each line of the label is a row without figures."""
    out: list[list[list[tuple]]] = []
    for row in rows:
        last = out[-1] if out else None
        lead = row[0]
        if (
            last is not None
            and len(last) == 1
            and not _figure(last[0])
            and lead[0][4][:1].islower()
            and lead[0][0] < last[0][-1][2]
            and last[0][0][0] < lead[-1][2]
        ):
            out[-1] = [last[0] + lead] + row[1:]
        else:
            out.append(row)
    return out


def _figure(phrase: list[tuple]) -> bool:
    return figure(" ".join(w[4] for w in phrase))


def _figures(row: list[list[tuple]]) -> bool:
    """A row of a table's figures: two cells or more, a figure beside its first."""
    return len(row) >= 2 and any(_figure(p) for p in row[1:])


def _centre(row: list[list[tuple]]) -> float:
    ws = [w for p in row for w in p]
    return sum((w[1] + w[3]) / 2 for w in ws) / len(ws)


def _columns(rows: list[list[list[tuple]]]) -> list[tuple[float, float]]:
    """x-ranges of the columns: the phrases' ranges merged where they overlap."""
    return merged_spans((p[0][0], p[-1][2]) for row in rows for p in row)


def _placed(phrase: list[tuple], columns: list[tuple[float, float]]) -> list[tuple[int, str]]:
    """The phrase's column and text; heads set a word space apart over as many columns (three or
    more) as they have words, one word over each ("CoNLL OntoNotes FewNERD"), go one to a column.
    A head spanning columns ("NER (20-shot)" over three, "RE (100-shot)" over two) or a caption
    running over the labels' column ("Named Entity Recognition") goes whole to the column under
    its centre."""
    touched = _touched(phrase[0][0], phrase[-1][2], columns)
    if len(touched) >= RULE_MIN_TOUCHED and len(phrase) == len(touched) and touched[0] > 0:
        each = [_touched(w[0], w[2], columns) for w in phrase]
        if [t[0] if len(t) == 1 else -1 for t in each] == touched:
            return [(c, w[4]) for c, w in zip(touched, phrase)]
    return [(_column_of(phrase, columns), " ".join(w[4] for w in phrase))]


def _touched(x0: float, x1: float, columns: list[tuple[float, float]]) -> list[int]:
    return [i for i, (a, b) in enumerate(columns) if a < x1 and x0 < b]


def _column_of(phrase: list[tuple], columns: list[tuple[float, float]]) -> int:
    """The column holding the phrase's centre, or the nearest one."""
    centre = (phrase[0][0] + phrase[-1][2]) / 2
    return min(
        range(len(columns)),
        key=lambda i: 0 if columns[i][0] <= centre <= columns[i][1] else min(abs(centre - c) for c in columns[i]),
    )
