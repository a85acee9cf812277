"""Drawings on a page read by OCR (#26): found from the page's image (its ink outside the lines
read), so a chart's labels and legend are the chart's, as on a text layer, not headings."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from ingest.loaders import load_bytes, local_document
from ingest.loaders.options import LoaderOptions, PdfOptions
from ingest.loaders.pdf.ocr import page_pixels
from ingest.loaders.pdf.ocr_figures import drawn_regions
from tests.pdf.pages import Page, prose
from tests.pdf.scans import words

BARS = ((80, 60), (140, 95), (200, 40), (260, 120))
"""A bar chart's bars: left edge and height in points, on a baseline at y 420."""


def chart_page() -> pymupdf.Document:
    """A report's page: a bold heading over prose, then a bar chart with bold legend labels and
    figures over its bars, and prose under it."""
    doc = pymupdf.open()
    page = Page(doc)
    page.text(60, 90, "Water quality results", size=14, font="hebo")
    page.para(prose(60), width=95)
    for x, h in BARS:
        page.page.draw_rect(pymupdf.Rect(x, 420 - h, x + 40, 420), color=None, fill=(0.3, 0.4, 0.7))
        page.text(x + 10, 420 - h - 4, f"{h}%", size=9)
    page.page.draw_line((70, 420), (300, 420), width=0.8)
    page.page.draw_rect(pymupdf.Rect(312, 330, 322, 340), color=None, fill=(0.3, 0.4, 0.7))
    page.text(328, 339, "Agree", size=10, font="hebo")
    page.page.draw_rect(pymupdf.Rect(312, 350, 322, 360), color=None, fill=(0.8, 0.5, 0.2))
    page.text(328, 359, "Disagree", size=10, font="hebo")
    page.y = 460
    page.para(prose(50, seed=3), width=95)
    return doc


def scanned(doc: pymupdf.Document, dpi: int = 200) -> bytes:
    out = pymupdf.open()
    for page in doc:
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, pixmap=page.get_pixmap(dpi=dpi))
    return out.tobytes()


def text_lines(page: pymupdf.Page, scale: float) -> list[tuple[tuple[float, float, float, float], str]]:
    """The page's lines as OCR gives them: box in pixels, text (here from its text layer)."""
    out = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", ()):
            text = " ".join(span["text"] for span in line["spans"]).strip()
            out.append((tuple(v / scale for v in line["bbox"]), text))
    return out


def test_a_chart_drawn_on_the_page_is_one_region_and_a_frame_or_rules_are_none():
    page = chart_page()[0]
    image, scale = page_pixels(page)
    [region] = drawn_regions(image, text_lines(page, scale), scale)
    # The bars, the baseline and the legend's keys, within the chart's reach of each other.
    assert region[0] <= 81 and region[2] >= 321 and region[1] <= 301 and region[3] >= 419
    doc = pymupdf.open()
    page = Page(doc)
    page.text(60, 90, "Water quality results", size=14, font="hebo")
    page.page.draw_line((60, 96), (540, 96), width=0.5)  # a rule under the heading
    page.para(prose(60), width=95)
    page.page.draw_rect(pymupdf.Rect(50, 100, 550, page.y), width=1)  # a frame round the prose
    image, scale = page_pixels(page.page)
    assert drawn_regions(image, text_lines(page.page, scale), scale) == []


def test_a_scanned_charts_labels_are_its_figure_not_headings():
    data = scanned(chart_page())
    loaded = load_bytes(data, local_document(Path("chart.pdf"), data, 0), LoaderOptions(pdf=PdfOptions(ocr="auto")))
    headings = [words(b.text) for b in loaded.blocks if b.kind == "heading"]
    assert headings == [["water", "quality", "results"]]
    figure = " ".join(b.text for b in loaded.blocks if b.kind == "figure")
    assert {"agree", "disagree", "95"} <= set(words(figure))
