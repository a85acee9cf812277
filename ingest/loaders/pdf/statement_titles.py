"""A financial statement's title block and its period line, as one heading.

A statement opens on a bold block: the company, the statement's name, its period ("For the Years
ended December 31, 2022, 2021 and 2020"). Set as two pymupdf blocks, the period line became a unit
of its own, then a heading of its own: the statement's table sat under "For the Years ended ..."
and no path named the statement. A bold period line right under a bold title, in its size, joins
it.

Unless the period line heads a subheading: an MD&A sets "Fiscal Year Ended June 30, 2023 Compared
with Fiscal Year Ended June 30, 2022" in bold, and "Revenue" in bold right under it, often as one
pymupdf block. There the period line is a heading of its own: the block is cut after it (and
before it, from a title above), and it joins no title.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .lines import side_by_side
from .model import Line, Unit
from .thresholds import SAME_ROW, SAME_SIZE_TIGHT, TITLE_MAX_WORDS, TITLE_OVERLAP

PERIOD = re.compile(r"(?i)\b(?:ended|ending|as of)\b.*\b(?:19|20)\d\d\b")
"""A statement's period: "Years ended December 31, 2022, 2021 and 2020", "As of June 30, 2023"."""
_YEAR_ENDS = re.compile(r"\b(?:19|20)\d\d\W*$")
"""The period's last line ends with a year (it may wrap: "Compared with Fiscal / Year Ended June 30, 2022")."""


def title_periods(units: list[Unit], lines: Sequence[Line] = ()) -> list[Unit]:
    """units in reading order, each bold block cut around a period line that heads a subheading,
    then each title's period line joined to it. lines: the page's body lines (to tell a row of
    column heads from a subheading)."""
    cut = [piece for k, unit in enumerate(units) for piece in _cut(unit, units[k + 1 : k + 2], lines)]
    return join_periods(cut, lines)


def join_periods(units: list[Unit], lines: Sequence[Line] = ()) -> list[Unit]:
    out: list[Unit] = []
    for k, unit in enumerate(units):
        title = out[-1] if out else None
        after = units[k + 1] if k + 1 < len(units) else None
        if title is not None and _period_of(title, unit) and not _subheading(unit.lines[-1], after, lines):
            # The joined block's box and page span are its lines' again, found later from them.
            out[-1] = _with(title, [*title.lines, *unit.lines])
            continue
        out.append(unit)
    return out


def _with(unit: Unit, lines: list[Line]) -> Unit:
    return replace(unit, lines=lines, bbox=None, page_end=None)


def _cut(unit: Unit, after: list[Unit], lines: Sequence[Line]) -> list[Unit]:
    """A bold block whose period line (it may wrap: "... Compared with Fiscal / Year Ended June 30,
    2022") has a subheading after it, in the block or as the next unit: the title above the
    period line (if any), the period line, and the subheading on are apart."""
    if unit.kind != "paragraph" or len(unit.lines) < 2 or not all(line.bold for line in unit.lines):
        return [unit]
    start = next((k for k, line in enumerate(unit.lines) if PERIOD.search(line.text)), None)
    if start is None:
        return [unit]
    end = next((k for k in range(start, len(unit.lines)) if _YEAR_ENDS.search(unit.lines[k].text)), None)
    if end is None or len(" ".join(line.text for line in unit.lines[start : end + 1]).split()) > TITLE_MAX_WORDS:
        return [unit]
    rest = unit.lines[end + 1 :]
    if rest:
        heads = _subheading(unit.lines[end], replace(unit, lines=rest[:1]), lines)
    else:
        heads = start > 0 and _subheading(unit.lines[end], after[0] if after else None, lines)
    if not heads:
        return [unit]
    pieces = [unit.lines[:start], unit.lines[start : end + 1], rest]
    return [_with(unit, piece) for piece in pieces if piece]


def _period_of(title: Unit, unit: Unit) -> bool:
    """unit is the period line of the title block right above it."""
    if unit.kind != "paragraph" or title.kind != "paragraph" or len(unit.lines) != 1 or not 1 <= len(title.lines) <= 2:
        return False
    line, last = unit.lines[0], title.lines[-1]
    return (
        unit.page == title.page
        and line.bold
        and all(t.bold for t in title.lines)
        and abs(line.size - last.size) <= SAME_SIZE_TIGHT
        and PERIOD.search(line.text) is not None
        and PERIOD.search(title.text) is None
        and len(line.text.split()) <= TITLE_MAX_WORDS
        and 0 <= line.bbox[1] - last.bbox[3] <= line.height
        and min(line.bbox[2], last.bbox[2]) > max(line.bbox[0], last.bbox[0])
    )


def _subheading(period: Line, after: Unit | None, lines: Sequence[Line]) -> bool:
    """after is a subheading under the period line: one bold line in its size, right under it at
    its left edge (a centred title block's lines start apart), opening in a capital, in mixed
    case (a statement's "ASSETS" is its table's), no lead-in to a list of rows ("Current
    assets:") and alone on its row (not column heads)."""
    if after is None or after.kind != "paragraph" or len(after.lines) != 1:
        return False
    line = after.lines[0]
    return (
        line.bold
        and abs(line.size - period.size) <= SAME_SIZE_TIGHT
        and -TITLE_OVERLAP * period.height <= line.bbox[1] - period.bbox[3] <= 2 * period.height
        and abs(line.bbox[0] - period.bbox[0]) <= 2
        and line.text[:1].isupper()
        and not line.text.isupper()
        and not line.text.rstrip().endswith(":")
        and not any(o is not line and side_by_side(line, o, SAME_ROW) for o in lines)
    )
