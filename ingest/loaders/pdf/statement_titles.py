"""A financial statement's title block and its period line, as one heading.

A statement opens on a bold block: the company, the statement's name, its period ("For the Years
ended December 31, 2022, 2021 and 2020"). Set as two pymupdf blocks, the period line became a unit
of its own, then a heading of its own: the statement's table sat under "For the Years ended ..."
and no path named the statement. A bold period line right under a bold title, in its size, joins
it.

It is the title's period only when a statement comes next: its table, or its row of column heads.
An MD&A sets "Fiscal Year Ended June 30, 2023 Compared with Fiscal Year Ended June 30, 2022" in
bold under "Results of Operations", and "Revenue" in bold under it: there the period line is a
heading of its own, and a bold block that holds it is cut around it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .lines import Line, side_by_side
from .paragraphs import Unit

PERIOD = re.compile(r"(?i)\b(?:ended|ending|as of)\b.*\b(?:19|20)\d\d\b")
"""A statement's period: "Years ended December 31, 2022, 2021 and 2020", "As of June 30, 2023"."""
_YEAR_ENDS = re.compile(r"\b(?:19|20)\d\d\W*$")
"""The period's last line ends with a year (it may wrap: "Compared with Fiscal / Year Ended June 30, 2022")."""


def title_periods(units: list[Unit], lines: Sequence[Line] = ()) -> list[Unit]:
    """units in reading order, with each bold block cut around a period line that heads no
    statement, then each title's period line joined to it. lines: the page's body lines (to tell a
    row of column heads)."""
    cut = [piece for k, unit in enumerate(units) for piece in _cut(unit, _next(units, k), lines)]
    return join_periods(cut, lines)


def join_periods(units: list[Unit], lines: Sequence[Line] = ()) -> list[Unit]:
    out: list[Unit] = []
    for k, unit in enumerate(units):
        title = out[-1] if out else None
        if title is not None and _period_of(title, unit) and _heads_a_statement(_next(units, k), lines):
            # The joined block's box and page span are its lines' again, found later from them.
            out[-1] = _with(title, [*title.lines, *unit.lines])
            continue
        out.append(unit)
    return out


def _next(units: list[Unit], k: int) -> Unit | None:
    return units[k + 1] if k + 1 < len(units) else None


def _with(unit: Unit, lines: list[Line]) -> Unit:
    return replace(unit, lines=lines, bbox=None, meta=dict(unit.meta), page_end=None)


def _cut(unit: Unit, after: Unit | None, lines: Sequence[Line]) -> list[Unit]:
    """A bold block that holds a period line: a bold line opening in a capital after the period
    is a heading of its own, and so is the period line itself when no statement follows it (the
    title above it stays apart)."""
    if unit.kind != "paragraph" or len(unit.lines) < 2 or not all(line.bold for line in unit.lines):
        return [unit]
    start = next((k for k, line in enumerate(unit.lines) if PERIOD.search(line.text)), None)
    if start is None:
        return [unit]
    end = next((k for k in range(start, len(unit.lines)) if _YEAR_ENDS.search(unit.lines[k].text)), None)
    if end is None or len(" ".join(line.text for line in unit.lines[start : end + 1]).split()) > 14:
        return [unit]
    rest = unit.lines[end + 1 :]
    tail = [_with(unit, rest)] if rest and rest[0].text[:1].isupper() else []
    period = unit.lines[start : end + 1] if tail else unit.lines[start:]
    head = unit.lines[:start]
    if head and (tail or not _heads_a_statement(after, lines)):
        return [_with(unit, head), _with(unit, period), *tail]
    return [_with(unit, [*head, *period]), *tail] if tail else [unit]


def _period_of(title: Unit, unit: Unit) -> bool:
    """unit is the period line of the title block right above it."""
    if unit.kind != "paragraph" or title.kind != "paragraph" or len(unit.lines) != 1 or not 1 <= len(title.lines) <= 2:
        return False
    line, last = unit.lines[0], title.lines[-1]
    return (
        unit.page == title.page
        and line.bold
        and all(t.bold for t in title.lines)
        and abs(line.size - last.size) <= 0.5
        and PERIOD.search(line.text) is not None
        and PERIOD.search(title.text) is None
        and len(line.text.split()) <= 14
        and 0 <= line.bbox[1] - last.bbox[3] <= line.height
        and min(line.bbox[2], last.bbox[2]) > max(line.bbox[0], last.bbox[0])
    )


def _heads_a_statement(after: Unit | None, lines: Sequence[Line]) -> bool:
    """What follows a period line is a statement's: its table, or a row of column heads (its
    first line shares the row with other text)."""
    if after is None:
        return False
    if after.kind == "table":
        return True
    first = after.lines[0] if after.lines else None
    return first is not None and any(o is not first and side_by_side(first, o, 0.5) for o in lines)
