"""The PDF reader as two ordered lists of named passes: `PAGE_PASSES` run on each page in turn,
then `DOCUMENT_PASSES` on what the pages gave. `loader.load` runs them; nothing else decides the
order, so a new rule goes in one place and its position says what it can rely on.

Each pass reads the evidence named in its docstring from a working record (`PageWork`,
`DocumentWork`) and writes what it decides there. A page pass returns False to drop the page
(a garbage text layer, a page with nothing on it); the rest of the page's passes do not run.

The work records are mutable on purpose: they are the state of one page or one document while
it is read, never kept or shared. The model the passes decide about (`model.py`: `Line`,
`PageLines`, `Unit`, `Grid`) is frozen: a pass writes its decision about a unit as a new unit
with the typed field set (`replace`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import pymupdf

from ...blocks import Block, Document
from . import loader as _loader
from .figures import figure_lines, figure_regions, tabulated
from .headings import heading_levels
from .hyphens import Spelling, spelling
from .lines import extract, mend_drop_caps, raw_text, restore_glyph_order, span_text
from .margins import recurring
from .model import Box, Line, PageLines, Unit
from .overprint import single_printed
from .paragraphs import box_of
from .rejoin import rejoin
from .shaded_lines import rejoin_shaded_lines
from .tables import shading_within
from .text_boxes import text_boxes
from .text_layer import PageText
from .thresholds import FIGURE_MIN_PATHS, VECTOR_BLOCK
from .word_spaces import restore_word_spaces


@dataclass
class PageWork:
    """One page while its passes run: what MuPDF gave, and what the passes decided so far."""

    page: pymupdf.Page
    number: int
    rect: pymupdf.Rect
    textpage: pymupdf.TextPage
    blocks: list[dict]
    in_tables: list[Line]
    """The document's lines read as table cells (shared by all pages: the body size counts them)."""
    text: list[dict] = field(default_factory=list)
    script: str = ""
    verdict: PageText | None = None
    raw: Any = None
    glyphs: Any = None
    vectors: list[dict] = field(default_factory=list)
    tables: list[Unit] = field(default_factory=list)
    plots: list[Box] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    boxes: tuple[Box, ...] = ()


@dataclass
class DocumentWork:
    """The document while its passes run: the pages read, and what the passes decided so far."""

    read: list[tuple[list[Line], list[Unit], int, pymupdf.Rect, tuple[Box, ...], str]]
    in_tables: list[Line]
    verdicts: list[PageText]
    toc: list
    document: Document
    pages: list[tuple[PageLines, list[Unit]]] = field(default_factory=list)
    body: float = 0.0
    units: list[tuple[PageLines, list[Unit]]] = field(default_factory=list)
    spelt: Spelling | None = None
    blocks: tuple[Block, ...] = ()


# -- page passes ---------------------------------------------------------------------------------


def shaded_lines(w: PageWork) -> None:
    """Reads the text blocks and the fills behind them; puts back together the lines of one
    shaded block that MuPDF split into blocks of their own."""
    rejoin_shaded_lines(w.blocks)


def text_layer(w: PageWork) -> bool:
    """Reads the page's characters, its text lines' boxes and (for little text) its images;
    decides the verdict on the text layer (usable, garbage, scan, empty). A garbage page stops."""
    w.text = [b for b in w.blocks if b["type"] == 0]
    w.script = span_text(w.text)
    w.verdict = _loader._judge(w.page, w.number, w.rect, w.text, w.script)
    return w.verdict.verdict != "garbage"


def glyph_order(w: PageWork) -> None:
    """Reads each glyph's box and the raw text; decides the order of right-to-left glyphs, the
    word spaces a layout left out, and drops the second copy of overprinted (fake bold) text."""
    w.raw = raw_text(w.textpage)
    w.glyphs = restore_glyph_order(w.raw, w.text, w.script)
    restore_word_spaces(w.raw, w.text, w.script if w.glyphs is None else span_text(w.text))
    w.text = single_printed(w.raw, w.text)


def ruled_tables(w: PageWork) -> None:
    """Reads the vector drawings (rules, fills) and the words; decides the page's ruled and
    shaded tables and the grids that are plots, and drops fills hidden inside a fill of their
    colour (they draw nothing: no figure's mark, no cell's edge)."""
    vectors = [b for b in w.blocks if b["type"] == VECTOR_BLOCK]
    hidden, shading = shading_within(vectors) if len(vectors) >= 2 else (set(), set())
    ruled = [v for k, v in enumerate(vectors) if k not in shading] if shading else vectors
    w.tables, w.plots = _loader._tables(w.textpage, w.raw, w.text, ruled, w.number, w.glyphs)
    w.tables = [replace(t, pdf_pass="ruled_tables") for t in w.tables]
    w.vectors = [v for k, v in enumerate(vectors) if k not in hidden] if hidden else vectors


def text_lines(w: PageWork) -> None:
    """Reads the spans outside the framed tables; decides the page's lines (a table ruled
    across only is left to the alignment rule) and mends drop capitals into their lines."""
    framed = [t.bbox for t in w.tables if t.bbox is not None and not t.across]
    w.lines = mend_drop_caps(extract(w.text, framed, w.in_tables))


def figures(w: PageWork) -> None:
    """Reads the drawings' paths, the plots, stacked bar charts, the tables' boxes and whether
    the text over a drawing lines up as a table's; decides the figures' regions (shading behind a
    table's rows is none) and takes the lines inside them as each figure's."""
    if len(w.vectors) >= FIGURE_MIN_PATHS and w.lines:
        regions = figure_regions(
            [v["bbox"] for v in w.vectors],
            w.plots + _loader._charts(_loader._stacked(w.vectors), w.lines),
            w.rect.width,
            w.rect.height,
            [t.bbox for t in w.tables if t.bbox is not None],
        )
        tables = tabulated(regions, w.vectors, w.lines, w.number)
        regions = [r for r in regions if r not in tables]
        held, w.lines = figure_lines(w.lines, regions)
        w.tables += [Unit("figure", ls, w.number, bbox=box_of(ls), region=region) for region, ls in held]


def empty_page(w: PageWork) -> bool:
    """Reads whether anything is left and the page's images; a page with neither lines nor
    tables stops, said a scan (images, no text) or empty."""
    if w.lines or w.tables:
        return True
    assert w.verdict is not None
    if w.verdict.verdict == "usable" and w.page.get_images():  # small images and no text
        w.verdict = PageText(w.number, "scan", "images and no text")
    elif w.verdict.verdict == "usable":
        w.verdict = PageText(w.number, "empty")
    return False


def boxes(w: PageWork) -> None:
    """Reads the fills and the lines over them; decides the text boxes (a framed aside)."""
    w.boxes = text_boxes(w.vectors, w.lines, w.rect.width, w.rect.height)


PagePass = Callable[[PageWork], bool | None]
PAGE_PASSES: tuple[PagePass, ...] = (
    shaded_lines,
    text_layer,
    glyph_order,
    ruled_tables,
    text_lines,
    figures,
    empty_page,
    boxes,
)
"""Run in this order on each page; a pass that returns False drops the page."""


# -- document passes -----------------------------------------------------------------------------


def margins(d: DocumentWork) -> None:
    """Reads every page's lines and the lines that recur across pages; decides each page's
    top, bottom and side bands (headers, footers, page numbers, line numbers) apart from the body."""
    repeated = recurring([(lines, rect.height) for lines, _, _, rect, _, _ in d.read])
    d.pages = [
        (_loader._placed(lines, number, rect, repeated, label, boxes), tables)
        for lines, tables, number, rect, boxes, label in d.read
    ]


def body_size(d: DocumentWork) -> None:
    """Reads the body's lines and the table cells' sizes; decides the body's size, the one most
    characters are set in (band lines that rejoin the body below do not change it)."""
    d.body = _loader._body_size(d.pages, d.in_tables)


def rejoin_bands(d: DocumentWork) -> None:
    """Reads the band lines, how often each recurs and its size against the body's; returns to
    the body the band lines that are its text (a title on one page, a paragraph run into the band)."""
    d.pages = rejoin(d.pages, d.body)


def table_heads(d: DocumentWork) -> None:
    """Reads the lines right over each table; decides which are its column heads."""
    d.pages = [_loader._heads(page) for page in d.pages]


def units(d: DocumentWork) -> None:
    """Reads each page's body lines and tables; decides the aligned tables, paragraphs, list
    items and the marks on units (in a figure, sharing a row) that headings read."""
    d.units = [(placed, _loader._units(placed, tables)) for placed, tables in d.pages]


def hyphens(d: DocumentWork) -> None:
    """Reads every line's words; decides which line-end hyphens join a word (the document's own
    spelling of each)."""
    d.spelt = spelling([[line.text for line in u.lines] for _, page_units in d.units for u in page_units])


def headings(d: DocumentWork) -> None:
    """Reads the units (their type, size, weight, numbering, place on the page), the outline and
    the body size; decides which units are headings and their levels."""
    # A scan's few words (a filing stamp, a date) say nothing of the document's structure.
    scans = frozenset(v.page for v in d.verdicts if v.verdict == "scan")
    levels = heading_levels((u for _, units in d.units for u in units if u.page not in scans), d.toc, d.body)
    d.units = [(placed, [_leveled(u, levels) for u in units]) for placed, units in d.units]


def _leveled(unit: Unit, levels: dict[int, int]) -> Unit:
    level = levels.get(id(unit))
    return unit if level is None else replace(unit, level=level)


def blocks(d: DocumentWork) -> None:
    """Reads the units, their heading levels and the body size; decides footnotes, paragraphs run
    on across pages, the heading path of each block, and the blocks in reading order."""
    assert d.spelt is not None
    d.blocks = tuple(_loader._blocks(d.units, d.document.title, d.body, d.spelt))


DocumentPass = Callable[[DocumentWork], None]
DOCUMENT_PASSES: tuple[DocumentPass, ...] = (
    margins,
    body_size,
    rejoin_bands,
    table_heads,
    units,
    hyphens,
    headings,
    blocks,
)
"""Run in this order on the document once every page is read."""


def run_page(w: PageWork) -> bool:
    """The page passes in order; False when one dropped the page."""
    return all(p(w) is not False for p in PAGE_PASSES)


def run_document(d: DocumentWork) -> DocumentWork:
    for p in DOCUMENT_PASSES:
        p(d)
    return d
