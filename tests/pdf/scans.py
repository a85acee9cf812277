"""Scans with ground truth, made at test time from corpus text PDFs: a page rendered by pymupdf at
a scanner's resolution, wrapped as an image-only PDF page (or saved as PNG), so what OCR reads can
be scored against the page's own text layer."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf

STAMP = "Case 1:09-cv-01234 Document 12 Filed 2/2/09"
"""A court's e-filing stamp, as one line of real text over a scanned page."""


def scanned_pdf(path: Path, pages: list[int], dpi: int, stamp: str | None = None) -> bytes:
    """The PDF's `pages` (0-based) as images only, at `dpi`; with `stamp` written as text on each."""
    out = pymupdf.open()
    with pymupdf.open(path) as doc:
        for k in pages:
            page = doc[k]
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=page.get_pixmap(dpi=dpi))
            if stamp:
                new.insert_text((40, 20), f"{stamp} Page {k + 1}", fontsize=9)
    return out.tobytes()


def text_page(path: Path, page: int) -> bytes:
    """The PDF's one page (0-based) as a PDF of its own, text layer and all: the ground truth read
    as the scan is, one page alone, so neither side has a paragraph run on from the next page
    nor furniture found by its repeats on the others."""
    out = pymupdf.open()
    with pymupdf.open(path) as doc:
        out.insert_pdf(doc, from_page=page, to_page=page)
    return out.tobytes()


def page_png(path: Path, page: int, dpi: int) -> bytes:
    with pymupdf.open(path) as doc:
        return doc[page].get_pixmap(dpi=dpi).tobytes("png")


def page_words(path: Path, page: int) -> list[str]:
    """The words of the page's text layer (the ground truth), lower-cased."""
    with pymupdf.open(path) as doc:
        return words(doc[page].get_text())


def words(text: str) -> list[str]:
    """The text's words, lower-cased: runs of letters and figures, so quotes, apostrophes and
    dashes count on neither side; a form's blank ("________") is a drawn rule, not a word."""
    return [w for w in re.findall(r"\w+", text.lower()) if w.strip("_")]


def recall(truth: list[str], read: str) -> float:
    """Share of the ground truth's words (counted with repeats) found in what was read."""
    found: dict[str, int] = {}
    for w in words(read):
        found[w] = found.get(w, 0) + 1
    hits = 0
    for w in truth:
        if found.get(w, 0) > 0:
            found[w] -= 1
            hits += 1
    return hits / len(truth) if truth else 1.0
