"""PDF loader (pymupdf, AGPL-3.0): pages to headings, paragraphs, list items and tables.

Loaders describe, cleaners decide. The catch with PDFs is that paragraphs must be rebuilt from
lines here, and a running header or a pleading line number glued into a paragraph could never be
taken out again by a cleaner. So the loader sorts lines by place before it builds anything:

- lines in the top or bottom band of a page that do not read on into the body (other size, a gap,
  a bare page number), rotated text in the side margins and bare small numbers left of the body's
  left edge (a line-number gutter) never join a paragraph. Each such header line becomes its own
  block of kind "paragraph" with `meta["band"]` ("top", "bottom", "left", "right"), its
  `meta["segments"]` (the pieces of the line, left to right, as laid out) and `meta["font_size"]`.
- everything else is body: read in column order, rebuilt into paragraphs (joined across lines,
  columns and pages, hyphenation undone, ligatures and soft hyphens normalised), list items
  (`level` by marker indent) and headings; ruled tables, found from the vector rules read in the
  same pass as the text (`pdf_tables`, the grids pymupdf's table finder finds), become table
  blocks and their words are kept out of the paragraphs.

Whether a margin block is a running header, a page number or a gutter line number is decided by
the `running_headers`, `page_numbers` and `line_numbers` cleaners, which drop what they recognise
and leave the rest (a one-off line at a page's top stays text). A block whose `meta["band"]` is
None is body text.

Headings come from the outline (`get_toc`) when it has at least two entries, else from font
statistics: a short unit in a larger size than the body, or all bold, is a heading (not a clerk's
stamp such as "FILED", a date or a lone letter); levels rank
the heading sizes, deepened by section numbers ("2.1"). Blocks carry `page` (1-based, the page
where they start), `bbox`, and `meta["page_end"]` where a paragraph runs onto a later page.

A PDF without any text layer (a scan) raises `LoaderError`: indexing it would store nothing and
report success, while an error is recorded in the state DB and says to OCR the file. Pages that hold
images but no text in an otherwise textual PDF give a `Loaded.warnings` entry instead.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Iterator

import pymupdf

from ..blocks import Block, Document, Loaded
from ..errors import LoaderError
from ..table_text import render_table
from .pdf_lines import TEXT_FLAGS, GlyphOrder, Line, PageLines, extract, restore_glyph_order, split_margins
from .pdf_paragraphs import (TERMINAL, Unit, box_of, continues, list_marker, page_units, section_depth,
                              stamp_like)
from .pdf_tables import cell_texts, find_grids

pymupdf.TOOLS.mupdf_display_errors(False)

_JUNK_TITLE = re.compile(r"(?i)^(microsoft \w+ - |untitled\b)|\.(docx?|pdf|rtf|odt)$")


def load(data: bytes, document: Document) -> Loaded:
    doc = _open(data, document)
    try:
        pages, in_tables, warnings = _read_pages(doc, document)
        toc = doc.get_toc(simple=True)
        title = (doc.metadata or {}).get("title", "").strip()
    finally:
        doc.close()
    if title and not _JUNK_TITLE.search(title):
        document = replace(document, title=title)
    elif not document.title:
        document = replace(document, title=document.name)
    body = _body_size(pages, in_tables)  # the lifted band headings below are not body lines: it stays
    blocks = tuple(_blocks(_band_headings(pages, body), toc, document.title, body))
    return Loaded(document=document, blocks=blocks, warnings=tuple(warnings))


def _open(data: bytes, document: Document) -> pymupdf.Document:
    if not data:
        raise LoaderError("empty file (0 bytes); re-export or re-download it", subject=document.uri)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise LoaderError(f"not a readable PDF ({exc}); the file is damaged or not a PDF",
                          subject=document.uri) from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise LoaderError("encrypted PDF needs a password; save an unprotected copy to index it",
                          subject=document.uri)
    if doc.page_count == 0:
        doc.close()
        raise LoaderError("PDF has no pages; the file is damaged", subject=document.uri)
    return doc


def _read_pages(
    doc: pymupdf.Document, document: Document
) -> tuple[list[tuple[PageLines, list[Unit]]], list[Line], list[str]]:
    """Each page's placed lines and units, the lines that were read as table cells, and warnings."""
    pages: list[tuple[PageLines, list[Unit]]] = []
    in_tables: list[Line] = []
    imaged: list[int] = []
    for page in doc:
        number = page.number + 1
        # One pass over the page: its text, and the vector rules the tables are found from.
        textpage = page.get_textpage(flags=TEXT_FLAGS)
        blocks = page.get_text("dict", textpage=textpage)["blocks"]
        text = [b for b in blocks if b["type"] == 0]
        glyphs = restore_glyph_order(page, textpage, text)
        tables = _tables(page, textpage, text, [b for b in blocks if b["type"] == 3], number, glyphs)
        lines = extract(text, [t.bbox for t in tables if t.bbox is not None], in_tables)
        if not lines and not tables:
            if page.get_images():
                imaged.append(number)
            continue
        rect = page.rect
        placed = split_margins(lines, number, rect.width, rect.height)
        pages.append((placed, page_units(placed.body, tables, number)))
    if not pages:
        raise LoaderError("no text layer (a scanned or image-only PDF); run OCR on it (e.g. ocrmypdf) "
                          "and index the result", subject=document.uri)
    warnings = []
    if imaged:
        warnings.append(f"{document.uri}: pages {_ranges(imaged)} are images without text and were "
                        "skipped; OCR the file to index them")
    return pages, in_tables, warnings


def _tables(page: pymupdf.Page, textpage: pymupdf.TextPage, text: list[dict], vectors: list[dict],
            number: int, glyphs: GlyphOrder | None) -> list[Unit]:
    """Tables framed by the page's rules, their cells filled with the page's words."""
    if len(vectors) < 2:
        return []  # one rectangle frames, it does not divide
    boxes = _geometry(vectors)
    rects = [box for box, v in zip(boxes, vectors) if v["isrect"]]
    # Curved or slanted shapes count only where they could frame cells (a rounded box): a chart's
    # hundreds of small marks would cost the grouping dearly and frame nothing.
    shapes = rects + [b for b, v in zip(boxes, vectors)
                      if not v["isrect"] and min(b[2] - b[0], b[3] - b[1]) >= 10]
    centres: list[tuple[float, float]] = []

    def has_text(box: tuple[float, float, float, float]) -> bool:
        if not centres:  # only pages with rules that could make a grid get this far
            centres.extend(((s["bbox"][0] + s["bbox"][2]) / 2, (s["bbox"][1] + s["bbox"][3]) / 2)
                           for b in text for l in b["lines"] for s in l["spans"] if s["text"].strip())
        x0, y0, x1, y1 = box
        return any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in centres)

    grids = [g for g in find_grids(rects, shapes, has_text) if len(g.rows) > 1]
    if not grids:
        return []
    words = page.get_text("words", textpage=textpage)
    if glyphs is not None:
        words = glyphs.words(words)
    units = []
    for grid in grids:
        rows = [tuple(_cell(c) for c in row) for row in cell_texts(grid, words)]
        header_rows = 1 if len(rows) > 1 else 0
        rows = [r for r in rows if any(r)]
        if len(rows) < 2 or max(len(r) for r in rows) < 2:
            continue  # a framed paragraph, not a table: its lines stay text
        units.append(Unit("table", [], number, rows=tuple(rows), header_rows=header_rows, bbox=grid.bbox))
    return units


def _geometry(vectors: list[dict]) -> list[tuple[float, float, float, float]]:
    """Rectangles as drawn: MuPDF widens a stroked path's box by half the line width all round.

    A stroked rule is as thick as its line, which gives the width; a stroked box does not, so it
    shrinks by half the page's usual rule width (or half a point).
    """
    thin = sorted(min(b[2] - b[0], b[3] - b[1]) for v in vectors if v["stroked"]
                  for b in [v["bbox"]] if min(b[2] - b[0], b[3] - b[1]) <= 3)
    usual = thin[len(thin) // 2] / 2 if thin else 0.5
    out = []
    for v in vectors:
        x0, y0, x1, y1 = v["bbox"]
        if v["stroked"]:
            w, h = x1 - x0, y1 - y0
            half = min(w, h) / 2 if min(w, h) <= 3 else usual
            if w > 2 * half:
                x0, x1 = x0 + half, x1 - half
            if h > 2 * half:
                y0, y1 = y0 + half, y1 - half
        out.append((x0, y0, x1, y1))
    return out


def _cell(value: str | None) -> str:
    return " ".join((value or "").split())


def _ranges(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers[:20]) + (" ..." if len(numbers) > 20 else "")


# -- headings ---------------------------------------------------------------------------------


def _body_size(pages: list[tuple[PageLines, list[Unit]]], in_tables: list[Line]) -> float:
    """The size most text is set in, table cells included: a form that is mostly tables would
    otherwise take its few headings for the body."""
    sizes: Counter[float] = Counter()
    for line in (line for placed, _ in pages for line in placed.body):
        sizes[line.size] += len(line.text)
    for line in in_tables:
        sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _heading_like(unit: Unit, body: float) -> bool:
    if unit.kind not in ("paragraph", "list_item") or len(unit.lines) > 3:
        return False
    size = unit.lines[0].size
    bold = all(l.bold for l in unit.lines)
    if size < body - 0.6 or (size < body + 0.9 and not bold):
        return False  # cheap test first: most units are body text
    if any(abs(l.size - size) > 0.5 for l in unit.lines):
        return False
    text = unit.text
    words = len(text.split())
    if len(text) > 150 or text.endswith((",", ";")):
        return False
    if unit.kind == "list_item" and not section_depth(text):
        return False
    if text.endswith(".") and words > 8:
        return False
    # Bigger alone is not enough (author lines run a point above the body): bold or much bigger.
    bigger = size >= body + 0.9 and (bold or size >= 1.2 * body)
    if not (bigger or (bold and words <= 14)):
        return False
    return not stamp_like(text)  # a bold "FILED" or date stamp is set like a heading but heads nothing


def _font_levels(pages: list[tuple[PageLines, list[Unit]]], body: float) -> dict[int, int]:
    """Heading level by id() of the unit, from size rank (larger is higher), deepened by numbering."""
    found = [u for _, units in pages for u in units if _heading_like(u, body)]
    sizes = sorted({round(u.lines[0].size * 2) / 2 for u in found}, reverse=True)
    levels = {}
    for unit in found:
        rank = sizes.index(round(unit.lines[0].size * 2) / 2) + 1
        levels[id(unit)] = min(6, max(rank, section_depth(unit.text)))
    return levels


def _toc_levels(pages: list[tuple[PageLines, list[Unit]]], toc: list) -> dict[int, int]:
    """Heading level by id() of the unit whose text opens with a bookmark's title on its page."""
    levels: dict[int, int] = {}
    by_page: dict[int, list[Unit]] = {}
    for _, units in pages:
        for unit in units:
            by_page.setdefault(unit.page, []).append(unit)
    for level, title, page in toc:
        key = _key(title)
        for unit in by_page.get(page, []):
            if id(unit) not in levels and unit.kind != "table" and key and _key(unit.text).startswith(key):
                levels[id(unit)] = min(9, max(1, level))
                break
    return levels


def _key(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _band_headings(pages: list[tuple[PageLines, list[Unit]]],
                   body: float) -> list[tuple[PageLines, list[Unit]]]:
    """A heading at the very top of a page (a title, a section opening a page) rejoins the body.

    Only a band line in a heading's type that appears on no other page's band: a running header
    set in bold must not become a section of the heading path.
    """
    seen: Counter[str] = Counter()
    for placed, _ in pages:
        for key in {_band_key(lines) for band, lines in placed.margin if band in ("top", "bottom")}:
            seen[key] += 1
    out = []
    for placed, units in pages:
        keep, lift = [], []
        for group in placed.margin:
            band, lines = group
            unit = Unit("paragraph", list(lines), placed.number)
            if band == "top" and seen[_band_key(lines)] == 1 and _heading_like(unit, body):
                lift.append(unit)
            else:
                keep.append(group)
        if lift:
            placed = replace(placed, margin=tuple(keep))
            units = lift + units
        out.append((placed, units))
    return out


def _band_key(lines: tuple[Line, ...]) -> str:
    return re.sub(r"\d+", "#", " ".join(l.text for l in lines).lower())


# -- blocks -----------------------------------------------------------------------------------


def _blocks(pages: list[tuple[PageLines, list[Unit]]], toc: list, title: str, body: float) -> Iterator[Block]:
    levels = _toc_levels(pages, toc) if len(toc) >= 2 else {}
    if not levels:
        levels = _font_levels(pages, body)
    ordered = [u for _, units in pages for u in units]
    firsts = [levels[id(u)] for u in ordered if id(u) in levels]
    sole_root = bool(firsts) and firsts[0] == 1 and firsts.count(1) == 1
    root: tuple[str, ...] = () if sole_root else (title,)
    stack: list[tuple[int, str]] = []
    path = root or (title,)
    pending: Unit | None = None
    pending_path = path
    held: list[Block] = []  # margin blocks met while a paragraph may still run on
    markers: list[float] = []  # x of open list markers: nesting depth of the next item

    def flush() -> Iterator[Block]:
        nonlocal pending
        if pending is not None:
            yield _text_block(pending, pending_path, markers)
            pending = None
        yield from held
        held.clear()

    for placed, units in pages:
        top = [g for g in placed.margin if g[0] == "top"]
        rest = [g for g in placed.margin if g[0] != "top"]
        held.extend(_margin_block(g, placed, path) for g in top)
        for unit in units:
            level = levels.get(id(unit))
            if level is not None:
                yield from flush()
                markers.clear()
                text = " ".join(unit.text.split())
                while stack and stack[-1][0] >= level:
                    stack.pop()
                stack.append((level, text))
                path = root + tuple(t for _, t in stack)
                yield Block("heading", text, path, level=level, page=unit.page, bbox=_bbox(unit),
                            meta={"font_size": unit.lines[0].size, "band": None})
                continue
            if pending is not None and unit.kind == "paragraph" and unit.page != pending.page and _runs_on(pending, unit):
                if pending.bbox is None:
                    pending.bbox = _bbox(pending)  # the box stays the one on the first page
                pending.lines.extend(unit.lines)  # runs on from the previous page
                pending.page_end = unit.page
                continue
            yield from flush()
            if unit.kind == "table":
                markers.clear()
                yield Block("table", render_table(unit.rows or (), unit.header_rows), path,
                            rows=unit.rows, header_rows=unit.header_rows, page=unit.page,
                            bbox=unit.bbox, meta={"band": None})
                continue
            pending, pending_path = unit, path
        held.extend(_margin_block(g, placed, path) for g in rest)
    yield from flush()


def _runs_on(pending: Unit, unit: Unit) -> bool:
    """The page's last paragraph goes on in the next page's first: it reads on, or its last line
    is full and ends without a sentence stop ("... open-domain" | "QA datasets, ...")."""
    last = pending.lines[-1]
    if continues(last.text, unit.lines[0].text):
        return True
    left = min(l.bbox[0] for l in pending.lines)
    right = max(l.bbox[2] for l in pending.lines)
    full = len(pending.lines) > 1 and last.bbox[2] >= right - 0.05 * (right - left)
    return full and not last.text.rstrip().endswith(TERMINAL) and abs(last.size - unit.lines[0].size) <= 0.6


def _text_block(unit: Unit, path: tuple[str, ...], markers: list[float]) -> Block:
    meta: dict = {"font_size": unit.lines[0].size, "band": None}
    if unit.page_end is not None:
        meta["page_end"] = unit.page_end
    text = unit.text
    level = 0
    if unit.kind == "list_item":
        marker, rest = list_marker(text) or ("", text)
        meta["marker"] = marker
        if not any(c.isalnum() for c in marker):
            text = rest  # a bullet glyph says nothing; a number does, so it stays
        x = unit.lines[0].bbox[0]
        while markers and markers[-1] > x + 3:
            markers.pop()
        if not markers or x > markers[-1] + 3:
            markers.append(x)
        level = len(markers) - 1
    else:
        markers.clear()
    return Block(unit.kind, text, path, level=level, page=unit.page, bbox=_bbox(unit), meta=meta)


def _margin_block(group: tuple[str, tuple[Line, ...]], placed: PageLines, path: tuple[str, ...]) -> Block:
    band, lines = group
    ordered = sorted(lines, key=lambda l: (round(l.bbox[1] / max(l.height, 1)), l.bbox[0]))
    text = " ".join(l.text.replace("\u00ad", "") for l in ordered)
    box = box_of(lines)
    meta = {
        "band": band,
        "segments": tuple(l.text.replace("\u00ad", "") for l in ordered),
        "font_size": lines[0].size,
        "rotated": any(l.rotated for l in lines),
        "page_width": placed.width,
        "page_height": placed.height,
        "left_edge": placed.left_edge,
    }
    return Block("paragraph", text, path, page=placed.number, bbox=box, meta=meta)


def _bbox(unit: Unit) -> tuple[float, float, float, float] | None:
    return unit.bbox if unit.bbox is not None else box_of(unit.lines)
