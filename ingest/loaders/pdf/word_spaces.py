"""Korean word spaces MuPDF does not return.

Korean sets a space between words; a producer that paints each word at its own place, with no
space glyph, leaves only the gap. MuPDF adds a space for such a gap between Latin letters but not
between Hangul syllables, so "대한민국의 경제는" came out "대한민국의경제는". Han and kana set no
spaces, so only a gap next to a Hangul syllable becomes one. Spans are mended for the page's lines;
a ruled table's cells are filled from MuPDF's words, which run together the same way, so those are
cut at the same gaps.
"""

from __future__ import annotations

import re

from .lines import RawText
from .thresholds import WORD_EDGE_SLACK, WORD_SPACE_GAP

_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")


def restore_word_spaces(raw: RawText, blocks: list[dict], text: str) -> None:
    """Put back, in the spans (in place), the spaces of Korean words painted apart (`text`: the
    blocks' `span_text`)."""
    if text.isascii() or not _HANGUL.search(text):  # isascii first: most pages
        return
    for block, raw_block in zip(blocks, raw()):
        for line, raw_line in zip(block["lines"], raw_block["lines"]):
            for span, raw_span in zip(line["spans"], raw_line["spans"]):
                if _HANGUL.search(span["text"]):
                    span["text"] = _spaced(raw_span["chars"], raw_span["size"])


def spaced_words(raw: RawText, words: list[tuple]) -> list[tuple]:
    """`extractWORDS` tuples, each word of Korean syllables painted apart cut into its words (a
    box each, so every piece lands in its own table cell)."""
    if not _HANGUL.search("".join(w[4] for w in words)):
        return words
    chars = {
        (b, n): [(c, span["size"]) for span in line["spans"] for c in span["chars"]]
        for b, block in enumerate(raw())  # words count text blocks only
        for n, line in enumerate(block["lines"])
    }
    return [
        piece for w in words for piece in (_pieces(w, chars.get((w[5], w[6]), [])) if _HANGUL.search(w[4]) else (w,))
    ]


def _pieces(word: tuple, line: list[tuple[dict, float]]) -> list[tuple]:
    """The word cut at its word spaces (the characters of its line, each with its span's size)."""
    x0, y0, x1, y1, text = word[:5]
    inside = [
        (c, size)
        for c, size in line
        if x0 - WORD_EDGE_SLACK <= (c["bbox"][0] + c["bbox"][2]) / 2 <= x1 + WORD_EDGE_SLACK and not c["c"].isspace()
    ]
    if "".join(c["c"] for c, _ in inside) != text:
        return [word]  # not the same characters: leave MuPDF's word as it is
    runs: list[list[dict]] = [[]]
    for k, (c, size) in enumerate(inside):
        if k and _apart(inside[k - 1][0], c, size):
            runs.append([])
        runs[-1].append(c)
    if len(runs) == 1:
        return [word]
    return [(r[0]["bbox"][0], y0, r[-1]["bbox"][2], y1, "".join(c["c"] for c in r), *word[5:]) for r in runs]


def _apart(before: dict, c: dict, size: float) -> bool:
    """A word space between two glyphs: a gap of a fifth of the type's size beside a syllable."""
    return (
        bool(_HANGUL.match(before["c"]) or _HANGUL.match(c["c"]))
        and c["bbox"][0] - before["bbox"][2] >= WORD_SPACE_GAP * size
    )


def _spaced(chars: list[dict], size: float) -> str:
    out: list[str] = []
    for before, c in zip([None, *chars], chars):
        if before is not None and not before["c"].isspace() and not c["c"].isspace() and _apart(before, c, size):
            out.append(" ")
        out.append(c["c"])
    return "".join(out)
