"""Reading order and paragraphs: body lines of one page become paragraph and list-item units.

Order: pymupdf blocks (and tables) are read top to bottom; where the page holds columns (clear
vertical gutters between blocks), they are read one after the other, left to right.
Paragraphs: consecutive lines stay together unless the geometry says a new one starts: a wider
line pitch than the page's usual, a first-line indent, a change of font size or weight, a list
marker, or a short line closing a sentence; in a heading's bold, a line that opens with a
subsection's number ("B.1") or a lead-in ending in ":" starts a unit of its own. Joining undoes
hyphenation at line ends.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...page_furniture import CAPTION
from .callouts import callouts
from .columns import split_columns
from .lines import RIGHT_TO_LEFT
from .model import Line, Unit
from .right_blocks import regroup
from .thresholds import (
    CAPS_LINE_LETTERS,
    DEFAULT_PITCH,
    FIRST_LINE_INDENT,
    FLUSH_SLACK,
    LEAD_IN_WORDS,
    PARAGRAPH_GUTTER,
    PARAGRAPH_PITCH_RATIO,
    PARAGRAPH_PITCH_SLACK,
    PITCH_MAX,
    SAME_LINE_GAP,
    SAME_ROW,
    SAME_SIZE,
    SENTENCE_BREAK_GAP,
    SHORT_LINE,
)

TERMINAL = tuple('.!?:;"\u201d)\u2019')
_BULLET = re.compile(
    r"^([\u2022\u25cf\u25cb\u25e6\u25aa\u25a0\u25a1\u2610\u2611\u2612\u2013\u2014\u00b7\u2023\u2043\u2219"
    r"\u27a2\u2756\u2713\u2714\u2192\u25ba\u25b6\u00bb>\ue000-\uf8ff\x80-\x9f-]+)\s*(?=\S)"
)
_NUMBERED = re.compile(r"^(\(?\d{1,3}[.)]|\(?[a-z][.)]|\([ivx]{1,5}\)|[ivx]{1,5}\.)\s+(?=\S)")
_SECTION_NUMBER = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\S")
_HEAD_NUMBER = re.compile(r"^(?:[A-Z]|\d{1,2})(?P<sub>(?:\.\d{1,2}){1,4})?\.?\s+(?=[A-Z])")
"""A heading's own number before its title: "B.1 Dataset", "2.1 Scope", "B TRAINING", "3 Method"."""
_STAMP_WORD = re.compile(
    r"(?i)(filed|received|entered|lodged|docketed|scanned|sealed|closed|(?:conformed )?copy|draft|"
    r"confidential|void|paid|approved|rejected|denied|granted)\b[\s:.,\-\u2013\u2014]*"
)
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?"
)
_DATE = re.compile(
    r"(?i)(?:on\s+|dated:?\s+)?(?:\d{1,4}\s?[/.\-]\s?\d{1,2}\s?[/.\-]\s?\d{2,4}"
    rf"|(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?{_MONTH}(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?,?\s+\d{{4}})"
    r"(?:,?\s+(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?)?"
)


def list_marker(text: str) -> tuple[str, str] | None:
    """(marker, rest) if the text opens a list item: a bullet glyph or "1." "(a)" "iv."."""
    m = _BULLET.match(text) or _NUMBERED.match(text)
    if m is None or (m.group(1) in ("-", "--") and not text[m.end() :][:1].isalpha()):
        return None
    return m.group(1), text[m.end() :]


def capitals(text: str) -> bool:
    """Set all in capitals: five letters at least (not an acronym), none lower case."""
    return text.isupper() and sum(map(str.isalpha, text)) >= CAPS_LINE_LETTERS


def section_depth(text: str) -> int:
    """Depth of a section number ("2.1 Scope" -> 2), 0 without one."""
    m = _SECTION_NUMBER.match(text)
    return m.group(1).count(".") + 1 if m else 0


def stamp_like(text: str) -> bool:
    """A filing stamp rather than a heading: fewer than two letters, a date, or a stamp word
    ("FILED", "RECEIVED") alone or followed by a date, a time or numbers."""
    text = text.strip()
    if sum(c.isalpha() for c in text) < 2 or _DATE.fullmatch(text):
        return True
    m = _STAMP_WORD.match(text)
    if m is None:
        return False
    rest = text[m.end() :]
    return not any(c.isalpha() for c in rest) or _DATE.fullmatch(rest) is not None


def reading_order(items: list[tuple[tuple[float, float, float, float], Any, int]], rtl: bool = False) -> list[Any]:
    """Items (bbox, payload, lines of text) in reading order: top to bottom, columns left to right.

    The page is cut into bands at clear horizontal gaps (no item across them). A band's gutters
    are the clear vertical gaps between its items. Bands follow one another in one section as long
    as nothing in them crosses the section's gutters; a section is read column by column, each
    column top to bottom, when two of its columns hold paragraphs of several lines (a caption or
    a form sets single lines apart on shared rows, and reads row by row). So two or three columns
    read in turn, and a title, figure or paragraph across the columns ends one section and the
    next starts below it. Columns are read left to right, or right to left on a page written
    mostly in a right-to-left script (`rtl`).
    """
    if not items:
        return []
    out: list[Any] = []
    section: list = []
    gutters: list[tuple[float, float]] = []
    for band in _bands(items):
        narrowed = _narrowed(gutters, band) if section and gutters else None
        if narrowed:
            section.extend(band)
            gutters = narrowed
            continue
        own = _gutters(band)
        if section and not gutters and not own:
            section.extend(band)  # one column goes on
            continue
        if section and not gutters and _beside(own, section) and (joined := _narrowed(own, section)):
            # Text above that sits within the new columns (beside a picture) is their start.
            section.extend(band)
            gutters = joined
            continue
        out.extend(_read(section, gutters, rtl))
        section, gutters = list(band), own
    out.extend(_read(section, gutters, rtl))
    return out


def _bands(items: list) -> list[list]:
    bands: list[list] = []
    bottom = float("-inf")
    for item in sorted(items, key=lambda it: (it[0][1], it[0][0])):
        if bands and item[0][1] < bottom:
            bands[-1].append(item)
        else:
            bands.append([item])
        bottom = max(bottom, item[0][3]) if len(bands[-1]) > 1 else item[0][3]
    return bands


def _gutters(band: list) -> list[tuple[float, float]]:
    """Clear x-ranges between the items of a band, at least PARAGRAPH_GUTTER wide."""
    gaps = []
    right = None
    for box, *_ in sorted(band, key=lambda it: it[0][0]):
        if right is not None and box[0] - right >= PARAGRAPH_GUTTER:
            gaps.append((right, box[0]))
        right = box[2] if right is None else max(right, box[2])
    return gaps


def _beside(gutters: list[tuple[float, float]], section: list) -> bool:
    """No item of the section spans the middle of a gutter: it stands in one of the columns (a
    title across both columns' first headings leaves them a sliver of their gap, no gutter)."""
    return not any(box[0] < (a + b) / 2 < box[2] for a, b in gutters for box, *_ in section)


def _narrowed(gutters: list[tuple[float, float]], band: list) -> list[tuple[float, float]] | None:
    """The gutters minus the band's items (a line reaching into a gutter narrows it); None if an
    item closes one of them (it runs across the columns)."""
    out = []
    for a, b in gutters:
        pieces = [(a, b)]
        for box, *_ in band:
            pieces = [p for x, y in pieces for p in ((x, min(y, box[0])), (max(x, box[2]), y)) if p[1] - p[0] >= 2]
        if not pieces:
            return None
        out.extend(pieces)
    return out


def _read(section: list, gutters: list[tuple[float, float]], rtl: bool) -> list[Any]:
    by_place = sorted(section, key=lambda it: (it[0][1], it[0][0]))
    if not gutters:
        return [it[1] for it in by_place]
    edges = [(a + b) / 2 for a, b in gutters]

    def column(it: tuple) -> int:
        return sum((it[0][0] + it[0][2]) / 2 > e for e in edges)

    running = {column(it) for it in section if it[2] >= 2}
    if len(running) < 2:
        return [it[1] for it in by_place]
    return [it[1] for it in sorted(by_place, key=lambda it: -column(it) if rtl else column(it))]


def page_units(lines: Sequence[Line], tables: Sequence[Unit], page: int) -> list[Unit]:
    """Body lines and tables of one page as paragraph, list-item and table units, in reading order."""
    rtl = right_to_left(lines)
    grouped = callouts(lines)
    apart = {id(line) for group in grouped for line in group}
    blocks: dict[int, list[Line]] = {}
    for line in lines:
        if id(line) not in apart:
            blocks.setdefault(line.block, []).append(line)
    runs = regroup(list(blocks.values())) if rtl and len(blocks) > 1 else blocks.values()
    items: list[tuple[tuple[float, float, float, float], Any, int]] = [
        (box_of(run), run, len(run)) for ls in runs for run in split_columns(ls, rtl)
    ]
    items += [(box_of(group), Unit("paragraph", group, page), len(group)) for group in grouped]
    items += [(t.bbox, t, len(t.rows or ())) for t in tables if t.bbox is not None]
    ordered: list[Line] = []
    units: list[Unit] = []
    pitch = _usual_pitch(lines)
    for payload in reading_order(items, rtl):
        if isinstance(payload, Unit):
            units.extend(_paragraphs(ordered, page, pitch, rtl))
            ordered = []
            units.append(payload)
        else:
            ordered.extend(payload)
    units.extend(_paragraphs(ordered, page, pitch, rtl))
    return _float_past(units)


def _float_past(units: list[Unit]) -> list[Unit]:
    """A paragraph cut by a figure, a table or a caption set between its lines (at the top of the
    next column, say) reads on after them: its two parts join, the floats follow it."""
    out: list[Unit] = []
    i = 0
    while i < len(units):
        unit = units[i]
        j = i + 1
        while j < len(units) and _floats(units[j]):
            j += 1
        after = units[j] if j < len(units) else None
        if (
            j > i + 1
            and after is not None
            and unit.kind == "paragraph"
            and after.kind == "paragraph"
            and abs(unit.lines[-1].size - after.lines[0].size) <= SAME_SIZE
            and continues(unit.lines[-1].text, after.lines[0].text)
        ):
            unit.lines.extend(after.lines)
            out.append(unit)
            out.extend(units[i + 1 : j])
            i = j + 1
            continue
        out.append(unit)
        i += 1
    return out


def _floats(unit: Unit) -> bool:
    return unit.kind in ("figure", "table") or (unit.kind == "paragraph" and CAPTION.match(unit.text) is not None)


def right_to_left(lines: Sequence[Line]) -> bool:
    """Most of the page's text is in a right-to-left script (Arabic, Hebrew, Persian...)."""
    if "".join([line.text for line in lines]).isascii():  # one C pass, not a step per line
        return False
    total = rtl = 0
    for line in lines:
        total += len(line.text) - line.text.count(" ")
        if not line.text.isascii():
            rtl += len(RIGHT_TO_LEFT.findall(line.text))
    return rtl * 2 > total


def box_of(lines: Sequence[Line]) -> tuple[float, float, float, float]:
    """The box around the lines."""
    if len(lines) == 1:
        return lines[0].bbox
    x0, y0, x1, y1 = zip(*(line.bbox for line in lines))
    return (min(x0), min(y0), max(x1), max(y1))


def _usual_pitch(lines: Sequence[Line]) -> float:
    """Median baseline-to-baseline distance over font size between stacked lines of the page."""
    ratios = []
    for a, b in zip(lines, lines[1:]):
        pitch = b.bbox[3] - a.bbox[3]
        if abs(a.size - b.size) <= SAME_SIZE and 0 < pitch < PITCH_MAX * a.size and a.size > 0:
            ratios.append(pitch / a.size)
    return statistics.median(ratios) if ratios else DEFAULT_PITCH


def _paragraphs(lines: list[Line], page: int, pitch: float, rtl: bool = False) -> list[Unit]:
    units: list[Unit] = []
    current: Unit | None = None
    across = (0.0, 0.0)  # the current unit's least left and greatest right edge, kept as it grows
    for line in lines:
        marker = list_marker(line.text)
        if current is None or marker or _breaks(current, line, pitch, across, rtl):
            current = Unit("list_item" if marker else "paragraph", [line], page)
            units.append(current)
            across = (line.bbox[0], line.bbox[2])
        else:
            current.lines.append(line)
            across = (min(across[0], line.bbox[0]), max(across[1], line.bbox[2]))
    return units


def _own_step(unit: Unit) -> float:
    """The median baseline step between the unit's stacked lines (infinite for a single line)."""
    least = SAME_LINE_GAP * unit.lines[-1].size  # not the rest of one visual line set as another block
    steps = [b.bbox[3] - a.bbox[3] for a, b in zip(unit.lines, unit.lines[1:])]
    stacked = [s for s in steps if s > least]
    return statistics.median(stacked) if stacked else math.inf


def _mirrored(line: Line) -> Line:
    """The line as a mirror shows it: its right edge counted from the page's left as its left."""
    x0, y0, x1, y1 = line.bbox
    return replace(line, bbox=(-x1, y0, -x0, y1))


def _next_numbered_heading(unit: Unit, b: Line) -> bool:
    """b, in a heading's bold, opens with a section number after a bold line that does not run on
    into it: the next heading ("B TRAINING DETAILS / ON TWO TASKS" then "B.1 Dataset
    Construction"). The number is one of a subsection ("B.1"), or the unit opens with one too
    (two numbered headings stacked): a title wrapped before a figure ("Top / 10 Risks") is neither."""
    a = unit.lines[-1]
    if not _wholly_bold(a, b) or continues(a.text, b.text):
        return False
    m = _HEAD_NUMBER.match(b.text)
    return m is not None and (m.group("sub") is not None or _HEAD_NUMBER.match(unit.lines[0].text) is not None)


def _wholly_bold(a: Line, b: Line) -> bool:
    return a.bold and b.bold and not a.mixed and not b.mixed


def _lead_in_after_title(unit: Unit, b: Line) -> bool:
    """b, bold like the line over it and flush with it, is a lead-in of a few words ending in ":"
    ("Auto-lock:") under a bold line of words that does not run on into it ("Lock Your Screen"): a
    lead-in labels the text after it, so the line over it is a heading of its own, not the start
    of one title."""
    a = unit.lines[-1]
    if not _wholly_bold(a, b) or continues(a.text, b.text):
        return False
    text = b.text.rstrip()
    words = sum(c.isalpha() for c in a.text) > 2 * sum(c.isdigit() for c in a.text)  # not a year's label
    # Flush with the line over it: a table's label indented under its group's is a row of the table.
    flush = abs(b.bbox[0] - a.bbox[0]) <= FLUSH_SLACK * a.size
    return (
        text.endswith(":")
        and len(text.split()) <= LEAD_IN_WORDS
        and words
        and flush
        and not a.text.rstrip().endswith(TERMINAL)
    )


def continues(prev: str, nxt: str) -> bool:
    """Text that reads on: no sentence end before, a lower-case word or a hyphen break after."""
    prev = prev.rstrip()
    return bool(prev) and (prev.endswith(("-", "\u00ad", ",")) or (not prev.endswith(TERMINAL) and nxt[:1].islower()))


def _breaks(unit: Unit, b: Line, pitch: float, across: tuple[float, float], rtl: bool = False) -> bool:
    """b opens a new paragraph after the unit, whose lines span `across` (least left, greatest
    right edge: kept by the caller, not found again over all its lines at each line). On a
    right-to-left page lines start at the right: an indent, a short line and the next column are
    mirrored."""
    a = unit.lines[-1]
    if rtl:  # the unit's own lines are mirrored below, where their edges count
        a, b = _mirrored(a), _mirrored(b)
    if a.rotated or b.rotated or abs(a.size - b.size) > SAME_SIZE:
        return True
    if a.bold != b.bold and not a.mixed:  # a bold lead-in that runs on is its paragraph's start
        return True
    # A heading in bold set close to a paragraph with words in bold ("Go to **Settings**"): a line
    # wholly bold against one partly bold, where no sentence runs across.
    if a.bold and not a.mixed and b.mixed and not continues(a.text, b.text):
        return True
    if b.bold and not b.mixed and a.mixed and a.text.rstrip().endswith(TERMINAL):
        return True
    if _wholly_bold(a, b) and (_next_numbered_heading(unit, b) or _lead_in_after_title(unit, b)):
        return True
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    if overlap > SAME_ROW * min(a.height, b.height) and -1 <= b.bbox[0] - a.bbox[2] < 2 * a.size:
        return False  # the rest of the same visual line, set as another pymupdf block
    if b.bbox[1] < a.bbox[1] - 2 or b.bbox[0] > a.bbox[2]:  # up the page or beside: a new column
        return not continues(a.text, b.text)
    step = b.bbox[3] - a.bbox[3]
    if step > (pitch * PARAGRAPH_PITCH_RATIO + PARAGRAPH_PITCH_SLACK) * a.size:
        return True
    # Space after a paragraph set smaller than a blank line (3 pt on a 12 pt pitch): a step clearly
    # over the one between the paragraph's own lines, after a sentence's end, before a word that
    # opens one. Only a paragraph of 2+ lines shows its own step.
    if (
        a.text.endswith(TERMINAL)
        and not b.text[:1].islower()
        and step > _own_step(unit) + max(2.0, SENTENCE_BREAK_GAP * a.size)
    ):
        return True
    if len(unit.lines) == 1 and ((capitals(a.text) and not capitals(b.text)) or (a.italic and not b.italic)):
        return not continues(a.text, b.text)  # a heading in capitals or italics set close above its text
    if unit.kind == "paragraph" and b.bbox[0] > a.bbox[0] + FIRST_LINE_INDENT * a.size and len(unit.lines) > 1:
        return True  # a first-line indent opens the next paragraph
    if unit.kind == "paragraph" and len(unit.lines) == 1 and b.bbox[0] > a.bbox[0] + FIRST_LINE_INDENT * a.size:
        return not continues(a.text, b.text) and a.text.endswith(TERMINAL)
    if rtl:  # mirrored: a line's right edge is its left one negated
        right = max(-across[0], b.bbox[2])
        left = min(-across[1], b.bbox[0])
    else:
        right = max(across[1], b.bbox[2])
        left = min(across[0], b.bbox[0])
    short = a.bbox[2] < right - SHORT_LINE * (right - left)
    return short and a.text.endswith(TERMINAL) and not b.text[:1].islower()
