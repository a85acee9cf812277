"""The paragraphs of one text frame as paragraphs or list items, with the markers PowerPoint shows.

Whether a paragraph is bulleted is often not written on it: it comes from the shape's list style,
then its layout's and master's placeholder, then the master's text styles (body placeholders get
bullets there, text boxes do not). The chain is read here from the package XML, since python-pptx
does not resolve it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from ..word.numbers import format_number

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_BULLET_TAGS = (A + "buChar", A + "buAutoNum", A + "buBlip")
_SCHEMES = {"alphaLc": "lowerLetter", "alphaUc": "upperLetter", "romanLc": "lowerRoman", "romanUc": "upperRoman"}
_STYLES = {"Period": "{}.", "ParenR": "{})", "ParenBoth": "({})", "Plain": "{}", "Minus": "- {} -"}
IMAGE_BULLET = "•"
"""What a picture bullet (`a:buBlip`) or a symbol font's glyph is shown as."""
_PRIVATE_USE = (0xE000, 0xF8FF)


@dataclass(frozen=True, slots=True)
class Para:
    text: str
    level: int
    marker: str = ""
    """The bullet or number shown before it; "" for a paragraph that is no list item."""
    ordered: bool = False


def paragraphs(txbody: etree._Element, styles: list[etree._Element]) -> Iterator[Para]:
    """The non-empty paragraphs of `txbody` (an `a:txBody` or `p:txBody`); `styles` are the list
    styles it inherits from, nearest first (layout and master placeholder, then a master text style)."""
    own = txbody.find(A + "lstStyle")
    chain = ([own] if own is not None else []) + styles
    counts: dict[int, int] = {}
    for p in txbody.iterfind(A + "p"):
        ppr = p.find(A + "pPr")
        level = min(int(ppr.get("lvl", "0")) if ppr is not None else 0, 8)
        text = _text(p).strip()
        bullet = _bullet(ppr, chain, level)
        for deeper in [k for k in counts if k > level]:
            del counts[deeper]  # a shallower paragraph restarts the numbering below it
        if not text:
            continue
        if bullet is None or bullet.tag == A + "buChar" or bullet.tag == A + "buBlip":
            counts.pop(level, None)
        if bullet is None:
            yield Para(text, level)
        elif bullet.tag == A + "buAutoNum":
            scheme = bullet.get("type", "arabicPeriod")
            n = counts[level] = counts.get(level, int(bullet.get("startAt", "1")) - 1) + 1
            yield Para(text, level, _number(n, scheme), ordered=True)
        else:
            yield Para(text, level, _glyph(bullet.get("char", "")))


def _glyph(char: str) -> str:
    """A bullet character as text: one from a symbol font (Wingdings' arrows and boxes sit in the
    Private Use Area, meaningless in any other font) or a picture is shown as a plain bullet."""
    if not char or any(_PRIVATE_USE[0] <= ord(c) <= _PRIVATE_USE[1] for c in char):
        return IMAGE_BULLET
    return char


def _text(p: etree._Element) -> str:
    """Runs, fields (a slide number, a date) and line breaks, as the paragraph shows them."""
    out = []
    for child in p:
        if child.tag in (A + "r", A + "fld"):
            out.append("".join(t.text or "" for t in child.iterfind(A + "t")))
        elif child.tag == A + "br":
            out.append("\n")
    return "".join(out).replace("\v", "\n")


def _bullet(ppr: etree._Element | None, chain: list[etree._Element], level: int) -> etree._Element | None:
    """The paragraph's bullet element (buChar, buAutoNum, buBlip), or None where `a:buNone` or
    nothing in the chain says it has one."""
    for props in [ppr, *(s.find(f"{A}lvl{level + 1}pPr") for s in chain)]:
        if props is None:
            continue
        if props.find(A + "buNone") is not None:
            return None
        for tag in _BULLET_TAGS:
            found = props.find(tag)
            if found is not None:
                return found
    return None


def _number(n: int, scheme: str) -> str:
    """`n` as an `a:buAutoNum` scheme writes it: "arabicPeriod" 3 -> "3.", "romanLcParenR" 3 -> "iii)"."""
    for prefix in ("arabic", *_SCHEMES):
        if scheme.startswith(prefix):
            digits = str(n) if prefix == "arabic" else format_number(n, _SCHEMES[prefix])
            style = next((s for k, s in _STYLES.items() if scheme.endswith(k)), "{}.")
            return style.format(digits)
    return f"{n}."
