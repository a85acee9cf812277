"""Which units of a PDF are headings, and at which level.

Kinds of evidence, combined rather than one switching the others off:

- the type: a short unit set larger than the body, or all bold; at the body's own size, a unit
  that opens with a section number ("2.1", "IV.", "A.") and is set apart in bold, italic or
  capitals, and a short line all in capitals ("I. INTRODUCTION"). Levels rank the sizes, deepened by
  the section number's depth; at one size a labelled series ("PART II", "Item 5.":
  `section_labels`) ranks above the headings it holds.
- the outline (`get_toc`): an entry names a heading on its page (numbering and case aside: the entry
  "Introduction" is the printed "I. INTRODUCTION") and gives its level. Units the type marks but the
  outline lacks (the title, "Abstract") stay headings, at the level of the outline entries set in
  the same type. A unit larger than every entry and before the first of them (a headline) heads
  the outline's chapters.
- a series: in plain type at the body's size, a label and its title alone ("Item 1A. Risk
  Factors.", a 10-Q's items) is a heading when its label numbers two or more of them; an item
  whose title closes its line over the answer's ("Item 3. ... Securities." / "None.") is split
  from it, and items answered so are no contents page's entries.

Ruled out whatever type it is set in: a clerk's stamp ("FILED", a date), an author line (three or
more commas), a lead-in ending in ":", text that opens in lower case or with punctuation (the tail
of a line), e-mail addresses and links, a signature block's lines ("By: /s/", "Date:", a signer's
name and office), a head spanning a table's columns of figures ("Increase/(Decrease)" over the
table's right), one of a row of pieces in its own type (a paper's authors side by side). Pieces
of the row in the column before, a gutter and the line's own prose between, are no row partners.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import replace

from ...page_furniture import CAPTION
from .lines import side_by_side
from .model import Line, Unit
from .paragraphs import box_of, capitals, right_to_left, section_depth, stamp_like
from .section_labels import (
    contents_entries,
    join_labels,
    label_of,
    numbered_series,
    opens_with_label,
    plain_item,
    series_tiers,
    split_answers,
)
from .statement_titles import PERIOD, title_periods
from .thresholds import (
    ALIGNED_MIDDLES,
    BODY_SIZE_HEADING_CHARS,
    BODY_SIZE_HEADING_WORDS,
    CAPITALS_HEADING_WORDS,
    CENTRED_INDENT,
    CENTRED_SLACK,
    COLUMN_HEAD_INDENT,
    COLUMN_HEAD_OFF_CENTRE,
    COLUMN_HEAD_WORDS,
    COLUMN_HEADS_REACH,
    FULL_LINE,
    GRID_UNDER_HEADS,
    GUTTER_CHECK_REACH,
    HEADING_BOLD_WORDS,
    HEADING_LINE_WORDS,
    HEADING_MAX_CHARS,
    HEADING_MAX_COMMAS,
    HEADING_MAX_LINES,
    HEADING_SENTENCE_WORDS,
    HEADING_STRONG_RATIO,
    ITALIC_TITLE_LETTERS,
    ITALIC_TITLE_WORDS,
    LARGER_THAN_BODY,
    MAX_HEADING_LEVEL,
    NUMBERED_CAPS_WORDS,
    OVER_TABLE_OVERLAP,
    OVER_TABLE_REACH,
    PROSE_LINE_CHARS,
    PROSE_NEAR_REACH,
    ROW_CELLS_REACH,
    SAME_ROW,
    SAME_ROW_CLOSE,
    SAME_SIZE,
    SAME_SIZE_TIGHT,
    SHORT_CELL_CHARS,
    TEXT_AREA_MIN_LINES,
    TOC_MATCH_MAX_LINES,
    UNDER_LINE_OVERLAP,
    UNDER_LINE_REACH,
)

_NUMBERED = re.compile(
    r"^(?:\d{1,2}(?:\.\d{1,2}){0,4}\.?|[IVXLC]{1,6}\.|[A-H]\.|\(\d{1,2}\)|\([a-h]\))\s+(?P<title>\S.*)$"
)
_LEAD_NUMBER = re.compile(
    r"(?i)^(?:(?:chapter|section|part|appendix|annex)\s+)?(?:\d{1,3}(?:\.\d{1,3})*|[ivxlc]{1,6}|[a-h])[.):]?\s+"
)
_CONTENTS_ENTRY = re.compile(r"\S+\s+\S+\s+\d{1,3}$")
"""Words, then a page number (up to three digits: a year is four) to end the line."""
_DAY_ENDS = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}$")
"""A day after its month ends the line: a date ("Years ended December 31" under a statement's title)."""
_NOT_A_TITLE = re.compile(r"@|https?://|www\.|\bet al\b|^\d+:")  # addresses, links, algorithm lines
# A filing's signature block: "By: /s/ ...", "Date: ...", and a signer's name with an initial or a
# suffix followed by the office held ("Robert J. Decker, Jr. Senior Vice President and Controller").
_SIGNATURE = re.compile(
    r"/s/|^(?:By|Date|Name|Title|Its)\s*:\s*\S"
    r"|^(?=(?:\S+\s+){0,3}?(?:[A-Z]\.\s|(?:Jr|Sr)\b))(?:[A-Z][\w'\u2019-]*\.?,?\s+|[A-Z]\.\s+){2,5}"
    r"(?:[-\u2013\u2014]\s+)?(?:(?:Senior|Executive|Vice|Chief|Co-|Group|Deputy|Assistant)\s*)*"
    r"(?:President|Chair(?:man|woman)?|Director|Controller|Treasurer|Secretary|Officer|Counsel)\b"
)
_SIGNER = re.compile(
    r"^(?=.*(?:\b[A-Z]\.\s|\b(?:Jr|Sr)\.?$))(?:[A-Z][\w'\u2019-]*\.?,?\s+|[A-Z]\.\s+){1,4}"
    r"[A-Z][\w'\u2019-]*\.?$"
)
_FORMULA = re.compile(r"[=<>\[\]{}\\|^_~\u2190-\u21ff\u2200-\u22ff]")
"""Signs of mathematics (relations, brackets, arrows, operators): an equation set in italics."""
_BYLINE = re.compile(r"(?i)^(?:by|from|photo(?:graph)?s?|source|courtesy|(?:attorneys?|counsel) for)\b")
"""Who wrote it, took it or signs for whom: "BY Jacob Poushter and ...", "Attorneys for ..."."""
_ROLE = re.compile(
    r"\b(?:President|Chair(?:man|woman)?|Director|Controller|Treasurer|Secretary|Officer|Counsel|Manager"
    r"|Partner|Editor|Coordinator|Specialist|Analyst|Associate|Advis[eo]r|Professor|Fellow|Attorney)s?\b"
)
_NAMED_OFFICE = re.compile(r"^(?:[A-Z][\w'\u2019.-]*\s+){1,3}[A-Z][\w'\u2019-]*,\s")
"""A person's name and a comma ("Robert A. Kotick, ..."): a list of officers, when an office follows."""
_OFFICE = re.compile(r"\b(?:President|Chair(?:man|woman)?|Director|Controller|Treasurer|Secretary|Officer|Counsel)\b")


def heading_levels(units: Iterable[Unit], toc: list, body: float) -> dict[int, int]:
    """Heading level by id() of the unit."""
    placed = list(units)
    alone = {id(u) for i, u in enumerate(placed) if _italics_alone(placed, i, body)}
    units = [u for u in placed if u.kind != "table"]
    found = [
        u
        for i, u in enumerate(units)
        if heading_like(u, body) and not _office_of_signer(units, i) and id(u) not in alone
    ]
    found = _without_column_heads(found, placed, body)
    # Items in plain type are headings as members of a series ("Item 1.", "Item 1A." ...), not
    # on a contents page: one alone is a line of prose that opens with a reference.
    plain = [u for u in found if plain_item(u) and not _set_apart(u, body)]
    series = numbered_series(found)
    lone = {id(u) for u in plain if label_of(u.text) not in series}
    entries = contents_entries(units, found, plain) | lone
    found = [u for u in found if id(u) not in entries]
    levels = _font_levels(found, body, _text_area(units))
    if len(toc) < 2:
        return levels
    outline = _toc_levels(units, toc)
    if not outline:
        return levels
    styles: dict[tuple, list[int]] = {}
    for unit in units:
        if id(unit) in outline:
            styles.setdefault(_style(unit), []).append(outline[id(unit)])
    top = max((_style(u)[0] for u in units if id(u) in outline), default=0.0)
    deepest = max(outline.values())
    # One unit set larger than any entry and before the first of them: the document's title (a
    # press release's headline, a paper's title), over the outline's chapters rather than a chapter
    # with nothing in it. Several (a cover page's lines) stay beside the chapters, as before: each
    # would otherwise hold the next.
    first = next(i for i, u in enumerate(units) if id(u) in outline)
    titles = {id(u) for u in units[:first] if id(u) in set(map(id, found)) and _style(u)[0] > top}
    if len(titles) != 1:
        titles = set()
    shift = 1 if titles else 0
    levels = {k: min(MAX_HEADING_LEVEL, v + shift) for k, v in outline.items()}
    for unit in found:
        if id(unit) in outline:
            continue
        same = styles.get(_style(unit))
        if id(unit) in titles:
            levels[id(unit)] = 1
        elif same:
            levels[id(unit)] = min(same) + shift
        elif _style(unit)[0] > top:
            levels[id(unit)] = 1 + shift  # larger than any entry, further on: beside the chapters
        else:
            levels[id(unit)] = min(MAX_HEADING_LEVEL, deepest + 1 + shift)
    return levels


def _italics_alone(units: list[Unit], i: int, body: float) -> bool:
    """A line that only its italics make a heading, with no upright text or table right under it
    from its left edge (or under the subheading right under it): a map's place name, a caption's
    line, a teaser beside a figure, not a subheading."""
    unit = units[i]
    if unit.kind == "table" or not _italic_line(unit, body):
        return False
    line = unit.lines[0]
    after = units[i + 1] if i + 1 < len(units) else None
    if after is not None and after.kind != "table" and _italic_line(after, body) and _under(line, after):
        line, after = after.lines[0], units[i + 2] if i + 2 < len(units) else None
    if after is None or after.page != unit.page or after.kind not in ("paragraph", "list_item", "table"):
        return True
    if not _under(line, after):
        return True
    if after.kind == "table":
        return False
    # As wide as the text under it, the line is that text's first, set in italics (a paper's
    # "We introduce the Question-guided Multi-hop" above "Fact-Checking (QACHECK) system, which").
    widest = max(ln.bbox[2] - ln.bbox[0] for ln in after.lines)
    full = len(after.lines) > 1 and line.bbox[2] - line.bbox[0] >= FULL_LINE * widest
    return after.lines[0].italic or full


def _italic_line(unit: Unit, body: float) -> bool:
    """One line in italics at the body's size, not a heading by its number or capitals."""
    if unit.kind == "table" or len(unit.lines) != 1:
        return False
    line = unit.lines[0]
    if not line.italic or line.bold or line.size >= body + LARGER_THAN_BODY:
        return False
    return not (_NUMBERED.match(unit.text) or capitals(unit.text))


def _under(line: Line, unit: Unit) -> bool:
    """The unit starts right under the line, from about its left edge (its first line's, indented
    or not, or its box's)."""
    if unit.bbox is None and not unit.lines:
        return False
    box = unit.bbox if unit.bbox is not None else box_of(unit.lines)
    lefts = [box[0], unit.lines[0].bbox[0]] if unit.lines else [box[0]]
    below = -UNDER_LINE_OVERLAP * line.height <= box[1] - line.bbox[3] <= UNDER_LINE_REACH * line.height
    return below and any(abs(x - line.bbox[0]) <= 2 * line.size for x in lefts)


def _without_column_heads(found: list[Unit], placed: list[Unit], body: float) -> list[Unit]:
    """found without the heads of a table's columns (`_column_head`) that stand alone on their
    row: a statement's title block sets the company at the right of the title's row, over the
    table's figures, beside the title."""
    grids: dict[int, list[tuple[float, float, float, float]]] = {}
    for t in placed:
        if t.kind == "table" and t.bbox is not None:
            grids.setdefault(t.page, []).append(t.bbox)
    heads = [u for u in found if u.page in grids and _column_head(u, grids[u.page], body)]
    if not heads:
        return found
    by_page: dict[int, list[Unit]] = {}
    for u in found:
        by_page.setdefault(u.page, []).append(u)
    gone = {
        id(u)
        for u in heads
        if not any(o is not u and side_by_side(o.lines[0], u.lines[0], SAME_ROW) for o in by_page[u.page])
    }
    return [u for u in found if id(u) not in gone]


def _column_head(unit: Unit, grids: Iterable[tuple[float, float, float, float]], body: float) -> bool:
    """A short line in the body's size right over a table, off to the side over its columns of
    figures rather than over the whole table or from the edge its lines start at (the left; the
    right in a right-to-left script): a head spanning columns ("Fiscal Year" over "2022 2021",
    "Increase/(Decrease)"), not a title."""
    if len(unit.lines) != 1 or len(unit.text.split()) > COLUMN_HEAD_WORDS:
        return False
    line = unit.lines[0]
    if line.size >= body + LARGER_THAN_BODY:
        return False
    x0, _, x1, y1 = line.bbox
    rtl = right_to_left(unit.lines)
    for g in grids:
        width = g[2] - g[0]
        over = (
            -OVER_TABLE_OVERLAP * line.size <= g[1] - y1 <= OVER_TABLE_REACH * line.size
            and g[0] - 2 <= x0
            and x1 <= g[2] + 2
        )
        indent = g[2] - x1 if rtl else x0 - g[0]
        if (
            over
            and indent >= COLUMN_HEAD_INDENT * width
            and abs((x0 + x1) - (g[0] + g[2])) / 2 >= COLUMN_HEAD_OFF_CENTRE * width
        ):
            return True
    return False


def _office_of_signer(units: list[Unit], i: int) -> bool:
    """The office under a signer's name ("Senior Vice President and Controller"): part of the
    signature block, however it is set."""
    unit = units[i]
    if i == 0 or not _OFFICE.search(unit.text) or _NUMBERED.match(unit.text):
        return False
    above = units[i - 1]
    return above.page == unit.page and bool(_SIGNER.match(above.text) or _SIGNATURE.search(above.text))


def _style(unit: Unit) -> tuple[float, bool, bool]:
    line = unit.lines[0]
    return (round(line.size * 2) / 2, line.bold, line.italic)


def heading_like(unit: Unit, body: float) -> bool:
    if unit.kind not in ("paragraph", "list_item") or len(unit.lines) > HEADING_MAX_LINES or unit.in_figure:
        return False
    first = unit.lines[0]
    size = first.size
    if size < body - SAME_SIZE:
        return False
    bold = all(line.bold and not line.mixed for line in unit.lines)
    bigger = size >= body + LARGER_THAN_BODY
    if not (bigger or bold) and not _body_size_heading(unit) and not plain_item(unit):
        return False  # cheap test first: most units are body text
    if any(abs(line.size - size) > SAME_SIZE_TIGHT for line in unit.lines):
        return False
    text = unit.text
    words = len(text.split())
    if len(text) > HEADING_MAX_CHARS or text.endswith((",", ";", ":")) or not _opens_like_a_title(text):
        return False
    if text.startswith("(") and text.endswith(")"):
        return False  # "(in millions, except per share data)", "(Unaudited)": a note on what follows
    if text.count(",") >= HEADING_MAX_COMMAS or _NOT_A_TITLE.search(text):
        return False  # an author or affiliation line, an address
    if _SIGNATURE.search(text) and not _NUMBERED.match(text):
        return False  # who signed, and when: a signature block, not a section
    if CAPTION.match(text) or (_CONTENTS_ENTRY.search(text) and not _DAY_ENDS.search(text)):
        return False  # a caption names a figure; "2 Workout monitoring 14" is a contents entry
    if unit.kind == "list_item" and not (section_depth(text) or _NUMBERED.match(text)):
        return False
    labelled = opens_with_label(text)  # "Item 5. Market for Registrant's Common Equity, ... Securities."
    if text.endswith(".") and words > HEADING_SENTENCE_WORDS and not labelled:
        return False
    if unit.shares_row and (unit.row_peers or not (bigger and size >= HEADING_STRONG_RATIO * body)):
        # A table's row label or column head, set in bold; however large, one of a row of pieces
        # in its own type (a paper's authors side by side, a table's heads).
        return False
    if not (bigger or bold):
        return not stamp_like(text)
    # Bigger alone is not enough (author lines run a point above the body): bold or much bigger.
    strong = bigger and (bold or size >= HEADING_STRONG_RATIO * body)
    # A title block in bold: a statement's "3M Company and Subsidiaries / Consolidated Statement of
    # Cash Flows / Years ended December 31", each line short.
    # Its last line may name the period in full ("For the Years ended December 31, 2022, 2021 and 2020").
    block = bold and all(
        len(line.text.split()) <= HEADING_LINE_WORDS or (k and k == len(unit.lines) - 1 and PERIOD.search(line.text))
        for k, line in enumerate(unit.lines)
    )
    if not (strong or (bold and (words <= HEADING_BOLD_WORDS or labelled)) or block or _body_size_heading(unit)):
        return False
    return not stamp_like(text)  # a bold "FILED" or date stamp is set like a heading but heads nothing


def _set_apart(unit: Unit, body: float) -> bool:
    """Set apart by its type: larger than the body, bold, or a heading at the body's size by its
    number and type."""
    line = unit.lines[0]
    return line.size >= body + LARGER_THAN_BODY or all(ln.bold for ln in unit.lines) or _body_size_heading(unit)


def _body_size_heading(unit: Unit) -> bool:
    """A one-line unit at the body's size that is a heading by its number and its type; or two
    lines, numbered and in capitals ("4.3.2 AN AUXILIARY CONFIDENCE LOSS CAN ... / ON NLP TASKS")."""
    if len(unit.lines) == 2:
        text = unit.text
        m = _NUMBERED.match(text)
        return (
            m is not None
            and capitals(m.group("title"))
            and len(text.split()) <= NUMBERED_CAPS_WORDS
            and not text.endswith((".", ",", ";", ":"))
        )
    if len(unit.lines) != 1:
        return False
    line: Line = unit.lines[0]
    text = line.text
    if len(text) > BODY_SIZE_HEADING_CHARS or len(text.split()) > BODY_SIZE_HEADING_WORDS:
        return False
    m = _NUMBERED.match(text)
    if m is not None:
        title = m.group("title")
        if not title[:1].isupper() or title.endswith((".", ",", ";", ":")):
            return False
        return line.bold or line.italic or capitals(title) or section_depth(text) >= 2
    return (capitals(text) and len(text.split()) <= CAPITALS_HEADING_WORDS) or (
        line.italic and not line.bold and _italic_title(text)
    )


def _italic_title(text: str) -> bool:
    """A line in italics at the body's size, alone above upright text: a filing's or report's
    subheading ("Market Information", "Critical Audit Matter Description"), when it reads as a
    title: a few words, mostly letters, no formula, no end of a sentence or clause, no person
    named with an office ("Robert A. Kotick, Chief Executive Officer")."""
    if (
        len(text.split()) > ITALIC_TITLE_WORDS
        or text.endswith((".", ",", ";", ":", "!", "?"))
        or not text[:1].isupper()
    ):
        return False
    if _BYLINE.match(text):
        return False
    letters = sum(c.isalpha() for c in text)
    if letters < ITALIC_TITLE_LETTERS * len(text.replace(" ", "")) or _FORMULA.search(text):
        return False
    return not (_NAMED_OFFICE.match(text) and _ROLE.search(text))


def _opens_like_a_title(text: str) -> bool:
    first = text.lstrip()[:1]
    return bool(first) and not first.islower() and first not in ",;:.)]}"


def _font_levels(found: list[Unit], body: float, area: tuple[float, float] | None) -> dict[int, int]:
    """Level from size rank (larger is higher); at one size, the members of a labelled series
    ("PART I", "Item 1.") above the headings they hold, then centred above flush left (a
    statement's centred title over its left-set "Assets"), then upright above italics alone (a
    filing's italic subheadings under its bold ones); deepened by numbering."""
    tiers = series_tiers(found)
    below = max(tiers.values(), default=-1) + 1

    def rank_key(unit: Unit) -> tuple[float, int, bool, bool]:
        # A series' members (and the headings in their type after them) share one level, however
        # each is set on its line; other headings of a size rank centred above flush left, and
        # upright above italics alone.
        first = unit.lines[0]
        tier = tiers.get(id(unit))
        return (
            round(first.size * 2) / 2,
            -(below if tier is None else tier),
            tier is None and _centred(unit, area),
            tier is not None or first.bold or not first.italic,
        )

    keys = sorted({rank_key(u) for u in found}, reverse=True)
    levels = {}
    for unit in found:
        rank = keys.index(rank_key(unit)) + 1
        levels[id(unit)] = max(rank, section_depth(unit.text))  # nests by rank; the block's level is capped
    return levels


def _text_area(units: list[Unit]) -> tuple[float, float] | None:
    """Left and right edges of the body's text: where most lines of paragraphs begin and end."""
    lefts = sorted(line.bbox[0] for u in units if u.kind == "paragraph" and len(u.lines) > 1 for line in u.lines)
    rights = sorted(line.bbox[2] for u in units if u.kind == "paragraph" and len(u.lines) > 1 for line in u.lines)
    if len(lefts) < TEXT_AREA_MIN_LINES:
        return None
    return lefts[len(lefts) // 10], rights[len(rights) * 9 // 10]


def _centred(unit: Unit, area: tuple[float, float] | None) -> bool:
    """Set centred over the text: its middle on the area's, well in from the left edge."""
    if area is None:
        return False
    left, right = area
    x0, _, x1, _ = box_of(unit.lines)
    width = right - left
    return (
        width > 0
        and abs((x0 + x1) / 2 - (left + right) / 2) <= CENTRED_SLACK * width
        and x0 >= left + CENTRED_INDENT * width
    )


def _toc_levels(units: list[Unit], toc: list) -> dict[int, int]:
    """Level by id() of the unit whose text opens with a bookmark's title on its page (or the page
    before or after: outlines often point a page off)."""
    levels: dict[int, int] = {}
    by_page: dict[int, list[Unit]] = {}
    for unit in units:
        by_page.setdefault(unit.page, []).append(unit)
    for level, title, page in toc:
        key = title_key(title)
        if not key:
            continue
        for near in (page, page + 1, page - 1):
            match = next(
                (
                    u
                    for u in by_page.get(near, ())
                    if id(u) not in levels and len(u.lines) <= TOC_MATCH_MAX_LINES and title_key(u.text).startswith(key)
                ),
                None,
            )
            if match is not None:
                levels[id(match)] = min(MAX_HEADING_LEVEL, max(1, level))
                break
    return levels


def title_key(text: str) -> str:
    """A heading's words without its number, case or punctuation, to match outline and page."""
    text = _LEAD_NUMBER.sub("", text.strip(), count=1)
    return "".join(c for c in text.lower() if c.isalnum())


def mark_units(units: list[Unit], tables: list[Unit], lines: tuple[Line, ...]) -> list[Unit]:
    """Mark the short units that can be no heading, whatever their type: those set inside a figure
    (its title, a legend in bold), and those sharing their row with other text (a row label or a
    column head of a table drawn without rules: "Total", "At December 31, 2021")."""
    units = title_periods(split_answers(join_labels(units)), lines)
    regions = [t.region for t in tables if t.kind == "figure" and t.region is not None]
    grids = [t.bbox for t in tables if t.kind == "table" and t.bbox is not None]
    rows = sorted(lines, key=lambda ln: ln.bbox[1])
    tops = [ln.bbox[1] for ln in rows]
    out = []
    for unit in units:
        if unit.kind not in ("paragraph", "list_item") or len(unit.lines) > HEADING_MAX_LINES:
            out.append(unit)
            continue
        x0, y0, x1, y1 = box_of(unit.lines)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        in_figure = any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in regions)
        shares_row, row_peers = _row_marks(unit, rows, tops, grids)
        marked = in_figure or shares_row
        out.append(replace(unit, in_figure=in_figure, shares_row=shares_row, row_peers=row_peers) if marked else unit)
    return out


def _row_marks(
    unit: Unit, rows: list[Line], tops: list[float], grids: list[tuple[float, float, float, float]]
) -> tuple[bool, bool]:
    """Whether a line of the unit shares its row with other text, and whether a piece beside it
    is in its own type (words rather than a number split off its title: "3.")."""
    own = {id(line) for line in (*unit.lines, *unit.joined)}  # the page's lines that are the unit's
    shares_row = row_peers = False
    for line in unit.lines:
        start = bisect.bisect_left(tops, line.bbox[1] - ROW_CELLS_REACH * line.height)
        # Cells beside it (a figure, or two more of them), not a line of the next column of prose.
        cells = [
            o
            for o in rows[start : bisect.bisect_right(tops, line.bbox[3])]
            if id(o) not in own
            and len(o.text) <= SHORT_CELL_CHARS
            and side_by_side(line, o, SAME_ROW)
            and not _columns_apart(line, o, rows, tops)
        ]
        cells = _in_its_column(line, cells, rows, tops) if cells else cells
        if (
            len(cells) >= 2
            or any(any(c.isdigit() for c in o.text) for o in cells)
            or (len(cells) == 1 and _heads_columns(line, cells[0], rows, tops, own, grids))
        ):
            shares_row = True
            row_peers = row_peers or any(
                abs(o.size - line.size) <= SAME_SIZE_TIGHT
                and o.bold == line.bold
                and not any(c.isdigit() for c in o.text)
                for o in cells
            )
    return shares_row, row_peers


def _heads_columns(
    a: Line, b: Line, rows: list[Line], tops: list[float], own: set[int], grids: list[tuple[float, float, float, float]]
) -> bool:
    """a and b head two columns of short cells: right under them, within a few line heights, two
    or more rows each hold a short item under a and another under b (a grid of check boxes under
    "State funded" and "CSOs"). Two headings side by side head prose, which is not short, and
    two tables' titles side by side stand over the tables."""
    floor = max(a.bbox[3], b.bbox[3])
    reach = floor + COLUMN_HEADS_REACH * max(a.height, b.height)
    if any(
        floor - 1 <= g[1] <= floor + GRID_UNDER_HEADS * a.height and g[0] < a.bbox[2] and a.bbox[0] < g[2]
        for g in grids
    ):
        return False
    below = [
        o
        for o in rows[bisect.bisect_left(tops, floor - 1) : bisect.bisect_right(tops, reach)]
        if id(o) not in own and o is not b
    ]

    def under(head: Line) -> list[Line]:
        return [o for o in below if head.bbox[0] <= (o.bbox[0] + o.bbox[2]) / 2 <= head.bbox[2]]

    left, right = under(a), under(b)
    if any(len(o.text) > SHORT_CELL_CHARS for o in left + right):
        return False
    pairs = [(p, q) for p in left for q in right if side_by_side(p, q, SAME_ROW_CLOSE)]
    # Two rows or more, each column's cells set one under the other (same edge or middle): a
    # grid, not a chart's labels staggered over its bars.
    return any(
        p2.bbox[1] >= p1.bbox[3] and _aligned(p1, p2) and _aligned(q1, q2)
        for k, (p1, q1) in enumerate(pairs)
        for p2, q2 in pairs[k + 1 :]
    )


def _aligned(a: Line, b: Line) -> bool:
    return (
        abs(a.bbox[0] - b.bbox[0]) <= 2
        or abs(a.bbox[2] - b.bbox[2]) <= 2
        or abs(a.bbox[0] + a.bbox[2] - b.bbox[0] - b.bbox[2]) <= ALIGNED_MIDDLES
    )


def _columns_apart(a: Line, b: Line, rows: list[Line], tops: list[float]) -> bool:
    """a and b head two columns of prose that happen to share a row (two section headings side by
    side): each has lines of prose next to it, above or below, that do not reach the other (one
    such line is a table's long column head)."""
    return _prose_near(a, b, rows, tops) and _prose_near(b, a, rows, tops)


def _in_its_column(line: Line, cells: list[Line], rows: list[Line], tops: list[float]) -> list[Line]:
    """cells without those in the column before the line's, a gutter between: a clear strip left
    of the line that no line near it crosses, and prose in the line's column beside it (a heading
    over its column's text, level with a table row in the column to its left). A table's row label
    has its figures after it, and no prose beside it."""
    before = [o for o in cells if o.bbox[2] + line.size <= line.bbox[0]]
    if not before:
        return cells
    nearest = max(before, key=lambda o: o.bbox[2])
    middle = (nearest.bbox[2] + line.bbox[0]) / 2
    reach = GUTTER_CHECK_REACH * line.height
    lo = bisect.bisect_left(tops, line.bbox[1] - reach)
    if any(o.bbox[0] < middle < o.bbox[2] for o in rows[lo : bisect.bisect_right(tops, line.bbox[3] + reach)]):
        return cells
    if not _prose_near(line, nearest, rows, tops):
        return cells
    gone = set(map(id, before))
    return [o for o in cells if id(o) not in gone]


def _prose_near(line: Line, other: Line, rows: list[Line], tops: list[float]) -> bool:
    reach = PROSE_NEAR_REACH * line.height
    lo = bisect.bisect_left(tops, line.bbox[1] - reach)
    prose = [
        o
        for o in rows[lo : bisect.bisect_right(tops, line.bbox[3] + reach)]
        if o is not line
        and len(o.text) >= PROSE_LINE_CHARS
        and min(o.bbox[2], line.bbox[2]) > max(o.bbox[0], line.bbox[0])
        and min(o.bbox[2], other.bbox[2]) <= max(o.bbox[0], other.bbox[0])
    ]
    return len(prose) >= 2
