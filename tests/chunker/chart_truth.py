"""A journal article's page with plots drawn in vectors, and what one of them holds as pymupdf reads
it (its drawings and the words set among them), for the figure tests of the chunker and search."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pymupdf

from tests.paths import PDFEVAL

ARTICLE = PDFEVAL / "doclingeval/sources/32a7d8aa5e0c78888082fdbf7e514cb283f0140e4af1144ee94f5a6b2bfb7424.pdf"
CAPTION = "Fig. 9."
REACH = 24.0
"""Points round a plot's drawings where its axis titles and tick labels are set."""


def figure_on_page(path: Path, caption: str) -> tuple[int, str, list[str]]:
    """(page, the caption's line, the words set among the drawings right above it) from pymupdf."""
    with pymupdf.open(path) as doc:
        for page in doc:
            found = page.search_for(caption)
            if not found:
                continue
            cap = found[0]
            words = page.get_text("words")
            line = " ".join(w[4] for w in words if abs(w[1] - cap.y0) < 2 and w[0] >= cap.x0 - 1)
            line = unicodedata.normalize("NFKC", line)  # the font's "ﬁ" ligature, as the loader reads it
            drawn = [
                d["rect"]
                for d in page.get_drawings()
                if d["rect"].y1 <= cap.y0 and d["rect"].y0 >= cap.y0 - 200 and d["rect"].x0 < cap.x1 + 250
            ]
            box = pymupdf.Rect(
                min(r.x0 for r in drawn), min(r.y0 for r in drawn), max(r.x1 for r in drawn), max(r.y1 for r in drawn)
            )
            area = box + (-REACH, 0, REACH, REACH)
            labels = [w[4] for w in words if pymupdf.Rect(w[:4]).intersects(area) and w[3] < cap.y0]
            return page.number + 1, line, labels
    raise AssertionError(f"{caption} not found")
