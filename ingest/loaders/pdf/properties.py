"""A PDF's document properties (its Info dictionary) and page labels, as `Document.meta` facts:
what the document card shows (`ingest.chunker.card`), and a question may ask about.

The producing application ("Microsoft Word", "PDFium") is left out: it tells about the file, not
the document. Dates are read as far as they parse ("D:20220416123418" -> "2022-04-16"); a
malformed one keeps what parsed.
"""

from __future__ import annotations

import re

import pymupdf

_FIELDS = (("author", "author"), ("subject", "subject"), ("keywords", "keywords"))
_DATES = (("created", "creationDate"), ("modified", "modDate"))
_DATE = re.compile(r"^(?:D:)?(\d{4})(\d{2})?(\d{2})?")


def pdf_properties(doc: pymupdf.Document) -> dict[str, str]:
    """author, subject, keywords, created, modified (those filled in) and page_labels (the ranges
    the PDF labels its pages with, "i-iv, 1-120", where it labels them)."""
    info = doc.metadata or {}
    out = {key: " ".join(str(info.get(name) or "").split()) for key, name in _FIELDS}
    for key, name in _DATES:
        out[key] = _date(str(info.get(name) or ""))
    out["page_labels"] = page_label_ranges(doc)
    return {k: v for k, v in out.items() if v}


def _date(value: str) -> str:
    m = _DATE.match(value.strip())
    return "-".join(part for part in m.groups() if part) if m else ""


def page_label_ranges(doc: pymupdf.Document) -> str:
    """The first and last label of each labelling rule's pages, "i-iv, 1-120"; "" without labels
    or where they are the page numbers."""
    starts = sorted({int(rule["startpage"]) for rule in doc.get_page_labels()})
    ranges = []
    for i, start in enumerate(starts):
        end = min(starts[i + 1] if i + 1 < len(starts) else doc.page_count, doc.page_count) - 1
        if start > end:
            continue
        first, last = doc[start].get_label(), doc[end].get_label()
        ranges.append(first if first == last else f"{first}-{last}")
    shown = ", ".join(r for r in ranges if r)
    # Labels that are the page numbers themselves ("1-76") tell nothing a page number does not.
    return "" if shown == f"1-{doc.page_count}" or shown == "1" == str(doc.page_count) else shown
