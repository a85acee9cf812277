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

import bisect
import re
from collections import Counter
from dataclasses import replace
from typing import Iterator

import pymupdf

from ..blocks import Block, Document, Loaded
from ..errors import LoaderError
from ..table_text import render_table
from .pdf_figures import figure_lines, figure_regions
from .pdf_headings import heading_levels, heading_like
from ..page_furniture import furniture_like, is_page_number
from .pdf_lines import (TEXT_FLAGS, GlyphOrder, Line, PageLines, band_key, extract, mend_drop_caps, recurring,
                        restore_glyph_order, split_margins)
from .pdf_paragraphs import TERMINAL, Unit, box_of, continues, list_marker, page_units
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
    body = _body_size(pages, in_tables)  # band lines that rejoin the body below do not change it
    units = [(placed, _mark(page_units(placed.body, tables, placed.number), tables, placed.body))
             for placed, tables in _rejoin(pages, body)]
    blocks = tuple(_blocks(units, toc, document.title, body))
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
    """Each page's placed lines and tables, the lines that were read as table cells, and warnings."""
    read: list[tuple[list[Line], list[Unit], int, pymupdf.Rect]] = []
    in_tables: list[Line] = []
    imaged: list[int] = []
    for page in doc:
        number = page.number + 1
        # One pass over the page: its text, and the vector rules the tables are found from.
        textpage = page.get_textpage(flags=TEXT_FLAGS)
        blocks = page.get_text("dict", textpage=textpage)["blocks"]
        text = [b for b in blocks if b["type"] == 0]
        glyphs = restore_glyph_order(page, textpage, text)
        vectors = [b for b in blocks if b["type"] == 3]
        tables = _tables(page, textpage, text, vectors, number, glyphs)
        lines = mend_drop_caps(extract(text, [t.bbox for t in tables if t.bbox is not None], in_tables))
        if len(vectors) >= 8 and lines:
            regions = figure_regions([v["bbox"] for v in vectors], (), page.rect.width, page.rect.height,
                                     [t.bbox for t in tables if t.bbox is not None])
            held, lines = figure_lines(lines, regions)
            tables += [Unit("figure", ls, number, bbox=box_of(ls), meta={"region": region}) for region, ls in held]
        if not lines and not tables:
            if page.get_images():
                imaged.append(number)
            continue
        read.append((lines, tables, number, page.rect))
    repeated = recurring([(lines, rect.height) for lines, _, _, rect in read])
    labelled = bool(doc.get_page_labels())
    pages = [(_placed(lines, number, rect, repeated, doc[number - 1].get_label() if labelled else ""), tables)
             for lines, tables, number, rect in read]
    if not pages:
        raise LoaderError("no text layer (a scanned or image-only PDF); run OCR on it (e.g. ocrmypdf) "
                          "and index the result", subject=document.uri)
    warnings = []
    if imaged:
        warnings.append(f"{document.uri}: pages {_ranges(imaged)} are images without text and were "
                        "skipped; OCR the file to index them")
    return pages, in_tables, warnings


def _mark(units: list[Unit], tables: list[Unit], lines: tuple[Line, ...]) -> list[Unit]:
    """Mark the short units that can be no heading, whatever their type: those set inside a figure
    (its title, a legend in bold), and those sharing their row with other text (a row label or a
    column head of a table drawn without rules: "Total", "At December 31, 2021")."""
    regions = [t.meta["region"] for t in tables if t.kind == "figure"]
    rows = sorted(lines, key=lambda l: l.bbox[1])
    tops = [l.bbox[1] for l in rows]
    for unit in units:
        if unit.kind not in ("paragraph", "list_item") or len(unit.lines) > 3:
            continue
        x0, y0, x1, y1 = box_of(unit.lines)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in regions):
            unit.meta["in_figure"] = True
        own = set(map(id, unit.lines))
        for line in unit.lines:
            start = bisect.bisect_left(tops, line.bbox[1] - 3 * line.height)
            # Cells beside it (a figure, or two more of them), not a line of the next column of prose.
            cells = [o for o in rows[start:bisect.bisect_right(tops, line.bbox[3])]
                     if id(o) not in own and len(o.text) <= 30 and _same_row(line, o)]
            if len(cells) >= 2 or any(any(c.isdigit() for c in o.text) for o in cells):
                unit.meta["shares_row"] = True
    return units


def _same_row(a: Line, b: Line) -> bool:
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    return overlap > 0.5 * min(a.height, b.height) and min(a.bbox[2], b.bbox[2]) <= max(a.bbox[0], b.bbox[0])


def _placed(lines: list[Line], number: int, rect: pymupdf.Rect, repeated: frozenset[str], label: str) -> PageLines:
    placed = split_margins(lines, number, rect.width, rect.height, repeated)
    return replace(placed, label=label) if label else placed


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


def _rejoin(pages: list[tuple[PageLines, list[Unit]]], body: float) -> list[tuple[PageLines, list[Unit]]]:
    """Band lines that are the body's own go back to it: a heading that opens a page (a title, a
    section), and lines in the body's size that read on from the body, such as a column's first
    lines below a header or a section starting low on the page.

    Only lines that appear on no other page's band (a running header set like a heading must not
    head sections), that are not page numbers or furniture by their content, and, unless they are a
    heading at the page's top, that a chain of close lines links to the body.
    """
    seen: Counter[str] = Counter()
    for placed, _ in pages:
        for key in {_band_key(lines) for band, lines in placed.margin if band in ("top", "bottom")}:
            seen[key] += 1
    out = []
    for placed, tables in pages:
        keep, back, heads = [], [], []
        for group in placed.margin:
            band, lines = group
            once = band in ("top", "bottom") and seen[_band_key(lines)] == 1
            if once and band == "top" and heading_like(Unit("paragraph", list(lines), 0), body):
                heads.append(group)
            elif once and _body_like(lines, body):
                back.append(group)
            else:
                keep.append(group)
        # A heading stands further from the text above it than a line does.
        reach = {id(g): 3.0 if heading_like(Unit("paragraph", list(g[1]), 0), body) else 2.0 for g in back}
        joined = _linked(back, placed.body + tuple(l for g in heads for l in g[1]), reach)
        joined.update(id(g) for g in heads)
        back += heads
        if joined:
            rest = tuple(g for g in keep + back if id(g) not in joined)
            # Each group is an item of its own in the reading order: the rest of its pymupdf block
            # may lie far below (a page title set in one block with a column's first lines).
            lines = tuple(replace(l, block=-1 - k) for k, g in enumerate(back) if id(g) in joined for l in g[1])
            placed = replace(placed, body=placed.body + lines, margin=rest)
        out.append((placed, tables))
    return out


def _body_like(lines: tuple[Line, ...], body: float) -> bool:
    text = " ".join(l.text for l in lines)
    # A line that opens in lower case goes on with a sentence ("found, in the online version, at
    # http://dx.doi.org/..."): body, even where links make it look like a footer.
    reads_on = text[:1].islower() and " " in text and not text.startswith("www.")
    if is_page_number(text) or (furniture_like(text) and not reads_on):
        return False
    return all(abs(l.size - body) <= max(0.3, min(0.6, 0.06 * body)) for l in lines)


def _linked(groups: list[tuple[str, tuple[Line, ...]]], body: tuple[Line, ...], reach: dict[int, float]) -> set[int]:
    """id() of the groups a chain of close lines (a gap of at most `reach` line heights, two for
    text, overlapping across) links to the body."""
    joined: set[int] = set()
    anchors = list(body)
    grew = True
    while grew:
        grew = False
        for group in groups:
            if id(group) in joined:
                continue
            if any(_close(a, l, reach[id(group)]) for l in group[1] for a in anchors):
                joined.add(id(group))
                anchors.extend(group[1])
                grew = True
    return joined


def _close(a: Line, b: Line, reach: float) -> bool:
    if min(a.bbox[2], b.bbox[2]) <= max(a.bbox[0], b.bbox[0]):
        return False
    gap = max(b.bbox[1] - a.bbox[3], a.bbox[1] - b.bbox[3])
    return gap <= reach * max(a.height, b.height)


def _band_key(lines: tuple[Line, ...]) -> str:
    return band_key(" ".join(l.text for l in lines))


# -- blocks -----------------------------------------------------------------------------------


def _blocks(pages: list[tuple[PageLines, list[Unit]]], toc: list, title: str, body: float) -> Iterator[Block]:
    levels = heading_levels((u for _, units in pages for u in units), toc, body)
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
        notes = _footnotes(units, placed, body)
        for unit in units:
            if id(unit) in notes:
                continue
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
            if unit.kind == "figure":
                yield Block("figure", " ".join(l.text for l in unit.lines), path, page=unit.page,
                            bbox=unit.bbox, meta={"band": None})
                continue
            if unit.kind == "table":
                markers.clear()
                yield Block("table", render_table(unit.rows or (), unit.header_rows), path,
                            rows=unit.rows, header_rows=unit.header_rows, page=unit.page,
                            bbox=unit.bbox, meta={"band": None})
                continue
            pending, pending_path = unit, path
        held.extend(Block("footnote", u.text, path, page=u.page, bbox=_bbox(u),
                          meta={"font_size": u.lines[0].size, "band": None}) for u in units if id(u) in notes)
        held.extend(_margin_block(g, placed, path) for g in rest)
    yield from flush()


def _footnotes(units: list[Unit], placed: PageLines, body: float) -> set[int]:
    """id() of the page's footnotes: text in clearly smaller type in the page's lower half, under
    body text of its column and with none below it. They are read after the page's body, where a
    paragraph running on to the next page would otherwise be cut by them."""
    small = [u for u in units if u.kind in ("paragraph", "list_item") and u.lines and len(u.text) >= 20
             and all(l.size <= body - 0.8 for l in u.lines) and _bbox(u)[1] >= 0.5 * placed.height]
    if not small:
        return set()
    text = [_bbox(u) for u in units if u.kind in ("paragraph", "list_item")
            and any(abs(l.size - body) <= 0.6 for l in u.lines)]
    out = set()
    for unit in small:
        box = _bbox(unit)
        column = [o for o in text if min(o[2], box[2]) > max(o[0], box[0])]
        if any(o[3] <= box[1] + 1 for o in column) and not any(o[1] >= box[3] - 1 for o in column):
            out.add(id(unit))
    return out


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
        # The marker is kept apart, as Word's is: the chunk shows it once, before the text.
        marker, text = list_marker(text) or ("", text)
        meta["marker"] = marker
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
    if placed.label:
        meta["page_label"] = placed.label
    return Block("paragraph", text, path, page=placed.number, bbox=box, meta=meta)


def _bbox(unit: Unit) -> tuple[float, float, float, float] | None:
    return unit.bbox if unit.bbox is not None else box_of(unit.lines)
