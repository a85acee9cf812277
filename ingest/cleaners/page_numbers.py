"""Drop page numbers: a number, roman numeral, "- 3 -" or "Page 3" alone at a page's top or bottom.

The PDF loader keeps each line in a page's top or bottom band apart from the body as its own block
(`meta["band"]`), with the pieces laid out on it in `meta["segments"]`. A piece at either end of
such a line that reads as a page number is a candidate; the candidates that form a non-decreasing
sequence across pages (the longest such run; a lone candidate stands) are page numbers, and the
line holding one is dropped, header text beside the number included ("8  M. Lysak, et al.").

A header that runs a chapter's title and the page number together into one piece ("Chapter 3.
Row and column access control 15") shows the number as its first or last word: it counts when it
is the PDF's own page label, or when it keeps a constant step from the page index over two pages
or more (chapter-page labels "7-45" within their chapter likewise, and an appendix's "A-1" alone on
its line).

Such a header is the same line on every page it is on but for its number, so where one page's copy
goes, the others go with it ("12 | Annual Report" on a page between two unnumbered dividers, whose
number steps from the page index as no other page's does): this cleaner runs before
`running_headers`, which would see too few of the header's pages left to find it recurring.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from pydantic import BaseModel

from ..blocks import Block
from ..page_furniture import band_key
from . import CleanContext, Cleaner

_NUMBER = re.compile(
    r"(?i)^(?:page\s*)?[-\u2013\u2014(\[]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014)\]]?"
    r"(?:\s*(?:of|/)\s*\d{1,4})?$"
)
_PRINTED = re.compile(r"(\d{1,3}[-\u2013.]|[A-Z][-\u2013.])?(\d{1,4})")
"""A page number printed beside text: "15", or chapter-page "7-45", "A-3"."""
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


class PageNumberOptions(BaseModel):
    whole_line: bool = True
    """Drop the text beside the number on its line too (a running header sharing the line)."""


def drop_page_numbers(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    opts = ctx.options_as(PageNumberOptions)
    blocks = list(blocks)
    found: dict[str, list[tuple[int, int, int]]] = {"arabic": [], "roman": []}  # (page, value, index)
    pieces: dict[int, str] = {}
    for i, block in enumerate(blocks):
        if not block.meta or block.meta.get("band") not in ("top", "bottom"):
            continue
        segments = block.meta.get("segments") or (block.text,)
        for piece in dict.fromkeys((segments[0], segments[-1], block.text)):
            value = _value(piece)
            if value is not None:
                found[value[0]].append((block.page or 0, value[1], i))
                pieces[i] = piece
                break
    drop = {i for run in found.values() for i in _sequence(run)}
    printed = _printed_numbers(blocks, drop)
    for i, piece in printed.items():
        drop.add(i)
        pieces[i] = piece
    for i, piece in _same_line(blocks, drop, pieces).items():
        drop.add(i)
        pieces[i] = piece
    for i, block in enumerate(blocks):
        if i not in drop:
            yield block
            continue
        ctx.count("lines", 1)
        if opts.whole_line or block.text.strip() == pieces[i].strip():
            ctx.count("chars", len(block.text))
            continue
        rest = " ".join(s for s in block.meta.get("segments", ()) if s != pieces[i])
        ctx.count("chars", len(block.text) - len(rest))
        yield replace(block, text=rest)


def _printed_numbers(blocks: list[Block], taken: set[int]) -> dict[int, str]:
    """Band lines that carry their page's number at one end, beside other text ("Chapter 3. Row
    and column access control 15", "7-45 Installation"): the number found there is the PDF's own
    page label, or it rises with the pages by a constant step from the page index on two pages or
    more (chapter-page numbers "7-44", "7-45" within their chapter)."""
    out: dict[int, str] = {}
    runs: dict[tuple[str, int], list[tuple[int, int, str]]] = {}  # (prefix, offset): (page, index, token)
    for i, block in enumerate(blocks):
        if i in taken or not block.meta or block.meta.get("band") not in ("top", "bottom"):
            continue
        label = str(block.meta.get("page_label") or "").strip().lower()
        for token in _edge_tokens(block):
            if label and token.lower() == label:
                out[i] = token
                break
            m = _PRINTED.fullmatch(token)
            if m is not None and block.page is not None:
                key = (m.group(1) or "", int(m.group(2)) - block.page)
                runs.setdefault(key, []).append((block.page, i, token))
    for members in runs.values():
        if len({page for page, _, _ in members}) >= 2:
            out.update((i, token) for _, i, token in members if i not in out)
    return out


def _same_line(blocks: list[Block], taken: set[int], pieces: dict[int, str]) -> dict[int, str]:
    """Band lines that are a taken line with text beside its number, but for the number ("12 |
    Annual Report" where "10 | Annual Report" went): a page whose number steps from the page
    index as no other page does (between two unnumbered dividers) shows the same header. The
    number must differ: a number that stays the same from page to page is a chapter's ("1 Getting
    Started"), however it came to be taken on one page. The word at the number's end goes as the
    piece."""
    keys: dict[tuple[str, str], tuple[bool, set[str]]] = {}
    for i in taken:
        text = blocks[i].text.strip()
        if any(c.isalpha() for c in text) and text != pieces[i].strip():
            key = (str(blocks[i].meta["band"]), band_key(text))
            keys.setdefault(key, (text.startswith(pieces[i].strip()), set()))[1].add(text)
    out: dict[int, str] = {}
    for i, block in enumerate(blocks):
        if i in taken or not block.meta or block.meta.get("band") not in ("top", "bottom"):
            continue
        found = keys.get((str(block.meta["band"]), band_key(block.text)))
        words = block.text.split()
        if found is not None and words and block.text.strip() not in found[1]:
            out[i] = words[0] if found[0] else words[-1]
    return out


def _edge_tokens(block: Block) -> list[str]:
    """The first and last word of the line and of its first and last pieces (a line of one word:
    that word, "A-1" alone at the foot of an appendix's page)."""
    segments = block.meta.get("segments") or (block.text,)
    tokens = []
    for text in dict.fromkeys((block.text, segments[0], segments[-1])):
        words = text.split()
        tokens += [words[0], words[-1]] if words else []
    return list(dict.fromkeys(tokens))


def _value(piece: str) -> tuple[str, int] | None:
    m = _NUMBER.match(piece.strip())
    if m is None:
        return None
    token = m.group(1)
    if token.isdigit():
        return "arabic", int(token)
    return "roman", _roman(token.lower())


def _roman(token: str) -> int:
    total = 0
    for a, b in zip(token, token[1:] + " "):
        v = _ROMAN[a]
        total += -v if b != " " and _ROMAN[b] > v else v
    return total


def _sequence(found: list[tuple[int, int, int]]) -> list[int]:
    """Indexes of the longest run of candidates whose values never fall as the pages rise."""
    found.sort()
    if not found:
        return []
    best = [1] * len(found)
    prev = [-1] * len(found)
    for j in range(len(found)):
        for i in range(j):
            if found[i][0] < found[j][0] and found[i][1] <= found[j][1] and best[i] + 1 > best[j]:
                best[j], prev[j] = best[i] + 1, i
    j = max(range(len(found)), key=best.__getitem__)
    run = []
    while j != -1:
        run.append(found[j][2])
        j = prev[j]
    # Several numbers on one page (a two-page spread: 12 and 13) go with the page's number in the
    # run; a table's "2016" heading a column on that page does not.
    values = {found[k][0]: found[k][1] for k in range(len(found)) if found[k][2] in run}
    return [idx for page, value, idx in found if page in values and abs(value - values[page]) <= 2]


cleaner = Cleaner(
    name="page_numbers",
    run=drop_page_numbers,
    options=PageNumberOptions,
    default_for=frozenset({"application/pdf"}),
)
