"""Lines out of a PDF page.

pymupdf gives spans grouped into lines and blocks. Here a line becomes a `Line` (normalised text,
box, dominant font size, boldness, italics, fixed width), lines that sit on one baseline inside a
block are merged (a bullet glyph and its text are two pymupdf lines, two columns' lines are not),
a drop cap goes back to its word, and right-to-left glyph order is mended. Where each line sits
(body or margin) is `pdf_margins`'s business.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import pymupdf

from .model import Line
from .thresholds import (
    BASELINE_BACKSTEP,
    BASELINE_REACH,
    DISPLAY_SIZE_RATIO,
    DROP_CAP_RATIO,
    DROP_CAP_REACH,
    FLAG_BOLD,
    FLAG_MONO,
    GLYPH_ORDER_SLACK,
    GLYPH_WIDTH,
    GUTTER_RUN_CHARS,
    JOINED_LETTERS_GAP,
    ROTATED_DIRECTION,
    RTL_MIN_GLYPHS,
    SAME_ROW,
    SOLID_GUTTER,
    SPACE_COVERS,
    TOUCH,
    WORD_EDGE_SLACK,
)

# Ligatures expanded by MuPDF itself (no TEXT_PRESERVE_LIGATURES); text clipped to the page.
# Vector graphics are collected in the same pass (the table rules), lazily: without the flag the
# rules would cut MuPDF's text lines apart; with it only its blocks split at them.
TEXT_FLAGS = (
    pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
    | pymupdf.TEXT_COLLECT_VECTORS
    | pymupdf.TEXT_LAZY_VECTORS
)

_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
        "\u00a0": " ",
        "\t": " ",
        "\u2002": " ",
        "\u2003": " ",
    }
)
_TRANSLATED = re.compile("[" + "".join(chr(c) for c in _LIGATURES) + "]")
# Pictograph fonts: their glyphs (checkboxes, arrows) sit on letter codes ("y", "\x84") but are
# never part of a word, so a run in one is a word of its own.
_DINGBATS = re.compile(r"(?i)wingdings|webdings|dingbat")
_LEADER = re.compile(r"(?:\s?[.\u2026\u00b7]){4,}\s?")
_MONO = re.compile(r"(?i)mono|courier|consol|menlo|CMTT|code")


def normalise(text: str) -> str:
    text = _printable(text)
    if text.isascii():
        return " ".join(text.split())
    if _TRANSLATED.search(text):  # translate() is slow on text it leaves alone
        text = text.translate(_LIGATURES)
    if _SPACING_ACCENT.search(text):
        text = _accented(text)
    if "\u00ad" not in text:
        return " ".join(text.split())
    soft_end = text.rstrip().endswith("\u00ad")
    text = " ".join(text.replace("\u00ad", "").split())
    return text + "\u00ad" if soft_end and text else text


def _printable(text: str) -> str:
    # A control character is a glyph a broken font map gave a code below space ("\x10"): no text.
    # Whitespace among them is left to the split; isprintable() keeps the common case one C pass.
    if text.isprintable():
        return text
    return _CONTROL.sub("", text)


_CONTROL = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
"""Letters of right-to-left scripts: Hebrew, Arabic, Syriac, Thaana and their presentation forms."""
_RIGHT_TO_LEFT_ONLY = re.compile(RIGHT_TO_LEFT.pattern + "*")
_LATIN_OR_DIGIT = re.compile("[0-9A-Za-z]")
"""The ASCII characters str.isalnum() takes."""
# TeX's Type 1 fonts set an accent as a glyph of its own before the letter ("J´an Min´aˇc"): the
# spacing accent becomes the combining one, after its letter ("Ján Mináč").
_COMBINING = {
    "\u00b4": "\u0301",
    "\u02c7": "\u030c",
    "\u00a8": "\u0308",
    "\u02dc": "\u0303",
    "\u02c6": "\u0302",
    "\u00b8": "\u0327",
    "\u02d8": "\u0306",
    "\u02da": "\u030a",
    "\u02dd": "\u030b",
    "\u02d9": "\u0307",
    "\u00af": "\u0304",
    "\u02db": "\u0328",
}
_SPACING_ACCENT = re.compile("([" + "".join(_COMBINING) + "])([a-zA-Z\u0131])")


def _accented(text: str) -> str:
    text = _SPACING_ACCENT.sub(lambda m: m.group(2) + _COMBINING[m.group(1)], text)
    return unicodedata.normalize("NFC", re.sub("\u0131(?=[\u0300-\u036f])", "i", text))  # TeX's dotless i


def raw_text_blocks(textpage: pymupdf.TextPage) -> list[dict]:
    """The page's text blocks at the character level ("rawdict"), in the order of its "dict"
    blocks: the passes that need glyph boxes read them only on the pages that need them.

    A character MuPDF reads as half of a surrogate pair (a broken ToUnicode map) is no text and
    cannot be encoded: "dict" shows it as U+FFFD, and so do these.
    """
    blocks = [b for b in textpage.extractRAWDICT()["blocks"] if b["type"] == 0]
    for char in (c for b in blocks for ln in b["lines"] for s in ln["spans"] for c in s["chars"]):
        if "\ud800" <= char["c"] <= "\udfff":  # a comparison: this runs for every glyph
            char["c"] = "\ufffd"
    return blocks


RawText = Callable[[], list[dict]]
"""The page's `raw_text_blocks`, read on the first call and shared by the passes that need them
(glyph order, word spaces, overprint, table words): a page pays for one character-level read."""


def raw_text(textpage: pymupdf.TextPage) -> RawText:
    return functools.cache(functools.partial(raw_text_blocks, textpage))


def span_text(blocks: list[dict]) -> str:
    """The text of the blocks' spans run together: the script checks (right-to-left letters,
    Hangul) search one string, where a test per span cost a Python step for each."""
    return "".join([s["text"] for b in blocks for ln in b["lines"] for s in ln["spans"]])


def restore_glyph_order(raw: RawText, blocks: list[dict], text: str) -> GlyphOrder | None:
    """Right-to-left text: put back in order the characters one glyph stands for, in the spans
    (in place) and, through the returned `GlyphOrder`, in the page's words (None: nothing to do).
    `text` is the blocks' `span_text`.

    A ligature glyph (Arabic lam-alef) maps to two characters; MuPDF reverses the glyphs of a
    right-to-left run into reading order but keeps that pair as written, so "الإ" comes out
    "اإل". The second character of a glyph has zero width at the glyph's edge, which is how it is
    found here. Only pages with right-to-left letters pay for the character-level pass.
    """
    if text.isascii() or not RIGHT_TO_LEFT.search(text):
        return None
    lines: dict[tuple[int, int], list[dict]] = {}
    for block_no, (block, raw_block) in enumerate(zip(blocks, raw())):  # words count text blocks only
        for line_no, (line, raw_line) in enumerate(zip(block["lines"], raw_block["lines"])):
            for span, raw_span in zip(line["spans"], raw_line["spans"]):
                span["text"] = _glyph_order(raw_span["chars"])
            lines[(block_no, line_no)] = [c for sp in raw_line["spans"] for c in sp["chars"]]
    return GlyphOrder(lines)


@dataclass(frozen=True, slots=True)
class GlyphOrder:
    """A right-to-left page's characters by (block, line), to reorder MuPDF's words with."""

    lines: dict[tuple[int, int], list[dict]]

    def words(self, words: list[tuple]) -> list[tuple]:
        """`extractWORDS` tuples with each word's characters in glyph order."""
        # Only a word holding the zero-width half of a glyph can be out of order.
        seams = {
            key: [c["bbox"][0] for c in chars if c["bbox"][2] - c["bbox"][0] < GLYPH_WIDTH]
            for key, chars in self.lines.items()
        }
        return [
            self._word(w)
            if any(w[0] - WORD_EDGE_SLACK <= x <= w[2] + WORD_EDGE_SLACK for x in seams.get((w[5], w[6]), ()))
            else w
            for w in words
        ]

    def _word(self, word: tuple) -> tuple:
        x0, _, x1, _, text = word[:5]
        chars = [
            c
            for c in self.lines[(word[5], word[6])]
            if x0 - WORD_EDGE_SLACK <= (c["bbox"][0] + c["bbox"][2]) / 2 <= x1 + WORD_EDGE_SLACK
            and not c["c"].isspace()
        ]
        if sorted(c["c"] for c in chars) != sorted(text):
            return word  # not the same characters: leave MuPDF's word as it is
        return (*word[:4], _glyph_order(chars), *word[5:])


def _glyph_order(chars: list[dict]) -> str:
    """Characters of a right-to-left span in reading order, with MuPDF's word breaks mended: a
    space it put between two glyphs that touch is dropped, and a space goes where the script
    changes between glyphs that do not touch ("وPython" is "و" + "Python", two runs of the line)."""
    chars = _visual_order(chars)
    out: list[str] = []
    i, n = 0, len(chars)
    while i < n:
        here = chars[i]
        x0, _, x1, _ = here["bbox"]
        if 0 < i < n - 1 and here["c"] == " " and _stray_space(chars[i - 1], here, chars[i + 1]):
            i += 1
            continue
        if out and i and _run_change(chars[i - 1], here):
            out.append(" ")
        if i + 1 < n and x1 - x0 < GLYPH_WIDTH:
            after = chars[i + 1]
            if after["bbox"][2] - after["bbox"][0] >= GLYPH_WIDTH and abs(after["bbox"][2] - x0) < TOUCH:
                out += (after["c"], here["c"])  # the zero-width half belongs after its base
                i += 2
                continue
        out.append(here["c"])
        i += 1
    return "".join(out)


def _visual_order(chars: list[dict]) -> list[dict]:
    """A span of right-to-left letters whose glyphs the PDF drew out of place (a final letter
    painted before the word it ends, "ی کاال" for "کالای"; a comma after a word put before it,
    "،وعليه" for "وعليه،") in the order the page shows them, right to left. Only spans of
    right-to-left letters, spaces and punctuation whose glyphs step back rightwards are touched:
    digits and Latin runs read left to right, and MuPDF's order is right wherever it follows the
    glyphs. A space laid over letters is not between them, and goes.
    """
    # A glyph's "c" is one character: the span's text run together is searched once, not per glyph.
    if len(chars) < RTL_MIN_GLYPHS or _LATIN_OR_DIGIT.search("".join([c["c"] for c in chars])):
        return chars
    letters = [c for c in chars if c["c"].isalpha()]
    if not _RIGHT_TO_LEFT_ONLY.fullmatch("".join([c["c"] for c in letters])):
        return chars
    centres = [  # `_centre` of each `_wide` glyph but spaces, inline: this runs for every glyph
        (x0 + x1) / 2
        for c in chars
        for x0, _, x1, _ in (c["bbox"],)
        if x1 - x0 >= GLYPH_WIDTH and not unicodedata.combining(c["c"]) and not c["c"].isspace()
    ]
    if all(b <= a + GLYPH_ORDER_SLACK for a, b in zip(centres, centres[1:])):
        return chars
    groups: list[list[dict]] = []  # a glyph with the zero-width marks MuPDF gives after it
    for c in chars:
        if groups and not _wide(c):
            groups[-1].append(c)
        elif c["c"].isspace() and any(_covers(c, o) for o in letters):
            continue
        else:
            groups.append([c])
    groups.sort(key=lambda g: -_centre(g[0]))
    return [c for g in groups for c in g]


def _wide(c: dict) -> bool:
    return c["bbox"][2] - c["bbox"][0] >= GLYPH_WIDTH and not unicodedata.combining(c["c"])


def _centre(c: dict) -> float:
    return (c["bbox"][0] + c["bbox"][2]) / 2


def _covers(space: dict, letter: dict) -> bool:
    """The space's box lies over most of the letter's."""
    x0, x1 = letter["bbox"][0], letter["bbox"][2]
    return x1 - x0 >= GLYPH_WIDTH and min(space["bbox"][2], x1) - max(space["bbox"][0], x0) > SPACE_COVERS * (x1 - x0)


def _touch(a: dict, b: dict) -> bool:
    return abs(a["bbox"][0] - b["bbox"][2]) < TOUCH or abs(a["bbox"][2] - b["bbox"][0]) < TOUCH


def _stray_space(before: dict, space: dict, after: dict) -> bool:
    if before["c"].isspace() or after["c"].isspace() or not _touch(before, after):
        return False
    centre = (space["bbox"][0] + space["bbox"][2]) / 2
    left, right = sorted((before["bbox"][0], after["bbox"][0]))[0], max(before["bbox"][2], after["bbox"][2])
    return not left <= centre <= right


def _run_change(before: dict, here: dict) -> bool:
    a, b = before["c"], here["c"]
    if not (a.isalnum() and b.isalnum()) or (a.isascii() == b.isascii()) or _touch(before, here):
        return False
    return bool(RIGHT_TO_LEFT.match(b if a.isascii() else a))


def extract(
    blocks: Iterable[dict], skip: Sequence[tuple[float, float, float, float]] = (), skipped: list[Line] | None = None
) -> list[Line]:
    """Non-empty lines of text blocks ("dict" output) in pymupdf's order, minus those inside
    `skip` (tables), which go to `skipped` if given."""
    lines: list[Line] = []
    blocks = list(blocks)
    usual: list[float] = []  # the page's usual size, counted only when two large figures share a row
    spaced: set[tuple[int, int]] = set()  # (line, 0 / 1): MuPDF opened / closed its text with a space
    for block in blocks:
        row: list[Line] = []
        for raw in block["lines"]:
            line = _line(raw, block["number"])
            if line is None:
                continue
            if not line.text.isascii():
                spaced.update(_spaced(line, raw["spans"]))
            if skip and inside(line.bbox, skip):
                if skipped is not None:
                    skipped.append(line)
                continue
            if row and _same_baseline(row[-1], line) and not _callouts_apart(row[-1], line, blocks, usual):
                row.append(line)
                continue
            if row:
                lines.append(_merge(row, spaced))
            row = [line]
        if row:
            lines.append(_merge(row, spaced))
    return lines


def mend_drop_caps(lines: list[Line]) -> list[Line]:
    """A drop cap (one large letter beside the first lines of a paragraph) is given back to the
    word it opens: "T" + "he year began" reads "The year began", not a one-letter paragraph."""
    caps = [i for i, line in enumerate(lines) if len(line.text) == 1 and line.text.isalpha() and not line.rotated]
    if not caps:
        return lines
    out = list(lines)
    gone = set()
    for i in caps:
        cap = lines[i]
        beside = [
            j
            for j, b in enumerate(lines)
            if j != i
            and b.size * DROP_CAP_RATIO <= cap.size
            and cap.bbox[2] - 2 <= b.bbox[0] <= cap.bbox[2] + DROP_CAP_REACH * b.size
            and b.bbox[1] < cap.bbox[3]
            and b.bbox[3] > cap.bbox[1]
        ]
        if not beside:
            continue
        j = min(beside, key=lambda j: lines[j].bbox[1])
        b = out[j]
        out[j] = Line(
            cap.text + b.text,
            (cap.bbox[0], b.bbox[1], b.bbox[2], b.bbox[3]),
            b.size,
            b.bold,
            b.block,
            b.rotated,
            b.italic,
            b.mono,
        )
        gone.add(i)
    return [line for i, line in enumerate(out) if i not in gone]


def _line(raw: dict, block: int) -> Line | None:
    spans = raw["spans"]
    first = spans[0]
    size, font, flags = first["size"], first["font"], first["flags"]
    # Most lines are one run of type; MuPDF splits them only at its synthetic spaces.
    if len(spans) == 1 or all(s["size"] == size and s["font"] == font and s["flags"] == flags for s in spans):
        text = normalise(first["text"] if len(spans) == 1 else "".join(s["text"] for s in spans))
        if not text or text == "\u00ad":
            return None
        size = round(size, 1)
        heavy_font, slanted_font, fixed_font = _font_style(font)
        bold = bool(flags & FLAG_BOLD) or heavy_font
        italic = bool(flags & 2) or slanted_font
        mono = bool(flags & FLAG_MONO) or fixed_font
        mixed = False
    else:
        sizes: dict[float, int] = {}
        heavy = slanted = fixed = chars = 0
        for span in spans:
            n = len(span["text"].strip())
            if not n:
                continue
            chars += n
            size = round(span["size"], 1)
            sizes[size] = sizes.get(size, 0) + n
            heavy_font, slanted_font, fixed_font = _font_style(span["font"])
            if span["flags"] & FLAG_BOLD or heavy_font:
                heavy += n
            if span["flags"] & 2 or slanted_font:
                slanted += n
            if span["flags"] & FLAG_MONO or fixed_font:
                fixed += n
        if not chars:
            return None
        text = normalise(_join_spans(spans))
        if not text:
            return None
        size = max(sizes, key=sizes.__getitem__)
        if len(sizes) > 1 and not any(c.islower() for c in text):
            size = max(sizes)  # small capitals: the full capitals give the size it is set in
        bold = heavy * 2 > chars
        italic = slanted * 2 > chars
        mono = fixed * 2 > chars
        mixed = 0 < heavy < chars
    if ". ." in text or "..." in text or (not text.isascii() and "\u2026" in text):
        text = " ".join(_LEADER.sub(" ", text).split())  # a contents page's dot leaders
        if not text:
            return None
    dx, dy = raw["dir"]
    return Line(text, raw["bbox"], size, bold, block, abs(dy) > ROTATED_DIRECTION or dx < 0, italic, mono, mixed)


@functools.lru_cache(maxsize=256)
def _font_style(font: str) -> tuple[bool, bool, bool]:
    """What the font's name says: (bold, italic, fixed width). A page has a few fonts and
    thousands of lines."""
    return "Bold" in font or "Black" in font, "Italic" in font or "Oblique" in font, _MONO.search(font) is not None


@functools.lru_cache(maxsize=256)
def _pictographs(font: str) -> bool:
    return _DINGBATS.search(font) is not None


def _join_spans(spans: list[dict]) -> str:
    parts = [spans[0]["text"]]
    for before, span in zip(spans, spans[1:]):
        if (
            span["font"] != before["font"]
            and (_pictographs(span["font"]) or _pictographs(before["font"]))
            and span["text"][:1].strip()
            and before["text"][-1:].strip()
        ):
            parts.append(" ")
        parts.append(span["text"])
    return "".join(parts)


FIGURE = re.compile(
    r"^[<>~\u2248+\-\u2013#]?[$\u20ac\u00a3\u00a5]?\d[\d.,]*\s?(?:%|[kKmMbB]n?|x|\u00d7|pts?)?[*\u2020\u2021+]*$"
)
"""A line that is only a figure: "72%", "$575K", "3x", "1,200+", "81%**"."""


def _callouts_apart(a: Line, b: Line, blocks: list[dict], usual: list[float]) -> bool:
    """Two figures set large side by side, a gap apart ("72%*    81%**"): two callouts, each over
    its own label, not one line (a table's figures in the page's usual type stay one row)."""
    if max(b.bbox[0] - a.bbox[2], a.bbox[0] - b.bbox[2]) < min(a.size, b.size):
        return False
    if not (FIGURE.match(a.text) and FIGURE.match(b.text)):
        return False
    if not usual:
        sizes: dict[float, int] = {}
        for block in blocks:
            for raw in block.get("lines", ()):
                for span in raw["spans"]:
                    size = round(span["size"], 1)
                    sizes[size] = sizes.get(size, 0) + len(span["text"])
        usual.append(max(sizes, key=sizes.__getitem__) if sizes else 0.0)
    return min(a.size, b.size) >= DISPLAY_SIZE_RATIO * usual[0]


def _same_baseline(a: Line, b: Line) -> bool:
    """b continues a on the same visual line: a bullet and its text, a split span."""
    if a.rotated or b.rotated:
        return False
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    gap = max(b.bbox[0] - a.bbox[2], a.bbox[0] - b.bbox[2])  # right-to-left text continues leftwards
    if (
        gap >= SOLID_GUTTER * max(a.size, b.size)
        and text_length(a.text) >= GUTTER_RUN_CHARS
        and text_length(b.text) >= GUTTER_RUN_CHARS
    ):
        # Two runs of text a gutter apart: lines of two columns, not a marker and its text. Han,
        # kana and Hangul are set solid (Korean's word spaces are a third of an em), so half an
        # em between two such runs is a gutter already; elsewhere a gap under an em may be a
        # justified line's space.
        if gap >= max(a.size, b.size) or (_solid(a.text) and _solid(b.text)):
            return False
    return overlap > SAME_ROW * min(a.height, b.height) and -BASELINE_BACKSTEP < gap < BASELINE_REACH * max(
        a.size, b.size
    )


def _spaced(line: Line, spans: list[dict]) -> list[tuple[int, int]]:
    out = [(id(line), 0)] if spans[0]["text"][:1].isspace() else []
    return out + [(id(line), 1)] if spans[-1]["text"][-1:].isspace() else out


_WIDE = re.compile(
    "[\u1100-\u11ff\u2e80-\u303f\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff60]"
)
"""Full-width letters and punctuation (Han, kana, Hangul): each takes an em, as a word of two or
three Latin letters does."""


def _solid(text: str) -> bool:
    """Set mostly in full-width characters (Korean keeps its spaces between words)."""
    return not text.isascii() and 2 * len(_WIDE.findall(text)) >= len(text) - text.count(" ")


def text_length(text: str) -> int:
    """The text's length in Latin letters' worth: a full-width character counts two (a line of 20
    Han characters carries as much as a line of 40 letters)."""
    return len(text) if text.isascii() else len(text) + len(_WIDE.findall(text))


def _merge(row: list[Line], spaced: set[tuple[int, int]] | None = None) -> Line:
    if len(row) == 1:
        return row[0]
    rtl = _mostly_right_to_left(row)
    row.sort(key=lambda line: -line.bbox[2] if rtl else line.bbox[0])  # reading order
    text = row[0].text
    for before, line in zip(row, row[1:]):
        text = text.rstrip("\u00ad")
        if (
            rtl
            and spaced is not None
            and not {(id(before), 1), (id(line), 0)} & spaced
            and _joined_letters(before, line, text)
        ):
            text += line.text  # a cursive word cut in two pieces that touch: "ک" + "الا" is "کالا"
        else:
            text += " " + line.text
    main = max(row, key=lambda line: len(line.text))
    box = (
        min(line.bbox[0] for line in row),
        min(line.bbox[1] for line in row),
        max(line.bbox[2] for line in row),
        max(line.bbox[3] for line in row),
    )
    return Line(text, box, main.size, main.bold, row[0].block, italic=main.italic, mono=main.mono, mixed=main.mixed)


def _mostly_right_to_left(row: list[Line]) -> bool:
    """Most of the row's letters are of a right-to-left script: its pieces read from the right.
    An English line quoting an Arabic phrase reads from the left (a piece right of the phrase,
    " was", went before the line it ends)."""
    texts = [line.text for line in row if not line.text.isascii()]
    if not texts:
        return False
    rtl = sum(len(RIGHT_TO_LEFT.findall(t)) for t in texts)
    return 2 * rtl > sum(c.isalpha() for line in row for c in line.text)


def _joined_letters(before: Line, after: Line, text: str) -> bool:
    """Right-to-left pieces of one row that touch (no gap between the glyphs), each side a
    letter of the script: one word, as cursive letters joined on the page are."""
    if abs(before.bbox[0] - after.bbox[2]) > JOINED_LETTERS_GAP * max(before.size, after.size, 1.0):
        return False
    end, start = text[-1:], after.text[:1]
    return bool(
        end and start and RIGHT_TO_LEFT.match(end) and RIGHT_TO_LEFT.match(start) and end.isalpha() and start.isalpha()
    )


def inside(box: tuple[float, float, float, float], rects: Iterable[tuple[float, float, float, float]]) -> bool:
    """The box's centre lies in one of the rects."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in rects)


def side_by_side(a: Line, b: Line, share: float) -> bool:
    """a and b sit on one row (they overlap by `share` of the lower line's height), apart across."""
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    return overlap > share * min(a.height, b.height) and min(a.bbox[2], b.bbox[2]) <= max(a.bbox[0], b.bbox[0])
