"""Band lines that are the body's own, back to the body.

The split into body and bands (`pdf_margins.split_margins`) is made page by page, line by line; some
lines it sets apart are body text: a heading that opens a page, the first lines of a column just
under a running header, a section starting low on a page. Once the whole document is read, a band
line that appears on no other page's band, is set in the body's type (or opens a caption) and is
neither a page number nor furniture by its content, and that a chain of close lines links to the
body, goes back; a caption goes back too when it is set right under or over a figure or a table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ...page_furniture import CAPTION, STAMP, band_key, furniture_like, is_page_number
from .headings import heading_like
from .model import Line, PageLines, Unit
from .thresholds import (
    BODY_SIZE_FLOOR,
    BODY_SIZE_SHARE,
    REJOIN_HEADED_REACH,
    REJOIN_LARGER,
    REJOIN_MIN_PAGES,
    REJOIN_REACH,
    REJOIN_TITLE_WORDS,
    SAME_SIZE,
    SAME_SIZE_TIGHT,
)


def rejoin(pages: list[tuple[PageLines, list[Unit]]], body: float) -> list[tuple[PageLines, list[Unit]]]:
    """Band lines that are the body's own go back to it: a heading that opens a page (a title, a
    section), and lines in the body's size that read on from the body, such as a column's first
    lines below a header or a section starting low on the page.

    Only lines that appear on no other page's band (a running header set like a heading must not
    head sections), that are not page numbers or furniture by their content, and, unless they are a
    heading at the page's top, that a chain of close lines links to the body.
    """
    seen: Counter[str] = Counter()
    smallest: dict[str, float] = {}  # the size a recurring band line is set in on its pages
    where: dict[str, list[int]] = {}  # the pages a band line is on
    for placed, _ in pages:
        keys: dict[str, float] = {}
        for band, lines in placed.margin:
            if band in ("top", "bottom"):
                key = _band_key(lines)
                keys[key] = min(keys.get(key, lines[0].size), lines[0].size)
        for key, size in keys.items():
            seen[key] += 1
            smallest[key] = min(smallest.get(key, size), size)
            where.setdefault(key, []).append(placed.number)
    out = []
    for placed, tables in pages:
        keep, back, heads = [], [], []
        headed: set[int] = set()  # id() of the groups set like a heading
        for group in placed.margin:
            band, lines = group
            key = _band_key(lines)
            # A chapter's title set large atop its first page, its running header small on the
            # pages after: the title appears once in its type.
            once = band in ("top", "bottom") and (seen[key] == 1 or lines[0].size >= REJOIN_LARGER * smallest[key])
            # A statement's title atop its page and atop the next, where the statement goes on: a
            # running header recurs on more pages than two (or, in a short document, on two).
            again = (
                band == "top"
                and seen[key] == 2
                and len(pages) >= REJOIN_MIN_PAGES
                and _next_pages(where[key])
                and len(key.split()) >= REJOIN_TITLE_WORDS  # a title, not a column's head ("Total")
            )
            # An exhibit stamp in the body's size ("EXHIBIT A" in capitals) is no title; an
            # exhibit's title set large is.
            stamp = STAMP.match(lines[0].text.strip()) is not None and lines[0].size <= body + SAME_SIZE_TIGHT
            if (once or again) and not stamp and heading_like(Unit("paragraph", list(lines), 0), body):
                headed.add(id(group))
            if (once or again) and band == "top" and id(group) in headed:
                heads.append(group)
            elif once and (
                _body_like(lines, body)
                or CAPTION.match(lines[0].text)
                or (band == "bottom" and id(group) in headed and not furniture_like(lines[0].text))
            ):
                back.append(group)  # a heading low on the page goes back with the text it links to
            else:
                keep.append(group)
        # A heading or a caption stands further from the text beside it than a line does.
        reach = {id(g): REJOIN_HEADED_REACH if id(g) in headed or CAPTION.match(g[1][0].text) else 2.0 for g in back}
        joined = _linked(back, placed.body + tuple(line for g in heads for line in g[1]), reach)
        joined.update(id(g) for g in heads)
        joined.update(id(g) for g in back if CAPTION.match(g[1][0].text) and _by_float(g[1], tables))
        back += heads
        if joined:
            rest = tuple(g for g in keep + back if id(g) not in joined)
            # Each group is an item of its own in the reading order: the rest of its pymupdf block
            # may lie far below (a page title set in one block with a column's first lines).
            lines = tuple(replace(line, block=-1 - k) for k, g in enumerate(back) if id(g) in joined for line in g[1])
            placed = replace(placed, body=placed.body + lines, margin=rest)
        out.append((placed, tables))
    return out


def _next_pages(numbers: list[int]) -> bool:
    return len(numbers) == 2 and numbers[1] == numbers[0] + 1


def _body_like(lines: tuple[Line, ...], body: float) -> bool:
    text = " ".join(line.text for line in lines)
    # A line that opens in lower case goes on with a sentence ("found, in the online version, at
    # http://dx.doi.org/..."): body, even where links make it look like a footer.
    reads_on = text[:1].islower() and " " in text and not text.startswith("www.")
    if is_page_number(text) or (furniture_like(text) and not reads_on):
        return False
    return all(abs(line.size - body) <= max(BODY_SIZE_FLOOR, min(SAME_SIZE, BODY_SIZE_SHARE * body)) for line in lines)


def _linked(
    groups: Sequence[tuple[str, tuple[Line, ...]]], body: tuple[Line, ...], reach: dict[int, float]
) -> set[int]:
    """id() of the groups a chain of close lines (a gap of at most `reach` line heights, two for
    text, overlapping across) links to the body."""
    joined: set[int] = set()
    if not groups:
        return joined
    # Only lines within reach of the groups can link them: a page's top and bottom, not its middle.
    tallest = max(line.height for g in groups for line in g[1]) * max(reach.values()) + 1
    spans = [
        (min(line.bbox[1] for line in g[1]) - tallest, max(line.bbox[3] for line in g[1]) + tallest) for g in groups
    ]
    anchors = [a for a in body if any(lo <= a.bbox[3] and a.bbox[1] <= hi for lo, hi in spans)]
    grew = True
    while grew:
        grew = False
        for group in groups:
            if id(group) in joined:
                continue
            if any(_close(a, line, reach[id(group)]) for line in group[1] for a in anchors):
                joined.add(id(group))
                anchors.extend(group[1])
                grew = True
    return joined


def _by_float(lines: tuple[Line, ...], floats: list[Unit]) -> bool:
    """A caption set right under or over a figure or a table (whose text is no body line to link
    it): within three of its line heights, across from it."""
    x0, y0 = min(line.bbox[0] for line in lines), min(line.bbox[1] for line in lines)
    x1, y1 = max(line.bbox[2] for line in lines), max(line.bbox[3] for line in lines)
    reach = REJOIN_REACH * max(line.height for line in lines)
    for unit in floats:
        boxes = [unit.bbox, unit.region]
        for box in (b for b in boxes if b is not None):
            if min(box[2], x1) > max(box[0], x0) and max(y0 - box[3], box[1] - y1) <= reach:
                return True
    return False


def _close(a: Line, b: Line, reach: float) -> bool:
    if min(a.bbox[2], b.bbox[2]) <= max(a.bbox[0], b.bbox[0]):
        return False
    gap = max(b.bbox[1] - a.bbox[3], a.bbox[1] - b.bbox[3])
    return gap <= reach * max(a.height, b.height)


def _band_key(lines: tuple[Line, ...]) -> str:
    return band_key(" ".join(line.text for line in lines))
