"""Whether a PDF page's text layer can be read: a fact of every page, taken from what the loader
already reads (the page's spans and line boxes), so it costs no second text extraction.

A page's text is one of:
- usable: letters and digits as a writer sets them;
- garbage: glyphs MuPDF could not map to characters. A font without a Unicode map (no ToUnicode,
  a subset font with its own codes) or a file cut short (its fonts lost) gives the glyphs' codes
  instead: control characters, private-use code points, U+FFFD, or runs of punctuation
  ('"#$!%&'%$()!&*!') where words stood;
- scan: an image fills the page and the text covers almost none of it (none at all, or a stamp
  line: "Case 1:09-cv-... Document 12 Filed 2/2/09"). What the page says is in the image;
- empty: neither text nor images (a blank page; in a file cut short, a page whose content was lost).

The loader skips a garbage page's text (indexing cipher would replace a document's good chunks
with noise), fails a document whose text is mostly garbage, and warns, naming the pages, about the
rest. An OCR step reads the pages that are not usable (`PageText.usable`).

False positives lose users' text, so every threshold leans to "usable": a page is garbage only
when its text is far from any language's (tables of figures, formulas and leader dots included).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from .thresholds import IMAGE_FILL, LETTER_SHARE, MIN_CHARS, TEXT_COVER, UNMAPPED_SHARE

Verdict = Literal["usable", "garbage", "scan", "empty"]


GLYPH_CODE_CASED = 30
"""Cased letters a page needs before its words are judged by their shape: a heading or two."""

GLYPH_CODE_LOWER = 0.05
"""Share of a page's cased letters in lower case below which its words may be glyph codes. A subset
TrueType font orders its glyphs as the Mac standard order does (space 3, "A" 36, "a" 68), so glyph
ids read as characters are the letters shifted down by 29: lower case comes out as capitals,
capitals as digits and symbols ("Title" as "7LWOH"), and no lower case is left. The real pages of
the shared PDFs have 25% and more (an all-capitals cover or disclaimer has none, hence the next)."""

GLYPH_CODE_GLUED = 0.10
"""Share of a page's words that are capitals led by a digit or symbol ("7LWOH", "+HDGHU") that,
with the above, reads as glyph codes; at most 4% on the shared PDFs' real pages ("(GAAP)")."""

_GLUED = re.compile(r"[0-9$%&'()*+,\-./:;<=>]([A-Z]{2,})")
_LEADERS = re.compile(r"([^\w\s])\1{2,}")  # "....." or "-----": a leader or rule counts once
_NOT_WORD = re.compile(r"[^\w\s]")
_BLANKS = (" ", "\n", "\t", "\r", "\xa0", "\u3000", "\u2009", "\u202f")
_NO_TEXT = frozenset({"Cc", "Co", "Cs", "Cn"})
_MARKS = frozenset({"Mn", "Mc", "Me"})  # vowel signs of Indic scripts are text, not \w


@dataclass(frozen=True, slots=True)
class PageText:
    """The verdict on one page's text layer. `why` says it in the user's words (empty when usable)."""

    page: int
    """1-based page number."""
    verdict: Verdict
    why: str = ""
    chars: int = 0
    """Characters (not spaces) of the page's text layer."""

    @property
    def usable(self) -> bool:
        """The text layer says what the page says (a blank page too: there is nothing to read)."""
        return self.verdict in ("usable", "empty")


def judge_page(
    page: int,
    text: str,
    line_boxes: Sequence[tuple[float, float, float, float]],
    area: float,
    image_cover: Callable[[], float],
    unmapped_fonts: Callable[[], bool] = lambda: False,
) -> PageText:
    """The verdict on a page from its text (spans run together), its text lines' boxes, the page's
    area and, asked only for a page with little text, the share of it that images cover; and,
    asked only for a page whose words look like glyph codes, whether it sets text in a composite
    font that has no Unicode map (MuPDF then reads the font's own tables, or else the glyph ids)."""
    chars, unmapped, letters = character_counts(text)
    if chars >= MIN_CHARS:
        if unmapped >= UNMAPPED_SHARE * chars:
            return PageText(
                page,
                "garbage",
                f"{unmapped / chars:.0%} of its characters are not text (control or private-use codes: "
                "glyphs whose font has no Unicode map)",
                chars,
            )
        if letters < LETTER_SHARE * chars:
            return PageText(
                page,
                "garbage",
                f"only {letters / chars:.0%} of its characters are letters or digits, the rest symbols "
                "(glyph codes read without their font's encoding)",
                chars,
            )
        if glyph_code_shaped(text) and unmapped_fonts():
            return PageText(
                page,
                "garbage",
                "its words read as glyph codes (capitals glued to digits and symbols, no lower case) "
                "from a font that has no Unicode map",
                chars,
            )
    if area > 0:
        covered = sum(max(0.0, x1 - x0) * max(0.0, y1 - y0) for x0, y0, x1, y1 in line_boxes) / area
        if covered < TEXT_COVER:
            images = image_cover()
            if images >= IMAGE_FILL:
                what = "no text" if not chars else f"text covering {covered:.0%} of it"
                return PageText(page, "scan", f"an image fills {images:.0%} of the page, with {what}", chars)
    return PageText(page, "usable", "", chars)


def character_counts(text: str) -> tuple[int, int, int]:
    """(characters that are not spaces, characters that are no text, letters and digits), with a
    run of one punctuation mark (leader dots, a rule of dashes) counted once."""
    text = _LEADERS.sub(r"\1", text)
    others = Counter(_NOT_WORD.findall(text))  # few in real text: categories looked up once each
    chars = len(text) - sum(map(text.count, _BLANKS))  # str.count: a regex over the page costs more
    unmapped = marks = 0
    for c, n in others.items():
        category = unicodedata.category(c)
        if category in _NO_TEXT or c == "\ufffd":
            unmapped += n
        elif category in _MARKS or category == "Cf":
            marks += n
    underscores = text.count("_")  # \w counts it; a form's blank line is no letter
    letters = chars - sum(others.values()) + marks - underscores
    return chars, unmapped, letters


def glyph_code_shaped(text: str) -> bool:
    """Whether the text's words are shaped as glyph ids of a subset font read as characters: cased
    letters nearly all capitals, and many words capitals led by a digit or symbol."""
    upper = sum(map(str.isupper, text))
    lower = sum(map(str.islower, text))
    if upper + lower < GLYPH_CODE_CASED or lower >= GLYPH_CODE_LOWER * (upper + lower):
        return False
    words = [w for w in text.split() if sum(map(str.isalpha, w)) >= 2]
    glued = sum(1 for w in words if _GLUED.search(w))
    return glued >= GLYPH_CODE_GLUED * len(words)


def image_share(boxes: Sequence[tuple[float, float, float, float]], width: float, height: float) -> float:
    """Share of the page the images cover, each clipped to the page (tiles of one scan add up)."""
    area = width * height
    if area <= 0:
        return 0.0
    total = 0.0
    for x0, y0, x1, y1 in boxes:
        w = min(x1, width) - max(x0, 0.0)
        h = min(y1, height) - max(y0, 0.0)
        if w > 0 and h > 0:
            total += w * h
    return min(1.0, total / area)


def pages_phrase(numbers: Sequence[int]) -> str:
    """ "page 3" or "pages 1, 2, 5" (the first 20, then "...")."""
    shown = ", ".join(str(n) for n in numbers[:20]) + (" ..." if len(numbers) > 20 else "")
    return f"page {shown}" if len(numbers) == 1 else f"pages {shown}"
