"""PDF loader (pymupdf, AGPL-3.0): pages to headings, paragraphs, list items, tables, footnotes
and figures.

Loaders describe, cleaners decide. The catch with PDFs is that paragraphs must be rebuilt from
lines here, and a running header or a pleading line number glued into a paragraph could never be
taken out again by a cleaner. So the loader sorts lines by place before it builds anything, from
the page's own evidence (geometry, type, repetition, drawings, the PDF's outline and page labels):

- lines in the top or bottom band of a page that do not read on into the body (other size, a gap,
  a bare page number) or that recur in the band of many pages, rotated text in the side margins
  and bare small numbers left of the body's left edge (a line-number gutter) never join a
  paragraph. Each such header line becomes its own block of kind "paragraph" with
  `meta["band"]` ("top", "bottom", "left", "right"), its `meta["segments"]` (the pieces of the
  line, left to right, as laid out), `meta["font_size"]` and, where the PDF labels its pages,
  `meta["page_label"]`. A band line that appears once, in the body's type, and that a chain of
  close lines links to the body (a column's first lines under a header, a heading low on a page)
  goes back to the body; so does a heading at a page's top. A statement's column-head row (periods
  and units, its years over the figures right below it) and the rows under it are body however
  often the statement's pages repeat them (`pdf_margins`).
- text drawn twice for a bold or shadow effect is read once, as bold (`pdf_overprint`); lines a
  sidebar paints each over a fill of its own stay the one block they are (`pdf_shaded_lines`).
- text inside a figure (a cluster of drawn marks: a chart's axis numbers, tick labels, legend)
  becomes a "figure" block (`pdf_figures`), which the chunker keeps out of the body as a chunk of
  its own with its caption (`chunker/figures.py`); the caption stays body text.
- everything else is body: read in column order (`pdf_paragraphs`; columns inside one pymupdf
  block are split at their whitespace gutter, `pdf_columns`), rebuilt into paragraphs (joined
  across lines, columns and pages, hyphenation undone as the document spells the word
  (`pdf_hyphens`), ligatures, soft hyphens, TeX accents and
  drop caps mended), list items (`level` by marker indent, the marker kept in `meta["marker"]`
  and shown once by the chunker) and headings; small type under its column's text in the page's
  lower half is a footnote, read after the page's body, unless a figure, not text, stands
  right over it (a caption low in a column, which reads in its column). A figure set large over
  its small label ("72%" / "of employees") is one paragraph with it (`pdf_callouts`). Ruled
  tables, found from the vector rules read in the same pass as the text (`pdf_tables`), become
  table blocks and their words are kept out of the paragraphs.

Whether a margin block is a running header, a page number or a gutter line number is decided by
the `running_headers`, `page_numbers` and `line_numbers` cleaners, which drop what they recognise
(by recurrence, by content such as a DOI or "Downloaded from", by the page number a header
carries) and leave the rest. A block whose `meta["band"]` is None is body text.

Headings (`pdf_headings`) come from the type (larger than the body, or bold; at the body's size a
section number or capitals set apart) and from the outline (`get_toc`) together: an outline entry
names a heading and gives its level, and headings the outline lacks keep theirs. A heading in a
shaded box that holds its text (a manual's "NOTE") heads only the box (`pdf_text_boxes`). Blocks carry
`page` (1-based, the page where they start), `bbox`, and `meta["page_end"]` where a paragraph
runs onto a later page.

Every page's text layer gets a verdict (`pdf_text_layer`: usable, garbage, scan) from the spans
read anyway. A PDF without any text layer (a scan) raises `LoaderError`: indexing it would store
nothing and report success, while an error is recorded in the state DB and says to OCR the file. A
PDF whose text is mostly garbage (glyph codes without a Unicode map, a file cut short) raises
`UnreadableText`, so what the index held for it stays. A garbage page in an otherwise readable PDF
is skipped, and a scanned page (an image filling it, with no text or a stamp line) is read for the
text it has but never gives a heading; both give a `Loaded.warnings` entry naming the pages.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sized
from dataclasses import replace

import pymupdf

from ...blocks import Band, Block, BlockMeta, Document, Loaded
from ...errors import LoaderError, UnreadableText
from ...page_furniture import CAPTION
from ...table_text import render_table
from ...type_sizes import body_size
from ..options import PdfOptions
from .framed_prose import framed_prose, peel_prose
from .headings import mark_units
from .hyphens import Spelling, join_lines
from .lines import (
    TEXT_FLAGS,
    GlyphOrder,
    RawText,
    inside,
)
from .margins import split_margins
from .model import Box, Grid, Line, PageLines, Unit
from .ocr import PageReader
from .ocr_figures import page_figures
from .paragraphs import TERMINAL, box_of, continues, list_marker, page_units
from .properties import pdf_properties
from .rule_tables import one_claim, rule_tables
from .table_heads import heads_into_tables
from .tables import cell_texts, find_grids, header_rows, right_to_left_rows
from .text_boxes import holds
from .text_layer import PageText, image_share, judge_page, pages_phrase
from .text_tables import cut_at_tables, text_tables
from .thresholds import (
    BAR_CHART_MIN_BARS,
    BAR_MAX_SHARE,
    BAR_MIN_HEIGHTS,
    BAR_MIN_WIDTH,
    FOOTNOTE_LOWER_HALF,
    FOOTNOTE_MIN_CHARS,
    FORM_BLANK_ROWS,
    FORM_HEADS,
    FULL_LINE_SLACK,
    GARBAGE_DOCUMENT,
    LIST_INDENT_STEP,
    MAX_HEADING_LEVEL,
    PAPER,
    PLOT_MARK_SMALL_RECT,
    PLOT_MARK_THICK,
    PLOT_MARKS_PER_TEXT,
    PLOT_MIN_CELLS,
    PLOT_MIN_LABELS,
    PLOT_MIN_MARKS,
    PLOT_MIN_SIDE,
    PLOT_SHAPE_MIN_SIDE,
    PLOT_TEXT_CELLS,
    PROSE_BESIDE_OVERHANG,
    SAME_SIZE,
    SMALLER_THAN_BODY,
    SNAP,
    STROKE_HALF_WIDTH,
    STROKE_THIN,
)
from .word_spaces import spaced_words

pymupdf.TOOLS.mupdf_display_errors(False)

# A producer's placeholder is no title: "Microsoft Word - x.docx", PowerPoint's "PowerPoint
# Presentation", "Untitled", "Document1", a file name.
_JUNK_TITLE = re.compile(
    r"(?i)^(microsoft \w+ - |untitled\b|(?:powerpoint )?presentation\d*$|document\d*$|slide \d+$)|\.(docx?|pptx?|pdf|rtf|odt)$"
)


def load(data: bytes, document: Document, options: PdfOptions | None = None) -> Loaded:
    from .passes import DocumentWork, run_document  # passes.py reads this module's helpers

    doc = _open(data, document)
    ocr = PageReader(options or PdfOptions(), doc.is_repaired)
    try:
        read, in_tables, verdicts = _read_pages(doc, ocr)
        toc = doc.get_toc(simple=True)
        title = (doc.metadata or {}).get("title", "").strip()
        properties = pdf_properties(doc)
        repaired = doc.is_repaired
    finally:
        doc.close()
    if properties:
        document = replace(document, meta={**document.meta, **properties})
    if title and not _JUNK_TITLE.search(title):
        document = replace(document, title=title)
    elif not document.title:
        document = replace(document, title=document.name)
    if not read and ocr.confidence:  # every page read by OCR, none with text: a blank scan, a photo
        found = f"{document.uri}: OCR found no text on {pages_phrase(sorted(ocr.confidence))}"
        return Loaded(document=document, blocks=(), warnings=(found,))
    warnings = _layer_warnings(verdicts, read, repaired, document, ocr.mode == "never") + ocr.warnings(document.uri)
    work = run_document(DocumentWork(read, in_tables, verdicts, toc, document))
    blocks = tuple(map(ocr.mark, work.blocks)) if ocr.confidence else work.blocks
    return Loaded(document=document, blocks=blocks, warnings=tuple(warnings))


def _open(data: bytes, document: Document) -> pymupdf.Document:
    if not data:
        raise LoaderError("empty file (0 bytes); re-export or re-download it", subject=document.uri)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise LoaderError(
            f"not a readable PDF ({exc}); the file is damaged or not a PDF", subject=document.uri
        ) from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise LoaderError("encrypted PDF needs a password; save an unprotected copy to index it", subject=document.uri)
    if doc.page_count == 0:
        doc.close()
        raise LoaderError("PDF has no pages; the file is damaged", subject=document.uri)
    return doc


def _read_pages(
    doc: pymupdf.Document, ocr: PageReader
) -> tuple[list[tuple[list[Line], list[Unit], int, pymupdf.Rect, tuple[Box, ...], str]], list[Line], list[PageText]]:
    """Each page read through the page passes (`passes.PAGE_PASSES`): its lines, tables, number,
    size, text boxes and label; the lines that were read as table cells; and the verdict on each
    page's text layer (a garbage page's text is not read). A page `ocr` wants (one whose text
    layer does not say what the page says, by default) is read by OCR instead, where it can be."""
    from .passes import PageWork, run_page  # passes.py reads this module's helpers

    read: list[tuple[list[Line], list[Unit], int, pymupdf.Rect, tuple[Box, ...], str]] = []
    in_tables: list[Line] = []
    verdicts: list[PageText] = []
    labelled = bool(doc.get_page_labels())
    for page in doc.pages():
        # One pass over the page: its text, and the vector rules the tables are found from.
        textpage = page.get_textpage(flags=TEXT_FLAGS)
        blocks = textpage.extractDICT()["blocks"]  # page.get_text's wrapper adds a crop box lookup
        # page.rect is computed by MuPDF on every access: read once.
        work = PageWork(page, page.number + 1, page.rect, textpage, blocks, in_tables)
        kept = run_page(work)
        assert work.verdict is not None
        verdicts.append(work.verdict)
        label = page.get_label() if labelled and (kept or ocr.wanted(work.verdict)) else ""
        if ocr.wanted(work.verdict):
            # A scan's text layer is a stamp line at most: real text, kept; OCR reads the rest.
            stamp = work.lines if work.verdict.verdict == "scan" and ocr.mode == "auto" else []
            found = ocr.read(page, work.number, stamp)
            if found is not None:
                chars = sum(len(line.text) for line in found.lines)
                verdicts[-1] = PageText(work.number, "usable" if found.lines else "empty", chars=chars)
                if found.lines:
                    lines, figures = page_figures(found.lines, found.drawings, work.number)
                    read.append((lines, figures, work.number, work.rect, (), label))
                continue
        if kept:
            read.append((work.lines, work.tables, work.number, work.rect, work.boxes, label))
    return read, in_tables, verdicts


def _judge(page: pymupdf.Page, number: int, rect: pymupdf.Rect, text: list[dict], script: str) -> PageText:
    """The page's text-layer verdict from the spans and lines already read; the images' boxes
    are asked for (a pass over the page's content) only where text covers little of it."""

    def images() -> float:
        return image_share([i["bbox"] for i in page.get_image_info()], rect.width, rect.height)

    def unmapped_fonts() -> bool:
        return any(
            kind == "Type0"
            and encoding.startswith("Identity")
            and page.parent.xref_get_key(xref, "ToUnicode")[0] == "null"
            for xref, _, kind, _, _, encoding, *_ in page.get_fonts()
        )

    boxes = [line["bbox"] for b in text for line in b["lines"]]
    return judge_page(number, script, boxes, rect.width * rect.height, images, unmapped_fonts)


def _layer_warnings(
    verdicts: list[PageText], pages: Sized, repaired: bool, document: Document, ocr_off: bool = False
) -> list[str]:
    """Warnings on the pages whose text layer is not usable; `UnreadableText` where the document
    as a whole has none, and `LoaderError` for a PDF with no text at all (a scan): its advice is
    the setting where `ocr_off` (`pdf: {ocr: never}`), else the OCR extra that is missing."""
    garbage = [v for v in verdicts if v.verdict == "garbage"]
    scans = [v for v in verdicts if v.verdict == "scan"]
    damaged = " (the file is damaged: PyMuPDF had to repair it; it may be cut short)" if repaired else ""
    total = sum(v.chars for v in verdicts)
    if garbage and sum(v.chars for v in garbage) >= GARBAGE_DOCUMENT * total:
        worst = max(garbage, key=lambda v: v.chars)
        raise UnreadableText(
            f"the text layer cannot be read{damaged}: on {pages_phrase([v.page for v in garbage])} "
            f"{worst.why}; nothing was indexed and what the index held for it stays. "
            + (
                "Re-download or re-export the file"
                if repaired
                else "Re-export it from its source with fonts embedded as text, or OCR it (e.g. ocrmypdf --force-ocr)"
            ),
            subject=document.uri,
        )
    empty = [v.page for v in verdicts if v.verdict == "empty"] if repaired else []
    if len(empty) >= GARBAGE_DOCUMENT * len(verdicts):  # in a file cut short, the lost pages
        raise UnreadableText(
            f"{pages_phrase(empty)} of {len(verdicts)} hold nothing{damaged}; nothing was indexed and what "
            "the index held for it stays. Re-download or re-export the file",
            subject=document.uri,
        )
    if not pages:
        if repaired:
            raise UnreadableText(
                f"no text could be read{damaged}; re-download or re-export the file (OCR it if it is a scan)",
                subject=document.uri,
            )
        if ocr_off:  # the extra may well be installed: the config turned it off
            raise LoaderError(
                "no text layer (a scanned or image-only PDF) and `pdf: {ocr: never}` turns OCR off; set "
                "`pdf: {ocr: auto}` to read it, or run OCR on it (e.g. ocrmypdf) and index the result",
                subject=document.uri,
            )
        raise LoaderError(
            "no text layer (a scanned or image-only PDF); install the OCR extra (pip install 'ingest[ocr]') "
            "to read it, or run OCR on it (e.g. ocrmypdf) and index the result",
            subject=document.uri,
        )
    warnings = []
    if garbage:
        warnings.append(
            f"{document.uri}: {pages_phrase([v.page for v in garbage])} skipped: the text layer cannot be "
            f"read{damaged} ({garbage[0].why}); OCR the file to index them"
        )
    if scans:
        warnings.append(
            f"{document.uri}: {pages_phrase([v.page for v in scans])} "
            f"{'is a scanned image' if len(scans) == 1 else 'are scanned images'} ({scans[0].why}): "
            "what the image says was not read; OCR the file (e.g. ocrmypdf) to index it"
        )
    if empty:  # a blank page is no news; in a file cut short, it is what was lost
        warnings.append(
            f"{document.uri}: {pages_phrase(empty)} hold nothing{damaged}: their content may be lost; "
            "re-download or re-export the file"
        )
    if repaired and not warnings:  # readable, but a copy cut short may have lost pages at its end
        warnings.append(
            f"{document.uri}: the file is damaged (PyMuPDF had to repair it; it may be cut short): its "
            f"{len(verdicts)} page{'s' if len(verdicts) != 1 else ''} read as text and were indexed; "
            "re-download or re-export the file if pages are missing"
        )
    return warnings


def _heads(page: tuple[PageLines, list[Unit]]) -> tuple[PageLines, list[Unit]]:
    return heads_into_tables(*page)


def _units(placed: PageLines, tables: list[Unit]) -> list[Unit]:
    across = [t for t in tables if t.across]
    aligned, lines = text_tables(placed.body, placed.number)
    if across:
        tables = [t for t in tables if not t.across]
        across = [t for t in across if all(_reads_better(t, a) for a in aligned)]
        if across:  # the alignment rule reads the rest of the page without the rules' tables
            boxes = [t.bbox for t in across if t.bbox is not None]
            aligned, lines = text_tables([ln for ln in placed.body if not inside(ln.bbox, boxes)], placed.number)
            lines = cut_at_tables(lines, across)
            tables = tables + across
    tables = tables + aligned
    return mark_units(page_units(lines, tables, placed.number), tables, tuple(lines))


def _reads_better(across: Unit, aligned: Unit) -> bool:
    """A table ruled across only against an aligned table found where it stands: the alignment
    rule reads a statement's rows as it always has (heads over its first rule included), unless
    it read far past the rules' ends (by a quarter of their length) where prose stands beside
    them (the other column's, beside a paper's table), or, inside the rules, saw fewer columns
    (cells a few ems apart that MuPDF set as one line)."""
    a, b = across.bbox, aligned.bbox
    if a is None or b is None or not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]):
        return True
    if across.prose_beside and max(a[0] - b[0], b[2] - a[2]) > (a[2] - a[0]) / PROSE_BESIDE_OVERHANG:
        return True
    inside = a[1] - SNAP <= b[1] and b[3] <= a[3] + SNAP
    return inside and len((aligned.rows or ((),))[0]) < len((across.rows or ((),))[0])


def _placed(
    lines: list[Line], number: int, rect: pymupdf.Rect, repeated: frozenset[str], label: str, boxes: tuple[Box, ...]
) -> PageLines:
    placed = split_margins(lines, number, rect.width, rect.height, repeated)
    return replace(placed, label=label, boxes=boxes) if label or boxes else placed


def _tables(
    textpage: pymupdf.TextPage,
    raw: RawText,
    text: list[dict],
    vectors: list[dict],
    number: int,
    glyphs: GlyphOrder | None,
) -> tuple[list[Unit], list[Box]]:
    """Tables framed by the page's rules, their cells filled with the page's words; and the boxes
    of grids that are plots' frames."""
    if len(vectors) < 2:
        return [], []  # one rectangle frames, it does not divide
    boxes = _geometry(vectors)
    rects = [box for box, v in zip(boxes, vectors) if v["isrect"]]
    # Curved or slanted shapes count only where they could frame cells (a rounded box): a chart's
    # hundreds of small marks would cost the grouping dearly and frame nothing.
    shapes = rects + [
        b for b, v in zip(boxes, vectors) if not v["isrect"] and min(b[2] - b[0], b[3] - b[1]) >= PLOT_SHAPE_MIN_SIDE
    ]
    centres: list[tuple[float, float]] = []

    def has_text(box: tuple[float, float, float, float]) -> bool:
        if not centres:  # only pages with rules that could make a grid get this far
            centres.extend(
                ((s["bbox"][0] + s["bbox"][2]) / 2, (s["bbox"][1] + s["bbox"][3]) / 2)
                for b in text
                for line in b["lines"]
                for s in line["spans"]
                if s["text"].strip()
            )
        x0, y0, x1, y1 = box
        return any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in centres)

    grids = [g for g in find_grids(rects, shapes, has_text) if len(g.rows) > 1]
    read: list[tuple] = []

    def page_words() -> list[tuple]:
        if not read:
            found = textpage.extractWORDS()
            read.extend(spaced_words(raw, glyphs.words(found) if glyphs is not None else found))
        return read

    def lines() -> list[Box]:
        return [line["bbox"] for b in text for line in b["lines"]]

    if not grids:
        return rule_tables(rects, lines, page_words, [], number), []
    # A plot's frames and grid lines make a grid too, but its cells hold drawn marks (curves,
    # markers), where a table's hold text: such a grid is a figure's, found as one later.
    marks = [b for b, v in zip(boxes, vectors) if _mark(b, v["isrect"])]
    # A bar is seen: outlined, or filled in a colour other than the paper's white.
    bars = [b for b, v in zip(boxes, vectors) if v["isrect"] and (v["stroked"] or v["color"] != PAPER)]
    plots = [g.bbox for g in grids if _plot(g, marks, has_text) or _bars(g, bars, has_text)]
    grids = [g for g in grids if g.bbox not in plots]
    booktabs = rule_tables(rects, lines, page_words, [g.bbox for g in grids] + plots, number)
    if not grids:
        return booktabs, plots
    words = page_words()
    units = []
    for whole in grids:
        rows = [tuple(_cell(c) for c in row) for row in cell_texts(whole, words)]
        grid = peel_prose(whole, rows)
        if grid is not whole:  # paragraphs the frame took in stay the page's text
            rows = [tuple(_cell(c) for c in row) for row in cell_texts(grid, words)]
        # A form left blank (a ledger's heads over empty rows to write in) is a table all the
        # same: its heads, read as one row, say which column is which; read apart, they mix.
        form = sum(map(any, rows)) == 1 and any(rows[0]) and len(rows) > FORM_BLANK_ROWS
        form = form and sum(map(bool, rows[0])) >= FORM_HEADS
        rows = [r for r in rows if any(r)]
        if (len(rows) < 2 and not form) or max(len(r) for r in rows) < 2 or framed_prose(rows):
            continue  # a framed paragraph, not a table: its lines stay text
        columns = _columns(grid)
        if right_to_left_rows(rows):  # read as its script is: the right-hand cell first
            rows = [r[::-1] for r in rows]
            columns = columns[::-1]
        units.append(
            Unit(
                "table",
                [],
                number,
                rows=tuple(rows),
                header_rows=header_rows(rows),
                bbox=grid.bbox,
                columns=columns,
            )
        )
    units, booktabs = one_claim(units, booktabs, words)
    return units + booktabs, plots


def _stacked(vectors: list[dict]) -> list[Box]:
    """Boxes that many strokes share: a chart whose lines MuPDF reports with the plot's clip as
    their box (a frame is drawn once, a table's rules each have a box of their own)."""
    counts = Counter(
        (round(x0), round(y0), round(x1), round(y1)) for v in vectors if v["stroked"] for x0, y0, x1, y1 in (v["bbox"],)
    )
    return [
        (float(x0), float(y0), float(x1), float(y1))
        for (x0, y0, x1, y1), n in counts.items()
        if n >= PLOT_MIN_MARKS and x1 - x0 >= PLOT_MIN_SIDE and y1 - y0 >= PLOT_MIN_SIDE
    ]


_FIGURE = re.compile(r"[-\u2212+]?[$\u20ac\u00a3]?\d[\d.,]*[%kKmMbB]?")


def _charts(boxes: list[Box], lines: list[Line]) -> list[Box]:
    """The boxes whose text is mostly figures (a chart's axes and values), not a diagram's words."""
    out = []
    for x0, y0, x1, y1 in boxes:
        inside = [
            ln.text.split()
            for ln in lines
            if x0 <= (ln.bbox[0] + ln.bbox[2]) / 2 <= x1 and y0 <= (ln.bbox[1] + ln.bbox[3]) / 2 <= y1
        ]
        numbers = sum(1 for words in inside if words and all(_FIGURE.fullmatch(w) for w in words))
        if len(inside) >= PLOT_MIN_LABELS and 2 * numbers >= len(inside):
            out.append((x0, y0, x1, y1))
    return out


def _mark(box: Box, rect: bool) -> bool:
    """A curve, a slanted stroke or a marker: a path neither a rule nor a cell's rectangle."""
    w, h = box[2] - box[0], box[3] - box[1]
    return (not rect and min(w, h) > PLOT_MARK_THICK) or (rect and max(w, h) <= PLOT_MARK_SMALL_RECT)


def _marks_in(grid: Grid, marks: list[Box]) -> int:
    x0, y0, x1, y1 = grid.bbox
    return sum(1 for b in marks if x0 <= b[0] and b[2] <= x1 and y0 <= b[1] and b[3] <= y1)


def _plot(grid: Grid, marks: list[Box], has_text: Callable[[Box], bool]) -> bool:
    """A plot's frames: text (a panel's label) in few of its cells, and drawn marks (curves,
    markers; a table's corner pieces count too, so it takes several for each cell with text)."""
    if len(marks) < PLOT_MIN_MARKS:
        return False
    cells = [cell for row in grid.rows for cell in row if cell is not None]
    texts = sum(1 for cell in cells if has_text(cell))
    return (
        len(cells) >= PLOT_MIN_CELLS
        and texts < PLOT_TEXT_CELLS * len(cells)
        and _marks_in(grid, marks) >= max(PLOT_MIN_MARKS, PLOT_MARKS_PER_TEXT * texts)
    )


def _bars(grid: Grid, rects: list[Box], has_text: Callable[[Box], bool]) -> bool:
    """A bar chart's frame and grid lines: inside it, rectangles that stand on one baseline (their
    bottoms on it, or their tops for bars below zero) at three or more heights, none holding
    text. A table's cells, spacer cells included, share their row's top and bottom, so a row
    gives one height; the bars of a chart each give their own."""
    x0, y0, x1, y1 = grid.bbox
    boxes = [
        b
        for b in rects
        if x0 - 1 <= b[0]
        and b[2] <= x1 + 1
        and y0 - 1 <= b[1]
        and b[3] <= y1 + 1
        and min(b[2] - b[0], b[3] - b[1]) > BAR_MIN_WIDTH
        and (b[2] - b[0]) < BAR_MAX_SHARE * (x1 - x0)
    ]
    if len(boxes) < BAR_CHART_MIN_BARS:
        return False
    edges = Counter(round(y) for b in boxes for y in (b[1], b[3]))
    for y, n in edges.most_common(2):
        if n < BAR_CHART_MIN_BARS:
            break
        standing = [b for b in boxes if abs(b[3] - y) <= 1 or abs(b[1] - y) <= 1]
        heights = {round(b[3] - b[1]) for b in standing}
        if (
            len(standing) >= BAR_CHART_MIN_BARS
            and len(heights) >= BAR_MIN_HEIGHTS
            and not any(has_text(b) for b in standing)
        ):
            return True
    return False


def _columns(grid: Grid) -> tuple[tuple[float, float], ...]:
    """Each column's left and right edge: its cells' usual left edge and their narrowest right one
    (a cell spanning the slots after it reaches further)."""
    width = max(len(row) for row in grid.rows)
    out = []
    for k in range(width):
        boxes = [box for row in grid.rows if k < len(row) for box in (row[k],) if box is not None]
        lefts = sorted(b[0] for b in boxes)
        out.append((lefts[len(lefts) // 2], min(b[2] for b in boxes)) if boxes else (0.0, 0.0))
    return tuple(out)


def _geometry(vectors: list[dict]) -> list[tuple[float, float, float, float]]:
    """Rectangles as drawn: MuPDF widens a stroked path's box by half the line width all round.

    A stroked rule is as thick as its line, which gives the width; a stroked box does not, so it
    shrinks by half the page's usual rule width (or half a point).
    """
    thin = sorted(
        min(b[2] - b[0], b[3] - b[1])
        for v in vectors
        if v["stroked"]
        for b in [v["bbox"]]
        if min(b[2] - b[0], b[3] - b[1]) <= STROKE_THIN
    )
    usual = thin[len(thin) // 2] / 2 if thin else STROKE_HALF_WIDTH
    out = []
    for v in vectors:
        x0, y0, x1, y1 = v["bbox"]
        if v["stroked"]:
            w, h = x1 - x0, y1 - y0
            half = min(w, h) / 2 if min(w, h) <= STROKE_THIN else usual
            if w > 2 * half:
                x0, x1 = x0 + half, x1 - half
            if h > 2 * half:
                y0, y1 = y0 + half, y1 - half
        out.append((x0, y0, x1, y1))
    return out


def _cell(value: str | None) -> str:
    return " ".join((value or "").split())


def _body_size(pages: list[tuple[PageLines, list[Unit]]], in_tables: list[Line]) -> float:
    """The size most text is set in, table cells included: a form that is mostly tables would
    otherwise take its few headings for the body (`ingest.type_sizes`: the cleaners count blocks)."""
    lines = [line for placed, _ in pages for line in placed.body] + in_tables
    return body_size((line.size, len(line.text)) for line in lines)


# -- blocks -----------------------------------------------------------------------------------


def _blocks(
    pages: list[tuple[PageLines, list[Unit]]],
    title: str,
    body: float,
    spelt: Spelling,
) -> Iterator[Block]:
    ordered = [u for _, units in pages for u in units]
    firsts = [u.level for u in ordered if u.level is not None]
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
            yield _text_block(pending, pending_path, markers, spelt)
            pending = None
        yield from held
        held.clear()

    for placed, units in pages:
        # A top-band group is read where it sits: before the first unit set at or below it, so a
        # band line under the page's first heading ("None." under "Item 9B.") stays in its section.
        top = sorted((g for g in placed.margin if g[0] == "top"), key=lambda g: box_of(g[1])[1])
        rest = [g for g in placed.margin if g[0] != "top"]
        notes = _footnotes(units, placed, body)
        aside: tuple[Box, list[tuple[int, str]]] | None = None  # a boxed heading's box, the stack before it
        for k, unit in enumerate(units):
            if k in notes:
                continue
            box = _bbox(unit)
            while top and (box is None or box_of(top[0][1])[1] <= box[1] + 1):
                held.append(_margin_block(top.pop(0), placed, path))
            if aside is not None and not holds(
                aside[0], _placed_box(unit) if unit.lines else unit.bbox or (0, 0, 0, 0)
            ):
                stack[:] = aside[1]  # out of the box: its heading heads no more
                path = root + tuple(t for _, t in stack) if stack else (root or (title,))
                aside = None
            level = unit.level
            if level is not None:
                yield from flush()
                markers.clear()
                text = " ".join(unit.text.split())
                box = _boxed(unit, units[k + 1 : k + 2], placed.boxes)
                if box is not None and aside is None and stack and stack[-1][0] < level:
                    aside = (box, list(stack))
                while stack and stack[-1][0] >= level:
                    stack.pop()
                stack.append((level, text))
                path = root + tuple(t for _, t in stack)
                yield Block(
                    "heading",
                    text,
                    path,
                    level=min(MAX_HEADING_LEVEL, level),
                    page=unit.page,
                    bbox=_bbox(unit),
                    meta={"font_size": unit.lines[0].size, "band": None, "pdf_pass": "headings"},
                )
                continue
            if (
                pending is not None
                and unit.kind == "paragraph"
                and unit.page != pending.page
                and _runs_on(pending, unit)
            ):
                pending = replace(
                    pending,
                    lines=[*pending.lines, *unit.lines],  # runs on from the previous page
                    bbox=_bbox(pending) if pending.bbox is None else pending.bbox,  # the first page's box
                    page_end=unit.page,
                )
                continue
            yield from flush()
            if unit.kind == "figure":
                yield Block(
                    "figure",
                    " ".join(line.text for line in unit.lines),
                    path,
                    page=unit.page,
                    bbox=unit.bbox,
                    meta={"band": None, "pdf_pass": "figures"},
                )
                continue
            if unit.kind == "table":
                markers.clear()
                yield Block(
                    "table",
                    render_table(unit.rows or (), unit.header_rows),
                    path,
                    rows=unit.rows,
                    header_rows=unit.header_rows,
                    page=unit.page,
                    bbox=unit.bbox,
                    meta={"band": None, "pdf_pass": unit.pdf_pass},
                )
                continue
            pending, pending_path = unit, path
        held.extend(_margin_block(g, placed, path) for g in top)
        held.extend(
            Block(
                "footnote",
                join_lines([line.text for line in u.lines], spelt),
                path,
                page=u.page,
                bbox=_bbox(u),
                meta={"font_size": u.lines[0].size, "band": None, "pdf_pass": "blocks"},
            )
            for k, u in enumerate(units)
            if k in notes
        )
        if aside is not None:  # a box ends with its page
            stack[:] = aside[1]
            path = root + tuple(t for _, t in stack) if stack else (root or (title,))
        held.extend(_margin_block(g, placed, path) for g in rest)
    yield from flush()


def _boxed(unit: Unit, after: list[Unit], boxes: tuple[Box, ...]) -> Box | None:
    """The shaded box that holds the heading and the text right after it (not another heading):
    the box's own title. A box holding a title block alone (a statement's) heads what follows it."""
    if not boxes or not after or after[0].level is not None or not after[0].lines:
        return None
    mine, next_box = _placed_box(unit), _placed_box(after[0])
    return next((b for b in boxes if holds(b, mine) and holds(b, next_box)), None)


def _footnotes(units: list[Unit], placed: PageLines, body: float) -> set[int]:
    """Indexes in `units` of the page's footnotes: text in clearly smaller type in the page's lower
    half, under body text of its column and with none below it. They are read after the page's body,
    where a paragraph running on to the next page would otherwise be cut by them."""
    small = [
        (k, u)
        for k, u in enumerate(units)
        if u.kind in ("paragraph", "list_item")
        and u.lines  # cheapest tests first
        and all(line.size <= body - SMALLER_THAN_BODY for line in u.lines)
        and _placed_box(u)[1] >= FOOTNOTE_LOWER_HALF * placed.height
        and sum(len(line.text) for line in u.lines) >= FOOTNOTE_MIN_CHARS
    ]
    if not small:
        return set()
    text = [
        _placed_box(u)
        for u in units
        if u.kind in ("paragraph", "list_item") and any(abs(line.size - body) <= SAME_SIZE for line in u.lines)
    ]
    # A table's own notes under it stay footnotes; a figure over small type makes that its caption.
    floats = [u.bbox for u in units if u.kind == "figure" and u.bbox is not None]
    out = set()
    for k, unit in small:
        box = _placed_box(unit)
        column = [o for o in text if min(o[2], box[2]) > max(o[0], box[0])]
        above = [o[3] for o in column if o[3] <= box[1] + 1]
        if not above or any(o[1] >= box[3] - 1 for o in column) or CAPTION.match(unit.text):
            continue
        # A caption under a figure low in a column: the figure, not text, stands over it.
        if any(max(above) < f[3] <= box[1] + 1 and min(f[2], box[2]) > max(f[0], box[0]) for f in floats):
            continue
        out.add(k)
    return out


def _runs_on(pending: Unit, unit: Unit) -> bool:
    """The page's last paragraph goes on in the next page's first: it reads on, or its last line
    is full and ends without a sentence stop ("... open-domain" | "QA datasets, ...")."""
    last = pending.lines[-1]
    if continues(last.text, unit.lines[0].text):
        return True
    left = min(line.bbox[0] for line in pending.lines)
    right = max(line.bbox[2] for line in pending.lines)
    full = len(pending.lines) > 1 and last.bbox[2] >= right - FULL_LINE_SLACK * (right - left)
    return full and not last.text.rstrip().endswith(TERMINAL) and abs(last.size - unit.lines[0].size) <= SAME_SIZE


def _text_block(unit: Unit, path: tuple[str, ...], markers: list[float], spelt: Spelling) -> Block:
    # Lines the rejoin pass returned from a band carry a block number below zero.
    decided = "rejoin_bands" if all(line.block < 0 for line in unit.lines) else "units"
    meta: BlockMeta = {"font_size": unit.lines[0].size, "band": None, "pdf_pass": decided}
    if unit.page_end is not None:
        meta["page_end"] = unit.page_end
    text = join_lines([line.text for line in unit.lines], spelt)
    level = 0
    if unit.kind == "list_item":
        # The marker is kept apart, as Word's is: the chunk shows it once, before the text.
        marker, text = list_marker(text) or ("", text)
        meta["marker"] = marker
        x = unit.lines[0].bbox[0]
        while markers and markers[-1] > x + LIST_INDENT_STEP:
            markers.pop()
        if not markers or x > markers[-1] + LIST_INDENT_STEP:
            markers.append(x)
        level = len(markers) - 1
    else:
        markers.clear()
    return Block(unit.kind, text, path, level=level, page=unit.page, bbox=_bbox(unit), meta=meta)


def _margin_block(group: tuple[Band, tuple[Line, ...]], placed: PageLines, path: tuple[str, ...]) -> Block:
    band, lines = group
    ordered = sorted(lines, key=lambda line: (round(line.bbox[1] / max(line.height, 1)), line.bbox[0]))
    text = " ".join(line.text.replace("\u00ad", "") for line in ordered)
    box = box_of(lines)
    meta: BlockMeta = {
        "band": band,
        "segments": tuple(line.text.replace("\u00ad", "") for line in ordered),
        "font_size": lines[0].size,
        "rotated": any(line.rotated for line in lines),
        "italic": all(line.italic for line in lines),
        "page_width": placed.width,
        "page_height": placed.height,
        "left_edge": placed.left_edge,
        "pdf_pass": "margins",
    }
    if placed.label:
        meta["page_label"] = placed.label
    return Block("paragraph", text, path, page=placed.number, bbox=box, meta=meta)


def _bbox(unit: Unit) -> tuple[float, float, float, float] | None:
    return unit.bbox if unit.bbox is not None else box_of(unit.lines)


def _placed_box(unit: Unit) -> tuple[float, float, float, float]:
    """The box of a unit with lines (each one asked about here has them)."""
    box = _bbox(unit)
    assert box is not None
    return box
