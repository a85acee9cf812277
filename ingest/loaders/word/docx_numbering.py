"""Paragraph styles and list numbering of a Word document: which paragraphs are headings, which are
list items, and the number Word would show in front of them ("2.1", "b)", "IV.").

Read from styles.xml and numbering.xml, because python-docx exposes neither style inheritance of
outline levels nor computed list numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from ...blocks import ListNumber
from .docx_inline import W
from .numbers import Counters
from .outline import TITLE_RANK

_HEADING_NAME = re.compile(r"heading\s*([1-9])")
_HINTS = {
    "quote": "quote",
    "intense quote": "quote",
    "caption": "caption",
    "source code": "code",
    "code": "code",
    "html preformatted": "code",
    "html code": "code",
    "macro text": "code",
}


@dataclass(frozen=True, slots=True)
class _Style:
    name: str
    based_on: str | None
    outline: int | None
    num: tuple[str | None, int | None] | None


class Styles:
    def __init__(self, root: etree._Element | None):
        self._styles: dict[str, _Style] = {}
        self.default: str | None = None
        for st in root.iterfind(W + "style") if root is not None else ():
            if st.get(W + "type") != "paragraph":
                continue
            sid = st.get(W + "styleId", "")
            ppr = st.find(W + "pPr")
            num = None
            if ppr is not None and (numpr := ppr.find(W + "numPr")) is not None:
                num = (xml_val(numpr, "numId"), parse_int(xml_val(numpr, "ilvl")))
            self._styles[sid] = _Style(
                name=(xml_val(st, "name") or sid).lower(),
                based_on=xml_val(st, "basedOn"),
                outline=parse_int(xml_val(ppr, "outlineLvl")) if ppr is not None else None,
                num=num,
            )
            if st.get(W + "default") in ("1", "true", "on"):
                self.default = sid
        self.rank = lru_cache(maxsize=None)(self._rank)

    def name(self, sid: str | None) -> str:
        st = self._styles.get(sid or "")
        return st.name if st else ""

    def _chain(self, sid: str | None):
        seen = set()
        while sid and sid in self._styles and sid not in seen:  # basedOn loops exist in the wild
            seen.add(sid)
            yield self._styles[sid]
            sid = self._styles[sid].based_on

    def _rank(self, sid: str | None) -> int | None:
        """Heading rank of a style: Title 0, Heading N (or outline level N-1) N, body text None."""
        for st in self._chain(sid):
            if st.outline is not None:
                return st.outline + 1 if 0 <= st.outline <= 8 else None
            if st.name == "title":
                return TITLE_RANK
            if m := _HEADING_NAME.fullmatch(st.name):
                return int(m.group(1))
        return None

    def num(self, sid: str | None) -> tuple[str | None, int | None] | None:
        for st in self._chain(sid):
            if st.num is not None:
                return st.num
        return None

    def hint(self, sid: str | None) -> str | None:
        """Block kind a style implies besides headings: quote, caption or code."""
        for st in self._chain(sid):
            if st.name in _HINTS:
                return _HINTS[st.name]
        return None


@dataclass(frozen=True, slots=True)
class _Level:
    start: int
    fmt: str
    text: str
    legal: bool
    suffix: str


class Numbering:
    """List counters as Word keeps them while reading the document in order."""

    def __init__(self, root: etree._Element | None, styles: Styles):
        self._abstract: dict[str, dict[int, _Level]] = {}
        self._style_link: dict[str, str] = {}
        self._nums: dict[str, tuple[str, dict[int, _Level | int]]] = {}
        self._counters = Counters()
        self._styles = styles
        if root is None:
            return
        for ab in root.iterfind(W + "abstractNum"):
            aid = ab.get(W + "abstractNumId", "")
            self._abstract[aid] = {parse_int(lvl.get(W + "ilvl")) or 0: _level(lvl) for lvl in ab.iterfind(W + "lvl")}
            if link := xml_val(ab, "numStyleLink"):
                self._style_link[aid] = link
        for num in root.iterfind(W + "num"):
            overrides: dict[int, _Level | int] = {}
            for ov in num.iterfind(W + "lvlOverride"):
                ilvl = parse_int(ov.get(W + "ilvl")) or 0
                if (lvl := ov.find(W + "lvl")) is not None:
                    overrides[ilvl] = _level(lvl)
                elif (start := parse_int(xml_val(ov, "startOverride"))) is not None:
                    overrides[ilvl] = start
            self._nums[num.get(W + "numId", "")] = (xml_val(num, "abstractNumId") or "", overrides)

    def next(self, num_id: str, ilvl: int) -> tuple[str, ListNumber | None]:
        """Advance the list `num_id` at level `ilvl`; return the number text Word shows and how it
        counts (None where the list has no definition, which Word does not count)."""
        number = self.number(num_id, ilvl)
        return (self._counters.next(number) if number is not None else ""), number

    def number(self, num_id: str, ilvl: int) -> ListNumber | None:
        """How a paragraph of list `num_id` at level `ilvl` counts and writes its number."""
        levels, key = self._levels(num_id)
        if not levels:
            return None
        ilvl = min(max(ilvl, 0), 8)
        lvl = levels.get(ilvl)
        formats = tuple(
            (
                _start(levels, k),
                "decimal" if lvl is not None and lvl.legal else levels[k].fmt if k in levels else "decimal",
            )
            for k in range(9)
        )
        if lvl is None:
            return ListNumber(key, ilvl, "", formats)
        suffix = "" if lvl.suffix == "nothing" else " "
        if lvl.fmt == "bullet":
            glyph = "•" if any(0xE000 <= ord(c) <= 0xF8FF for c in lvl.text) else lvl.text
            return ListNumber(key, ilvl, "", formats, bullet=glyph, suffix=suffix)
        return ListNumber(key, ilvl, lvl.text, formats, suffix=suffix)

    def _levels(self, num_id: str) -> tuple[dict[int, _Level], str]:
        num = self._nums.get(num_id)
        if num is None:
            return {}, ""
        aid, overrides = num
        levels = self._abstract.get(aid, {})
        if not levels and aid in self._style_link:  # the list's levels live in a numbering style
            linked = self._styles.num(self._style_link[aid])
            if linked and linked[0] and linked[0] != num_id:
                levels = self._levels(linked[0])[0]
        if not overrides:
            return levels, aid  # lists sharing an abstract definition continue each other
        merged = dict(levels)
        for ilvl, ov in overrides.items():
            if isinstance(ov, _Level):
                merged[ilvl] = ov
            elif ilvl in merged:
                old = merged[ilvl]
                merged[ilvl] = _Level(ov, old.fmt, old.text, old.legal, old.suffix)
        return merged, f"num:{num_id}"  # a restart override makes this instance its own list


def _level(lvl: etree._Element) -> _Level:
    return _Level(
        start=_or_one(parse_int(xml_val(lvl, "start"))),
        fmt=xml_val(lvl, "numFmt") or "decimal",
        text=xml_val(lvl, "lvlText") or "",
        legal=lvl.find(W + "isLgl") is not None and xml_val(lvl, "isLgl") not in ("0", "false"),
        suffix=xml_val(lvl, "suff") or "tab",
    )


def _or_one(start: int | None) -> int:
    """A level's start, 1 where the file gives none (or none Word could read)."""
    return 1 if start is None else start


def _start(levels: dict[int, _Level], ilvl: int) -> int:
    return levels[ilvl].start if ilvl in levels else 1


def xml_val(parent: etree._Element | None, tag: str) -> str | None:
    el = parent.find(W + tag) if parent is not None else None
    return el.get(W + "val") if el is not None else None


def parse_int(s: str | None) -> int | None:
    try:
        return int(s) if s is not None else None
    except ValueError:
        return None
