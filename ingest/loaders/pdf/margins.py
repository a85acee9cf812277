"""Where a PDF page's lines sit: the body, or a margin band the cleaners judge.

A line is in the top or bottom band of the page when it sits there apart from the body (no chain
of close lines in its type links it to text outside the band; a bare page number is apart by
itself) or when it recurs in the band of many pages (a running header set close to the body);
rotated text in the side margins and bare small numbers left of the body's left edge (a pleading
gutter) are margin too. Nothing is dropped here: `pdf.py` keeps margin lines out of paragraphs so
the cleaners can decide about them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ...blocks import Band
from ...page_furniture import band_key, is_page_number
from .lines import side_by_side
from .model import Line, PageLines
from .thresholds import (
    BAND_BELOW_REACH,
    BAND_GAP,
    LINE_NUMBER_GUTTER,
    LINE_NUMBER_MIN,
    MARGIN_BAND,
    MARGIN_LINE_REACH,
    MARGIN_PROSE_CHARS,
    MARGIN_STACK_GAP,
    RECURRING_PAGES,
    SAME_ROW_CLOSE,
    SAME_ROW_FIRM,
    SAME_SIZE,
    SIDE_MARGIN_LEFT,
    SIDE_MARGIN_RIGHT,
)

_GUTTER_NUMBER = re.compile(r"\d{1,2}")

# A statement's column heads are periods and units ("(Millions) 2018 2017", "Year ended December
# 31, 2019"), never a title: words of that kind only, at least one of them a year.
_HEAD_WORD = re.compile(
    r"(?i)(?:19|20)\d\d|\d{1,2}|years?|ended|ending|as|of|at|and|in|fiscal|quarters?|months?|weeks?|three|six"
    r"|nine|twelve|fourth|first|second|third|q[1-4]|h[12]|fy|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may"
    r"|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|millions?|thousands?"
    r"|billions?|except|per|share|amounts?|data|dollars|usd|eur|unaudited|[$%]|\$?m"
)
YEAR = re.compile(r"(?:19|20)\d\d")


def recurring(pages: Sequence[tuple[Sequence[Line], float]]) -> frozenset[str]:
    """Keys (`band_key`) of lines that sit in the top or bottom band of many pages: a running
    header is one by recurring, however close it is set to the body.

    Pages are (lines, page height); a key counts once a page, and must recur on a quarter of the
    pages and at least two.
    """
    seen: Counter[str] = Counter()
    for lines, height in pages:
        seen.update(
            {
                band_key(line.text)
                for line in lines
                if not line.rotated
                and (line.bbox[3] <= MARGIN_BAND * height or line.bbox[1] >= (1 - MARGIN_BAND) * height)
            }
        )
    need = max(2, -(-len(pages) // RECURRING_PAGES))
    return frozenset(k for k, n in seen.items() if n >= need and any(c.isalpha() for c in k))


def split_margins(
    lines: list[Line], number: int, width: float, height: float, repeated: frozenset[str] = frozenset()
) -> PageLines:
    """Sort lines into body and margin: page bands apart from the body or recurring on other pages
    (`repeated`, from `recurring`), gutter numbers, side stamps."""
    left_edge = _left_edge(lines)
    band: dict[int, Band] = {}
    gutter = []
    for i, line in enumerate(lines):
        x0, _, x1, _ = line.bbox
        if line.rotated:
            if x1 < SIDE_MARGIN_LEFT * width or x0 > SIDE_MARGIN_RIGHT * width:
                band[i] = "left" if x1 < width / 2 else "right"
        elif (
            left_edge is not None
            and x1 <= min(left_edge - 2, LINE_NUMBER_GUTTER * width)
            and _GUTTER_NUMBER.fullmatch(line.text)
        ):
            gutter.append(i)
    # A gutter numbers many lines at the page's left; one number there (a page number in the
    # header's corner) or a chart's values left of a column are not one.
    if len(gutter) >= LINE_NUMBER_MIN:
        band.update((i, "left") for i in gutter)
    flow = [i for i, ln in enumerate(lines) if i not in band and not ln.rotated]
    top = {i for i in flow if lines[i].bbox[3] <= MARGIN_BAND * height}
    top -= _column_heads(lines, top, flow)
    bottom = {i for i in flow if lines[i].bbox[1] >= (1 - MARGIN_BAND) * height}
    if flow:  # a page number set higher than the band (LaTeX on A4) is still the page's last line
        last = max(flow, key=lambda i: lines[i].bbox[3])
        first = min(flow, key=lambda i: lines[i].bbox[1])
        if is_page_number(lines[last].text):
            bottom.add(last)
        if is_page_number(lines[first].text):
            top.add(first)
    zones: tuple[tuple[set[int], Band], ...] = ((top, "top"), (bottom, "bottom"))
    stacked = _Stacked.of(lines, flow)
    for zone, where in zones:
        for i in zone:
            if _apart(i, lines, stacked, zone) or (repeated and band_key(lines[i].text) in repeated):
                band[i] = where
        # A piece set on the row of a page number or a recurring header ("[Ch. XIX." beside "400")
        # is part of the header, whatever body line it touches below.
        sure = [
            j
            for j in zone
            if band.get(j) == where
            and (is_page_number(lines[j].text) or (repeated and band_key(lines[j].text) in repeated))
        ]
        for i in zone:
            if i not in band and any(side_by_side(lines[i], lines[j], SAME_ROW_FIRM) for j in sure):
                band[i] = where
    body = tuple(ln for i, ln in enumerate(lines) if i not in band)
    return PageLines(number, width, height, body, _group_margins(lines, band), left_edge)


def _column_heads(lines: list[Line], top: set[int], flow: list[int]) -> set[int]:
    """Top-band rows that head the columns of figures set directly below them: table content,
    however often the statement pages repeat them.

    A row (pieces on one baseline) qualifies when it is made of periods and units with a year
    among them, the body goes on right under it (no wider gap than a line's height and a half),
    and each year in it stands over a column of figures in the lines below; the band's lines
    under it are its table's first rows.
    """
    heads: set[int] = set()
    for i in top:
        if i in heads:
            continue
        row = [j for j in top if j == i or side_by_side(lines[i], lines[j], SAME_ROW_FIRM)]
        if not all(head_words(lines[j].text) for j in row):
            continue
        bottom = max(lines[j].bbox[3] for j in row)
        pitch = max(lines[j].height for j in row)
        below = [
            lines[j]
            for j in flow
            if j not in row and bottom - 1 <= lines[j].bbox[1] <= bottom + BAND_BELOW_REACH * pitch
        ]
        if not below or min(b.bbox[1] for b in below) - bottom > BAND_GAP * pitch:
            continue
        years = [lines[j] for j in row if YEAR.search(lines[j].text)]
        below_band = [lines[j] for j in flow if j not in top and bottom - 1 <= lines[j].bbox[1]]
        if years and all(_over_figures(y, below) for y in years):
            heads.update(row)
        elif not years and all(_over_year(lines[j], below_band, bottom + BAND_GAP * pitch) for j in row):
            heads.update(row)  # "December 31," over each year of the row right under the band
    if heads:  # the rows under the heads are the table's, however high they start
        under = min(lines[j].bbox[1] for j in heads)
        heads.update(j for j in top if lines[j].bbox[1] >= under)
    return heads


def head_words(text: str) -> bool:
    words = [w for w in re.split(r"[\s(),.:;\-\u2013\u2014/]+", text) if w]
    return bool(words) and all(_HEAD_WORD.fullmatch(w) for w in words)


def _over_year(head: Line, below: list[Line], reach: float) -> bool:
    """A line of the next row, within reach, holds a year and sits under the head across."""
    return any(
        b.bbox[1] <= reach and b.bbox[0] < head.bbox[2] and head.bbox[0] < b.bbox[2] and YEAR.search(b.text)
        for b in below
    )


def _over_figures(head: Line, below: list[Line]) -> bool:
    """Some line below holding a figure overlaps the head across (right-aligned figures stick out
    by a few characters: a type size of slack)."""
    slack = head.size
    return any(
        b.bbox[0] < head.bbox[2] + slack and head.bbox[0] < b.bbox[2] + slack and any(c.isdigit() for c in b.text)
        for b in below
    )


def _left_edge(lines: list[Line]) -> float | None:
    starts: Counter[int] = Counter()
    for line in lines:
        if len(line.text) >= MARGIN_PROSE_CHARS and not line.rotated:
            starts[round(line.bbox[0])] += len(line.text)
    return float(starts.most_common(1)[0][0]) if starts else None


@dataclass(frozen=True)
class _Stacked:
    """The flow's lines by their tops, and the tallest one's height: the lines close enough above
    or below a line to link with it lie in a window of tops, found by bisection (a page's band
    lines would otherwise each scan every line of the page)."""

    order: tuple[int, ...]
    tops: tuple[float, ...]
    tallest: float

    @classmethod
    def of(cls, lines: list[Line], flow: list[int]) -> _Stacked:
        order = sorted(flow, key=lambda i: lines[i].bbox[1])
        return cls(
            tuple(order), tuple(lines[i].bbox[1] for i in order), max((lines[i].height for i in flow), default=0.0)
        )

    def near(self, line: Line) -> tuple[int, ...]:
        # A gap is at most 1.3 of the taller line's height, and a line below starts by its top.
        reach = MARGIN_LINE_REACH * self.tallest + 1.0
        lo = bisect_left(self.tops, line.bbox[1] - reach - self.tallest)
        return self.order[lo : bisect_right(self.tops, line.bbox[3] + reach)]


def _apart(i: int, lines: list[Line], stacked: _Stacked, zone: set[int]) -> bool:
    """No chain of close lines links line i to text outside its band: it is not body text.

    Close: stacked with a gap of at most 1.3 line heights, overlapping horizontally, in the same
    font size. A bare page number is apart by itself and links nothing.
    """
    if is_page_number(lines[i].text):
        return True
    seen, todo = {i}, [i]
    while todo:
        a = lines[todo.pop()]
        for j in stacked.near(a):
            if j in seen:
                continue
            b = lines[j]
            if abs(a.size - b.size) > SAME_SIZE or min(a.bbox[2], b.bbox[2]) <= max(a.bbox[0], b.bbox[0]):
                continue
            gap = max(b.bbox[1] - a.bbox[3], a.bbox[1] - b.bbox[3])
            if gap > MARGIN_LINE_REACH * max(a.height, b.height) or is_page_number(b.text):
                continue
            if j not in zone:
                return False
            seen.add(j)
            todo.append(j)
    return True


def _group_margins(lines: list[Line], band: dict[int, Band]) -> tuple[tuple[Band, tuple[Line, ...]], ...]:
    """One group per header line (pieces on one baseline) or per run of close lines in one band."""
    groups: list[tuple[Band, list[Line]]] = []
    numbers = [lines[i] for i in band if is_page_number(lines[i].text)]
    for i in sorted(band, key=lambda i: (band[i], lines[i].bbox[1], lines[i].bbox[0])):
        line, where = lines[i], band[i]
        if where in ("top", "bottom") and groups and groups[-1][0] == where and _near(groups[-1][1][-1], line, numbers):
            groups[-1][1].append(line)
        else:
            groups.append((where, [line]))
    return tuple((where, tuple(ls)) for where, ls in groups)


def _near(a: Line, b: Line, numbers: list[Line]) -> bool:
    # Pieces of one header line share their baseline; a footer stacked half a line off is another.
    same_row = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1]) > SAME_ROW_CLOSE * min(a.height, b.height)
    if same_row:
        # Not two columns' first lines side by side in their own types (a note's title beside a
        # table's heading): pieces of one header line share their type, sit close, or share the
        # row with the page number ("[Ch. XIX.  BRITISH HUSBANDRY.  400").
        apart = max(a.bbox[0], b.bbox[0]) - min(a.bbox[2], b.bbox[2])
        return (
            abs(a.size - b.size) <= SAME_SIZE
            or apart < 2 * max(a.size, b.size)
            or any(side_by_side(a, n, SAME_ROW_FIRM) or side_by_side(b, n, SAME_ROW_FIRM) for n in numbers)
        )
    overlap_x = min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0]) > 0
    return overlap_x and 0 <= b.bbox[1] - a.bbox[3] <= MARGIN_STACK_GAP * a.height and abs(a.size - b.size) <= SAME_SIZE
