"""A PDF page read by OCR: rendered, read by the engine (`ingest.ocr.engine`), and given back as
`Line`s in PDF points, so the loader finds headings, furniture and paragraphs on it as on text.

An OCR box holds a line's ink from ascenders to descenders, padded by the detector: its height is
`SIZE_PER_HEIGHT` times the type's size. Boxes of one size of type differ by a few per cent with
the letters a line holds ("ace" against "Tilt"), which would read as headings; heights within
`SAME_SIZE` of the page's usual line are given its size. The detector's padding differs from line
to line as well (box over type size 1.0-1.36 on lines of one face, whatever letters they hold), so
lines that run on in one column are one block within `BLOCK_SIZES` and take the size most of its
lines have: a paragraph's line boxed a fifth taller is no heading and does not break it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...blocks import Block, BlockMeta
from ...ocr.engine import INSTALL_HINT, OcrLine, available, read_image, unread_languages
from ..options import PdfOptions
from .model import Line
from .ocr_figures import drawn_regions
from .paragraphs import continues
from .text_layer import PageText, pages_phrase

RENDER_DPI = 200
"""Resolution a page is rendered at for OCR: the detector works on at most 2000 pixels a side,
which a letter page reaches at 200 dpi; more costs time and reads no better."""

SIZE_PER_HEIGHT = 1.1
"""An OCR box's height over the size of its type (measured on rendered text pages: 1.0-1.25, 1.1 most often)."""

SAME_SIZE = (0.22, 0.30)
"""Heights this share below or above the page's usual line height are of its size of type: a
line without descenders or ascenders ("UNITED STATES", "ocean") is boxed lower, by up to a fifth;
the detector pads a line of one face up to 1.36 times its size, so a line boxed a fifth or a
quarter taller (a table's cell, a chart's label, an affiliation under a title: the false
headings of the rendered corpus pages, 1.17-1.30 times the body) is of the body's size too.
Headings set larger and not bold measure 1.31-1.46 times the body there. (0.12 above gave 16
more false headings on 43 pages at 300 dpi and found no heading more.)"""

UPRIGHT = 2.0
"""A box this many times taller than wide, of more than two characters, is text set sideways (a
letterhead up the margin): its size is its width's."""

LOW_CONFIDENCE = 0.80
"""Mean confidence (over characters) below which a page's OCR is said in a warning: clean scans
read at 0.95 and above; below 0.8 one word in several is wrong."""


@dataclass(frozen=True, slots=True)
class OcrPage:
    lines: list[Line]
    confidence: float
    """Mean of the lines' confidences, weighted by their characters (0 where nothing was read)."""
    drawings: tuple[tuple[float, float, float, float], ...] = ()
    """Areas (points) the page draws in rather than writes (`ocr_figures.drawn_regions`)."""


def page_pixels(page: Any, dpi: int = RENDER_DPI) -> tuple[Any, float]:
    """The page rendered (RGB array) and the points per pixel."""
    import numpy as np

    pix = page.get_pixmap(dpi=dpi, alpha=False)
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.w, pix.n)
    return image, 72.0 / dpi


BOLD_STROKE = 1.3
"""A line whose strokes are this many times as wide (for its size of type) as the page's usual
line's is bold. Measured on a page rendered at 200 dpi: bold headings 2.7-3.0 pixels, the body
1.6-1.8 (2.0-2.3 on lines that open with a bold lead-in)."""

TAIL = 1 / 3
"""Share of a line's box, at its right end, whose strokes must be bold too for the line to be
bold: a line that opens with a bold lead-in ("Wang Laboratories: In the 1970s, ...", a list item's
bold first phrase) measures bold over its whole box (2.0-2.3 pixels against the body's 1.6-1.8)
but runs on in the body's weight, and so is body; a bold heading is bold to its last letters.
A lead-in bolds a line as a whole when it fills half or more of it (on a page rendered at 200
dpi, a lead-in over two thirds of a line measures 2.6 pixels, the line's last third 1.9, the body
1.9, a bold heading 2.9 over the whole and the last third alike); the last third is clear of any
lead-in short of that and still holds some letters of a one-word heading."""

INK = 128
"""Grey level (0-255) below which a pixel is ink where a box shows no paper to measure against
(light type on a dark panel)."""

PAPER_CONTRAST = 32
"""Grey levels (0-255) a box's ink must lie below its paper for the strokes to be read at half
its depth; less is a box without type in it, read against `INK`."""


def read_page(page: Any, first_block: int = 0) -> OcrPage:
    """OCR of a pymupdf page (its visible content: images, and any text drawn)."""
    image, scale = page_pixels(page)
    found = read_image(image, max(page.rect.width, page.rect.height) / 72)
    strokes = [stroke_width(image, line.box) for line in found]
    tails = [stroke_width(image, _tail(line.box)) for line in found]
    read = to_lines(found, scale, first_block, strokes, tails)
    return replace(read, drawings=tuple(drawn_regions(image, [(line.box, line.text) for line in found], scale)))


def _tail(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The right-hand `TAIL` of a box."""
    x0, y0, x1, y1 = box
    return (x1 - TAIL * (x1 - x0), y0, x1, y1)


def stroke_width(image: Any, box: tuple[float, float, float, float]) -> float:
    """Mean width in pixels of the strokes in a box of the image: twice the ink's area over its
    edge's length (a stroke w wide and l long has area w*l and edges 2*l). Ink is what lies
    darker than halfway between the box's paper (its median grey) and its ink (its darkest grey),
    so strokes are measured at half their depth whatever their colour: against a fixed grey a
    heading in teal (grey 125) measured its strokes' cores only, and at 150 dpi, where a thin
    stroke's blur keeps its core light, a light face in grey 65 was thinned against a bold one.
    Measured so, lines read at 150 and at 300 dpi are within a few hundredths of each other over
    the page's usual line (bold headings 1.4-2.0 times it at either)."""
    import numpy as np

    x0, y0, x1, y1 = (max(0, round(v)) for v in box)
    grey = image[y0:y1, x0:x1].mean(axis=2)
    if not grey.size:
        return 0.0
    paper, depth = float(np.median(grey)), float(grey.min())
    ink = grey < ((paper + depth) / 2 if paper > INK and paper - depth >= PAPER_CONTRAST else INK)
    edges = np.count_nonzero(ink[:, 1:] != ink[:, :-1]) + np.count_nonzero(ink[1:, :] != ink[:-1, :])
    return 2 * float(ink.sum()) / edges if edges else 0.0


def to_lines(
    found: list[OcrLine],
    scale: float,
    first_block: int = 0,
    strokes: Sequence[float] | None = None,
    tails: Sequence[float] | None = None,
) -> OcrPage:
    """The engine's lines as `Line`s in points (`scale` points per pixel), grouped into blocks
    as MuPDF groups a PDF's lines (`blocks`), so the paragraph rules read them alike; bold where
    their `strokes` (widths in pixels, one a line) and those of their `tails` (`TAIL`) say so."""
    if not found:
        return OcrPage([], 0.0)
    sideways = [_sideways(ln) for ln in found]
    heights = [round(_across(ln, side) * scale, 1) for ln, side in zip(found, sideways, strict=True)]
    usual = Counter(round(h) for h, side in zip(heights, sideways, strict=True) if not side).most_common(1)
    lines = []
    for ocr, height, side in zip(found, heights, sideways, strict=True):
        if usual and (1 - SAME_SIZE[0]) * usual[0][0] <= height <= (1 + SAME_SIZE[1]) * usual[0][0]:
            height = usual[0][0]
        x0, y0, x1, y1 = (v * scale for v in ocr.box)
        size = round(height / SIZE_PER_HEIGHT, 1)
        lines.append(Line(" ".join(ocr.text.split()), (x0, y0, x1, y1), size, False, 0, rotated=side))
    if strokes is not None:
        ends = [width * scale for width in tails] if tails is not None else None
        lines = _bold(lines, [width * scale for width in strokes], ends)
    chars = sum(len(ln.text) for ln in found)
    confidence = sum(ln.confidence * len(ln.text) for ln in found) / chars
    return OcrPage(blocks(lines, first_block), confidence)


def _bold(lines: list[Line], strokes: list[float], tails: list[float] | None = None) -> list[Line]:
    """The lines, bold where their strokes (in points) over their size are `BOLD_STROKE` times
    the page's usual (the median over its characters), over the whole line and over its `tails`
    (its last `TAIL`) alike; a tail without ink (a box's padding) says nothing."""

    def weights(widths: list[float]) -> list[float]:
        return [width / line.size if line.size else 0.0 for line, width in zip(lines, widths, strict=True)]

    whole = weights(strokes)
    ends = weights(tails) if tails is not None else whole
    by_chars = sorted((w, len(line.text)) for w, line in zip(whole, lines, strict=True))
    half, seen = sum(n for _, n in by_chars) / 2, 0
    usual = next(w for w, n in by_chars if (seen := seen + n) >= half)
    bar = BOLD_STROKE * usual
    return [
        replace(line, bold=usual > 0 and w >= bar and (end >= bar or end == 0))
        for line, w, end in zip(lines, whole, ends, strict=True)
    ]


def _over(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Box a's middle lies in box b: OCR's box of a line the text layer holds."""
    x, y = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    return b[0] <= x <= b[2] and b[1] <= y <= b[3]


def _sideways(line: OcrLine) -> bool:
    x0, y0, x1, y1 = line.box
    return len(line.text) > 2 and (y1 - y0) > UPRIGHT * (x1 - x0)


def _across(line: OcrLine, sideways: bool) -> float:
    """The box's extent across its text: its height, or a sideways line's width."""
    x0, y0, x1, y1 = line.box
    return x1 - x0 if sideways else y1 - y0


BLOCK_GAP = 0.8
"""Space between two lines of one block, in line heights: a paragraph's leading leaves a fifth
to a half of a line; a paragraph break, a heading's space or a table row's leaves more."""

BLOCK_OVERLAP = 0.5
"""Share of the narrower of two lines that the other spans for them to stand in one column."""


BLOCK_SIZES = 0.25
"""Two lines' sizes differing by up to this share of the smaller are one size of type boxed with
more or less padding (measured: box over type size from 1.0 to 1.36 on the lines of one face); a
heading set a size up stands apart by its space as well."""


def blocks(lines: list[Line], first_block: int = 0) -> list[Line]:
    """The lines, top to bottom, each numbered with its block: a line joins the block whose last
    line stands right above it in the same column, in about the same size of type; each block's
    lines then take the size most of them have."""
    out: list[Line] = []
    last: dict[int, Line] = {}  # block number: its lowest line so far
    for line in sorted(lines, key=lambda ln: (ln.bbox[1], ln.bbox[0])):
        number = next((k for k, above in last.items() if _runs_on(above, line)), first_block + len(last))
        placed = replace(line, block=number)
        last[number] = placed
        out.append(placed)
    sizes: dict[int, Counter[float]] = {}
    for line in out:
        sizes.setdefault(line.block, Counter())[line.size] += len(line.text)
    usual = {block: counts.most_common(1)[0][0] for block, counts in sizes.items()}
    # Block by block, as MuPDF gives a text layer's lines: the page's usual line pitch is read
    # between lines in this order, and two columns' lines interleaved top to bottom give a pitch
    # of a fraction of a line, by which every line of prose stands apart as a paragraph.
    out.sort(key=lambda line: line.block)
    return [line if line.size == usual[line.block] else replace(line, size=usual[line.block]) for line in out]


def _runs_on(above: Line, line: Line) -> bool:
    width = min(above.bbox[2] - above.bbox[0], line.bbox[2] - line.bbox[0])
    overlap = min(above.bbox[2], line.bbox[2]) - max(above.bbox[0], line.bbox[0])
    gap = line.bbox[1] - above.bbox[3]
    # A sentence that runs on from one line into the next (no sentence end, a lower-case word
    # after) is one paragraph whatever weight and height the detector's boxes give its first
    # line (a formula's boxes under it, taller still, stay apart): a line opening with a bold
    # lead-in, boxed a quarter taller ("IBM MT/ST (Magnetic Tape/...):
    # Introduced in 1964, this" / "machine combined ..."), is its paragraph's first, no heading.
    return (
        not above.rotated
        and not line.rotated
        and overlap >= BLOCK_OVERLAP * width
        and -0.3 * line.height <= gap <= BLOCK_GAP * line.height
        and (
            (above.size >= line.size and continues(above.text, line.text))
            or (
                above.bold == line.bold and max(above.size, line.size) <= (1 + BLOCK_SIZES) * min(above.size, line.size)
            )
        )
    )


class PageReader:
    """The loader's OCR of one document: which pages it reads (by `PdfOptions.ocr` and each page's
    text-layer verdict), what it read them with, and what it has to say about them."""

    def __init__(self, options: PdfOptions, damaged: bool = False) -> None:
        self.mode = options.ocr
        self.damaged = damaged
        self.languages = options.ocr_languages
        self.installed = self.mode != "never" and available()
        self.confidence: dict[int, float] = {}
        """Pages read by OCR, with the engine's mean confidence on each."""
        self.unread: list[int] = []
        """Pages that wanted OCR where the OCR extra is not installed."""

    def wanted(self, verdict: PageText) -> bool:
        """Whether the page is to be OCRed: every page (always), or one whose text layer does not
        say what the page says (auto). In a damaged file (one MuPDF repaired) a garbage page is
        what the damage left: its fonts are lost, so its image shows no more than its text."""
        if self.mode == "auto" and self.damaged and verdict.verdict == "garbage":
            return False
        return self.mode == "always" or (self.mode == "auto" and not verdict.usable)

    def read(self, page: Any, number: int, kept: Sequence[Line] = ()) -> OcrPage | None:
        """The page read by OCR, with the text layer's `kept` lines (a scan's stamp line: real text,
        which OCR would read again, and worse where two stamps overprint) in place of what OCR read
        there; None where the OCR extra is not installed (noted for a warning)."""
        if not self.installed:
            if self.mode != "never":
                self.unread.append(number)
            return None
        first = max((line.block for line in kept), default=-1) + 1
        ocr = read_page(page, first)
        self.confidence[number] = ocr.confidence
        if kept:
            read = [line for line in ocr.lines if not any(_over(line.bbox, k.bbox) for k in kept)]
            ocr = OcrPage([*kept, *read], ocr.confidence, ocr.drawings)
        return ocr

    def warnings(self, uri: str) -> list[str]:
        out = []
        if self.unread:
            out.append(f"{uri}: {pages_phrase(self.unread)} not OCRed: {INSTALL_HINT}")
        low = [n for n, c in self.confidence.items() if c < LOW_CONFIDENCE]
        if low:
            worst = min(self.confidence[n] for n in low)
            out.append(
                f"{uri}: OCR of {pages_phrase(low)} is unsure (mean confidence {worst:.0%} at worst, under "
                f"{LOW_CONFIDENCE:.0%}): a blurred, skewed or faint scan; check the text or rescan at 300 dpi"
            )
        unknown = unread_languages(self.languages) if self.confidence else []
        if unknown:
            out.append(
                f"{uri}: the OCR model does not read {', '.join(unknown)} (it reads Latin scripts, Chinese and "
                "Japanese): text in those languages is missing or wrong"
            )
        return out

    def mark(self, block: Block) -> Block:
        """An OCR page's block marked as OCR text, with the engine's confidence on its page."""
        if block.page not in self.confidence:
            return block
        meta = BlockMeta(**block.meta)
        meta["ocr"] = True
        meta["ocr_confidence"] = round(self.confidence[block.page], 3)
        return replace(block, meta=meta)
