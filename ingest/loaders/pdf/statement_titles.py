"""A financial statement's title block and its period line, as one heading.

A statement opens on a bold block: the company, the statement's name, its period ("For the Years
ended December 31, 2022, 2021 and 2020"). Set as two pymupdf blocks, the period line became a unit
of its own, then a heading of its own: the statement's table sat under "For the Years ended ..."
and no path named the statement. A bold period line right under a bold title, in its size, joins
it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .paragraphs import Unit

PERIOD = re.compile(r"(?i)\b(?:ended|ending|as of)\b.*\b(?:19|20)\d\d\b")
"""A statement's period: "Years ended December 31, 2022, 2021 and 2020", "As of June 30, 2023"."""


def join_periods(units: list[Unit]) -> list[Unit]:
    out: list[Unit] = []
    for unit in units:
        title = out[-1] if out else None
        if title is not None and _period_of(title, unit):
            # The joined block's box and page span are its lines' again, found later from them.
            out[-1] = replace(title, lines=[*title.lines, *unit.lines], bbox=None, meta=dict(title.meta), page_end=None)
            continue
        out.append(unit)
    return out


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
