"""Headings that open with a label and a number ("PART II", "Item 5.", "Chapter 3"): the label
set apart from its title on one row, and the series such labels number.

A filing sets "ITEM 5." at the left margin and its title at a tab stop on the same row, in the same
type; pymupdf reads two lines, which become two units, the label alone a heading and the title a
paragraph beside a number. Joined, they are the one heading the page shows.

Labels that number a series (PART I to IV, Item 1 to 16) are the document's own outline: each item
holds the headings set in its type until the next one, and each part holds its items. Among
headings of one size, a series' members therefore rank above the unlabelled ones, and a series
that opens fewer headings above one that opens more (four parts hold twenty items). On a contents page the labels
are entries, not headings.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from .lines import side_by_side
from .model import Line, Unit
from .paragraphs import capitals
from .thresholds import (
    LABEL_MAX_LINES,
    LABEL_MIN_ENTRIES,
    LABEL_PROSE_WORDS,
    LABEL_REACH,
    SAME_ROW,
    SAME_SIZE_TIGHT,
    SERIES_MIN_MEMBERS,
)

_LABEL = r"(?P<label>part|item|chapter|section|article)\s+(?P<number>\d{1,3}[a-z]?(?:\.\d{1,2})?|[ivxlc]{1,6})"
_LABEL_ONLY = re.compile(rf"(?i)^{_LABEL}[.:]?$")
"""A label and its number alone on the line: the title is elsewhere on the row."""
_OPENS = re.compile(rf"(?i)^{_LABEL}(?:[.:\u2014\u2013-]|\s+(?-i:(?![a-z]))|$)")
"""A heading that opens with a label: "Item 1A. Risk Factors", "PART II", "ITEM 7A.". Not a
sentence that opens with one ("Part 2 of this form must be completed by the employer."): a
title goes on from its label's number after a stop or in a capital, prose in a lower-case word."""


def join_labels(units: list[Unit]) -> list[Unit]:
    """A one-line label ("ITEM 5.") and the title set right of it on the same row, in the same
    type, become one unit, where the first of them stood in the reading order. The label must be
    set apart as a heading's is (bold or capitals): a contents page's plain "Item 5." lines stay."""
    out = list(units)
    for label in units:
        line = _label_line(label)
        if line is None or label not in out:
            continue
        title = next((u for u in out if u is not label and _title_beside(line, u)), None)
        if title is None:
            continue
        first = title.lines[0]
        joined = replace(
            first,
            text=f"{line.text} {first.text}",
            bbox=(line.bbox[0], min(line.bbox[1], first.bbox[1]), first.bbox[2], max(line.bbox[3], first.bbox[3])),
        )
        at = min(out.index(label), out.index(title))
        merged = replace(title, lines=[joined, *title.lines[1:]], joined=(line, first))
        out = [u for u in out if u is not label and u is not title]
        out.insert(at, merged)
    return out


def split_answers(units: list[Unit]) -> list[Unit]:
    """A paragraph whose first line is a label and its title closed by a stop ("Item 3. Defaults
    Upon Senior Securities.") and whose next line opens a sentence ("None."): an item over its
    answer in one type and one block, two units (the item a heading if its label numbers a series)."""
    out: list[Unit] = []
    for unit in units:
        first = unit.lines[0] if unit.lines else None
        if (
            first is None
            or unit.kind != "paragraph"
            or len(unit.lines) < 2
            or not _OPENS.match(first.text)
            or not first.text.rstrip().endswith(".")
            or _runs_in(first.text)
            or not unit.lines[1].text[:1].isupper()
        ):
            out.append(unit)
            continue
        out.append(replace(unit, lines=[first], joined=()))
        out.append(replace(unit, lines=unit.lines[1:]))
    return out


def _label_line(unit: Unit) -> Line | None:
    if unit.kind != "paragraph" or len(unit.lines) != 1:
        return None
    line = unit.lines[0]
    if not _LABEL_ONLY.match(line.text) or not (line.bold or line.text.split()[0].isupper()):
        return None
    return line


def _title_beside(label: Line, unit: Unit) -> bool:
    """unit's first line reads on from the label across the row: right of it, within a few of its
    heights, in its size and weight, and opening as a title does (not a figure or a lower-case word)."""
    if unit.kind != "paragraph" or len(unit.lines) > LABEL_MAX_LINES:
        return False
    first = unit.lines[0]
    gap = first.bbox[0] - label.bbox[2]
    return (
        side_by_side(label, first, SAME_ROW)
        and 0 <= gap <= LABEL_REACH * label.height
        and abs(first.size - label.size) <= SAME_SIZE_TIGHT
        and first.bold == label.bold
        and first.text[:1].isupper()
        and (first.bold or capitals(first.text))
    )


def opens_with_label(text: str) -> bool:
    return _OPENS.match(text) is not None


def contents_entries(units: Sequence[Unit], found: Sequence[Unit], plain: Sequence[Unit] = ()) -> set[int]:
    """id() of the found headings that open with a label on a contents page: a page where three
    or more short units in plain type open with a label too ("ITEM 5", "Item 7A.") and outnumber
    its paragraphs of prose (an item answered by the sentence under it counts as prose). There a bold or capitals "PART II" is an entry like them, and taken
    for a heading it would hold every item up to the real PART II. (A 10-Q that sets its items in
    plain type answers each with prose: no contents page.) `plain` are found headings in plain
    type (`plain_item`): they count as the page's entries, and go with the rest."""
    headed = set(map(id, found)) - set(map(id, plain))
    entries: dict[int, int] = {}
    prose: dict[int, int] = {}
    for k, unit in enumerate(units):
        if unit.kind != "paragraph" or id(unit) in headed:
            continue
        text = unit.text  # the lines joined again at each use
        if len(unit.lines) <= 2 and _OPENS.match(text) and not _runs_in(text) and not _answered(units, k):
            entries[unit.page] = entries.get(unit.page, 0) + 1
        elif len(text.split()) >= LABEL_PROSE_WORDS or _OPENS.match(text):
            prose[unit.page] = prose.get(unit.page, 0) + 1
    pages = {page for page, n in entries.items() if n >= LABEL_MIN_ENTRIES and n > prose.get(page, 0)}
    return {id(u) for u in found if u.page in pages and _OPENS.match(u.text)}


def _answered(units: Sequence[Unit], k: int) -> bool:
    """The unit after units[k], on its page, is a sentence that answers it ("None.", "Not
    applicable."): a contents page's entry is followed by the next entry or its page number, never
    by a sentence."""
    if k + 1 >= len(units) or units[k + 1].page != units[k].page:
        return False
    unit = units[k + 1]
    text = unit.text
    return (
        unit.kind == "paragraph"
        and text[:1].isupper()
        and text.endswith(".")
        and not _OPENS.match(text)
        and any(c.isalpha() for c in text)
    )


def plain_item(unit: Unit) -> bool:
    """A unit that is a label and its title alone, a line or two ("Item 1A. Risk Factors."): a
    10-Q sets its items so, in the body's own type, each over the prose that answers it. A title
    that runs into its text ("Item 3. Defaults. None.") or a line that ends mid-clause is prose."""
    text = unit.text
    m = _OPENS.match(text)
    if m is None or unit.kind != "paragraph" or len(unit.lines) > 2 or len(text.split()) > LABEL_PROSE_WORDS:
        return False
    title = text[m.end() :]
    return any(c.isalpha() for c in title) and not _runs_in(text) and not text.endswith((",", ";", ":"))


def numbered_series(units: Sequence[Unit]) -> set[str]:
    """The labels that open units with two or more numbers ("Item 1.", "Item 4."): a series."""
    numbers: dict[str, set[str]] = {}
    for unit in units:
        m = _OPENS.match(unit.text)
        if m is not None:
            numbers.setdefault(m.group("label").lower(), set()).add(m.group("number").lower())
    return {label for label, seen in numbers.items() if len(seen) >= 2}


def label_of(text: str) -> str | None:
    m = _OPENS.match(text)
    return m.group("label").lower() if m else None


_SENTENCE = re.compile(r"(?<!\.)[.;:]\s+[^\W\d_]")
"""A stop, then a word: not a contents entry's dot leaders before its page number."""


def _runs_in(text: str) -> bool:
    """A section whose title runs into its text ("Section 1.2 Renewal. It renews each year."): a
    stop inside it, past the label's own ("Item 1A. Risk Factors" has none). A contract's short
    sections are prose, however few their words; a contents entry holds no sentence."""
    m = _OPENS.match(text)
    return m is not None and _SENTENCE.search(text, m.end("number") + 1) is not None


def series_tiers(headings: Sequence[Unit]) -> dict[int, int]:
    """Tier by id() of each heading that opens with the label of a series: 0 for the series that
    opens fewest headings (the one met first on a tie), 1 for the next... A series is a label that
    opens at least two headings with different numbers; an unlabelled heading after a series' last
    member, in the type of its members (the type of no other heading within it), takes its tier;
    other headings are left out (the caller ranks them below every tier)."""
    numbers: dict[str, set[str]] = {}
    opened: list[tuple[Unit, str]] = []
    for unit in headings:
        m = _OPENS.match(unit.text)
        if m is not None:
            label = m.group("label").lower()
            numbers.setdefault(label, set()).add(m.group("number").lower())
            opened.append((unit, label))
    count = Counter(label for _, label in opened)
    # A series that holds another opens fewer headings (four parts, twenty items); its members'
    # numbers may not be fewer: a book's sections number afresh in each chapter (four chapters,
    # sections 1 and 2 in each). At a tie, the one met first: dicts keep first-seen order, and the
    # sort is stable.
    order = sorted((label for label, seen in numbers.items() if len(seen) >= 2), key=lambda k: count[k])
    tiers = {id(unit): order.index(label) for unit, label in opened if label in order}
    labelled = {id(unit) for unit, _ in opened}
    for tier in range(len(order)):
        members = [k for k, unit in enumerate(headings) if tiers.get(id(unit)) == tier]
        styles = {_style(headings[k]) for k in members}
        if len(members) < SERIES_MIN_MEMBERS or len(styles) != 1:
            continue
        style = styles.pop()
        # The series' own type: no unlabelled heading in it between its first and last member
        # (a filing's items hold subsections in their type; a contract's articles do not). Then
        # a heading in that type after the last member ("SIGNATURES", "EXHIBIT A" after ARTICLE
        # IX) stands beside the members, not under the last of them.
        between = headings[members[0] : members[-1] + 1]
        if any(id(u) not in labelled and _style(u) == style for u in between):
            continue
        for unit in headings[members[-1] + 1 :]:
            if (
                id(unit) not in tiers
                and id(unit) not in labelled
                and _style(unit) == style
                and not _ENUMERATED.match(unit.text)
            ):
                tiers[id(unit)] = tier
    return tiers


_ENUMERATED = re.compile(r"^(?:\(?[a-z0-9]{1,3}\)|[a-z0-9]{1,3}\.)\s", re.IGNORECASE)
"""A heading numbered in a series of its own ("(d) Exhibits", "A. Scope"): a member of another list."""


def _style(unit: Unit) -> tuple[float, bool, bool]:
    line = unit.lines[0]
    return (round(line.size * 2) / 2, line.bold, line.italic)
