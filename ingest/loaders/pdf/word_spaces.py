"""Korean word spaces MuPDF does not return.

Korean sets a space between words; a producer that paints each word at its own place, with no
space glyph, leaves only the gap. MuPDF adds a space for such a gap between Latin letters but not
between Hangul syllables, so "대한민국의 경제는" came out "대한민국의경제는". Han and kana set no
spaces, so only a gap next to a Hangul syllable becomes one.
"""

from __future__ import annotations

import re

import pymupdf

from .lines import raw_text_blocks

_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_GAP = 0.2
"""A gap of a fifth of the type's size or more is a word space (Korean's is a third of an em;
justified letters stand a few hundredths apart)."""


def restore_word_spaces(page: pymupdf.Page, textpage: pymupdf.TextPage, blocks: list[dict]) -> None:
    """Put back, in the spans (in place), the spaces of Korean words painted apart."""
    if not any(_HANGUL.search(s["text"]) for b in blocks for ln in b["lines"] for s in ln["spans"]):
        return
    raw = raw_text_blocks(page, textpage)
    for block, raw_block in zip(blocks, raw):
        for line, raw_line in zip(block["lines"], raw_block["lines"]):
            for span, raw_span in zip(line["spans"], raw_line["spans"]):
                if _HANGUL.search(span["text"]):
                    span["text"] = _spaced(raw_span["chars"], raw_span["size"])


def _spaced(chars: list[dict], size: float) -> str:
    out: list[str] = []
    for before, c in zip([None, *chars], chars):
        if (
            before is not None
            and not before["c"].isspace()
            and not c["c"].isspace()
            and (_HANGUL.match(before["c"]) or _HANGUL.match(c["c"]))
            and c["bbox"][0] - before["bbox"][2] >= _GAP * size
        ):
            out.append(" ")
        out.append(c["c"])
    return "".join(out)
