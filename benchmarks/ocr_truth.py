"""Headings against ground truth independent of ingest, for ocr_eval.py (#26): the pages of the
corpus docling test PDFs (`pdf_groundtruth.truth_files`) and of pdfeval's doclingeval set (human
layout boxes), each page's `title`/`section_header` items of the body layer as its headings.

ocr_eval scores the same page twice with `score`: read from its text layer and read by OCR from
its render, so a text layer that is itself wrong (a logo drawn as an image, a semibold face the
font calls regular) counts against the text layer, not as OCR's error. Headings are matched with
pdfeval's own rule (`struct_eval.headings_match`, as pdf_eval's head recall and precision), on the
page alone: a heading found on another page is not found.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pdf_groundtruth import truth_files
from shared_paths import CORPUS, PDFEVAL


def _shared_scorer() -> Any:
    """pdfeval's struct_eval, imported from its folder (it is no package) and registered under
    its name, as its dataclasses need their module in sys.modules."""
    spec = importlib.util.spec_from_file_location("struct_eval", PDFEVAL / "tools" / "struct_eval.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"pdfeval's scorer not found under {PDFEVAL / 'tools'}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["struct_eval"] = module
    spec.loader.exec_module(module)
    return module


_struct = _shared_scorer()

MATCH_THRESHOLD = 90.0
"""rapidfuzz ratio a heading must reach to match, pdfeval_score's own setting."""

UNREAD_SCRIPTS = ("right_to_left_",)
"""Corpus files in a script the packaged OCR model does not read (Arabic, Persian: see
`ingest.ocr.engine.LANGUAGES`); the issue's target is on what the engine reads."""


@dataclass(frozen=True, slots=True)
class TruthPage:
    path: Path
    page: int  # 0-based
    kind: str
    headings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HeadingScore:
    truth: int  # distinct ground-truth headings on the page
    found: int  # of them, matched by a heading read
    read: int  # distinct headings read
    true: int  # of them, matching a ground-truth heading


def page_headings(gt: Path) -> dict[int, list[str]]:
    """A docling ground truth's headings by 1-based page, in its reading order."""
    doc = json.loads(gt.read_text(encoding="utf-8"))
    pages: dict[int, list[str]] = {}
    for item in doc.get("texts", []):
        text = item.get("text") or ""
        if item.get("content_layer", "body") != "body" or item.get("label") not in _struct.HEADING_LABELS:
            continue
        if _struct.norm_line(text) and item.get("prov"):
            pages.setdefault(item["prov"][0]["page_no"], []).append(text)
    return pages


def truth_pages(kinds: dict[str, str]) -> list[TruthPage]:
    """Every page of the PDFs with docling ground truth, with and without headings; `kinds` names
    a corpus file's kind by its file name (pdfeval's by its manifest's tags)."""
    import pymupdf

    pairs = [(pdf, gt, kinds.get(pdf.name, "prose")) for pdf, gt in truth_files(CORPUS)]
    pairs = [p for p in pairs if not p[0].name.startswith(UNREAD_SCRIPTS)]
    tags = manifest_tags()
    for gt in sorted((PDFEVAL / "doclingeval" / "groundtruth").glob("*.json")):
        pdf = gt.parent.parent / "sources" / f"{gt.stem}.pdf"
        if pdf.exists():
            pairs.append((pdf, gt, tags.get(gt.stem, "doclingeval")))
    pages = []
    for pdf, gt, kind in pairs:
        heads = page_headings(gt)
        with pymupdf.open(pdf) as doc:
            count = doc.page_count
        pages += [TruthPage(pdf, k, kind, tuple(heads.get(k + 1, ()))) for k in range(count)]
    return pages


def manifest_tags() -> dict[str, str]:
    """pdfeval's layout tags by document ("report,designed")."""
    lines = (PDFEVAL / "manifest.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return {cols[1]: cols[3] for cols in (line.split("\t") for line in lines) if len(cols) > 3}


def distinct(texts: list[str]) -> list[str]:
    """One of each heading text, as pdfeval counts them (a running title read twice is one)."""
    seen: dict[str, str] = {}
    for t in texts:
        seen.setdefault(_struct.norm_line(t), t)
    seen.pop("", None)
    return list(seen.values())


def _match(a: str, b: str) -> bool:
    return bool(_struct.headings_match(a, b, MATCH_THRESHOLD))


def score(truth: list[str], read: list[str]) -> HeadingScore:
    """Recall and precision of the headings read on a page against its ground truth."""
    truth, read = distinct(truth), distinct(read)
    found = sum(any(_match(t, r) for r in read) for t in truth)
    true = sum(any(_match(t, r) for t in truth) for r in read)
    return HeadingScore(len(truth), found, len(read), true)


def unmatched(heads: list[str], others: list[str]) -> list[str]:
    """The `heads` that match none of `others` (by `score`'s rule)."""
    return [h for h in heads if not any(_match(h, o) for o in others)]
