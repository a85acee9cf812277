"""Drop running headers and footers: lines that recur in the top or bottom band of many pages.

The PDF loader keeps every line that sits in a page's top or bottom band apart from the body as a
block of its own with `meta["band"]`. Lines are compared with digits normalised ("Page 3" and
"Page 4" are one line) and small differences tolerated, and a line recurring on enough of the
document's pages is dropped. A document of one or two pages cannot show recurrence on enough pages
to lose body text this way: the threshold never goes below two pages, and then only band lines
count. Known stamps (PACER's "Case: ... Document: ... Page: ..." line, "Page 3 of 17") are dropped
wherever they sit in a band, since court filings are often too short to show recurrence.

Furniture that appears once (a journal masthead, a DOI or copyright footer, "Downloaded from ... on
DATE", "Vol. 8 | Issue 3") is judged by the line itself: a band line made mostly of such tokens
(`ingest.page_furniture`), an authors' running head ("Smith et al."), the title of a heading the
line sits under (a chapter's running title over its later pages), a short line set in pieces
between separators, or (in a document of one or two pages, too short to show recurrence) a short
line in the top band set in italics or clearly smaller than the body, is dropped. All only ever apply to lines the loader found apart from the body.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from difflib import SequenceMatcher

from pydantic import BaseModel, Field

from ..blocks import Block
from ..page_furniture import CAPTION, STAMP, band_key, furniture_like, is_page_number
from ..type_sizes import body_size
from . import CleanContext, Cleaner, drop_lines

_ET_AL = re.compile(r"\bet al\b\.?")
_SEPARATED = re.compile(r"\s[|\u2022\u00b7\u2219]\s")
PACER = r"(?i)^case:?\s+\S+.*\bdoc(ument)?\b.*\bpage\b"
PAGE_OF = r"(?i)^page\s+\d+\s+of\s+\d+$"


class RunningHeaderOptions(BaseModel):
    min_share: float = Field(0.3, gt=0, le=1)
    """Share of the document's pages a line must recur on (alternating odd/even headers: ~0.5)."""
    min_pages: int = Field(2, ge=2)
    min_run: int = Field(3, ge=2)
    """Pages in a row (alternate pages count) a line recurring on fewer than `min_share` must recur on."""
    similarity: float = Field(0.8, gt=0, le=1)
    """How alike two lines must be, digits normalised, to count as the same header."""
    patterns: list[str] = [PACER, PAGE_OF]
    """Regexes for stamps dropped from any band even without recurrence."""
    side_stamps: bool = True
    """Also drop rotated text in the side margins (arXiv identifiers, filing stamps)."""
    one_off: bool = True
    """Drop band lines that are furniture by their content or type even without recurrence."""


def drop_running_headers(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    opts = ctx.options_as(RunningHeaderOptions)
    blocks = list(blocks)
    pages = {b.page for b in blocks if b.page is not None}
    need = max(opts.min_pages, math.ceil(opts.min_share * len(pages)))
    patterns = [re.compile(p) for p in opts.patterns]
    drop: set[int] = set()
    body = _body_size(blocks) if opts.one_off else 0.0
    floats: dict[int, list[tuple[float, float, float, float]]] = {}
    for block in blocks:
        if block.kind in ("figure", "table") and block.bbox is not None and block.page is not None:
            floats.setdefault(block.page, []).append(block.bbox)
    clusters: list[tuple[str, str, set[int], list[int]]] = []  # band, key, pages, block indexes
    for i, block in enumerate(blocks):
        band = block.meta.get("band") if block.meta else None
        if band in ("left", "right") and opts.side_stamps and block.meta.get("rotated"):
            drop.add(i)
            continue
        if band not in ("top", "bottom"):
            continue
        if any(p.search(s) for p in patterns for s in _pieces(block)):
            drop.add(i)
            continue
        if band == "top" and opts.one_off and _stamp(block, floats.get(block.page or 0, ())):
            drop.add(i)
            continue
        if opts.one_off and (_one_off(block, band, body, short=len(pages) <= 2) or _names_its_section(block)):
            drop.add(i)
            continue
        key = band_key(block.text)
        for c_band, c_key, c_pages, members in clusters:
            if c_band == band and _alike(key, c_key, opts.similarity):
                c_pages.add(block.page or 0)
                members.append(i)
                break
        else:
            clusters.append((band, key, {block.page or 0}, [i]))
    for _, _, c_pages, members in clusters:
        if len(c_pages) >= need:
            drop.update(members)
        else:  # the same line, not merely a like one: a statement's title block ("... and
            # Subsidiaries / Consolidated Balance Sheet") changes from page to page
            same: dict[str, set[int]] = {}
            for i in members:
                same.setdefault(band_key(blocks[i].text), set()).add(blocks[i].page or 0)
            drop.update(i for i in members if blocks[i].page in _runs(same[band_key(blocks[i].text)], opts.min_run))
    yield from drop_lines(blocks, drop, ctx)


def _runs(pages: set[int], least: int) -> set[int]:
    """Pages of the stretches where a line recurs on `least` pages or more, none more than one page
    apart: a chapter's running title, or a "Table of Contents" link atop a report's pages but not
    its exhibits', recurs on too few of the document's pages to pass the share, but page after page."""
    out: set[int] = set()
    run: list[int] = []
    for page in sorted(pages) + [None]:
        if run and (page is None or page - run[-1] > 2):
            if len(run) >= least:
                out.update(run)
            run = []
        if page is not None:
            run.append(page)
    return out


def _one_off(block: Block, band: str, body: float, short: bool) -> bool:
    if CAPTION.match(block.text):
        return False  # a figure's caption set at the page's edge
    pieces = block.meta.get("segments") or (block.text,)
    if furniture_like(block.text) or all(furniture_like(p) or is_page_number(p) for p in pieces):
        return True
    words = len(block.text.split())
    if words <= 15 and (_ET_AL.search(block.text) or len(_SEPARATED.split(block.text)) >= 3):
        return True  # an authors' running head, or "Journal | Vol. 8 | Page 3" set in pieces
    if band != "top" or words > 20 or not short:
        # A footnote may sit low, in small type or in italics; and in a longer document a running
        # header shows by recurring, while a table's column heads may open a page in small type.
        return False
    size = block.meta.get("font_size") or 0.0
    # A masthead or running title above the body, in small type or in italics.
    return (body > 0 and 0 < size <= body - 1.0) or bool(block.meta.get("italic"))


def _stamp(block: Block, floats: Sequence[tuple[float, float, float, float]]) -> bool:
    """An exhibit stamp atop the page (`STAMP`), unless a figure or table starts just under it, as
    under a figure's label ("Exhibit 2" over its chart)."""
    if not STAMP.match(block.text.strip()):
        return False
    if block.bbox is None:
        return True
    x0, _, x1, y1 = block.bbox
    reach = 3 * max(block.bbox[3] - block.bbox[1], 8.0)
    return not any(b[0] < x1 and x0 < b[2] and -2 <= b[1] - y1 <= reach for b in floats)


def _names_its_section(block: Block) -> bool:
    """A band line that is the title of a heading it sits under, or of the document ("Chapter 1:
    Background" atop the chapter's later pages): a chapter's running title, however few pages the
    chapter has. The chunk's heading path carries the same words. A line set in pieces names its
    sections piece by piece ("Product Introduction" and "2 Advantages" over that chapter's pages),
    a page number beside them."""
    titles = {_letters(title) for title in block.path}
    key = _letters(block.text)
    if len(key) >= 4 and key in titles:
        return True
    pieces = block.meta.get("segments") or ()
    named = [p for p in pieces if not is_page_number(p)]
    return len(named) >= 2 and all(len(_letters(p)) >= 4 and _letters(p) in titles for p in named)


def _letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _body_size(blocks: list[Block]) -> float:
    """The size most body text is set in, over the blocks outside the bands and not headings (the
    loader counts lines and table cells instead: `ingest.type_sizes` says why they differ)."""
    return body_size(
        (b.meta["font_size"], len(b.text))
        for b in blocks
        if b.kind != "heading" and (b.meta or {}).get("band") is None and (b.meta or {}).get("font_size")
    )


def _pieces(block: Block) -> tuple[str, ...]:
    """The whole line, and each piece of it: stamps are matched on either."""
    return (block.text, *block.meta.get("segments", ()))


def _alike(a: str, b: str, threshold: float) -> bool:
    if a == b:
        return True
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return (
        matcher.real_quick_ratio() >= threshold and matcher.quick_ratio() >= threshold and matcher.ratio() >= threshold
    )


cleaner = Cleaner(
    name="running_headers",
    run=drop_running_headers,
    options=RunningHeaderOptions,
    default_for=frozenset({"application/pdf"}),
)
