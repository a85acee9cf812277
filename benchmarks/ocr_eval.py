"""OCR of rendered corpus pages against their own text layer (#26): word recall at 300 and 150 dpi,
headings found on the OCRed pages against the same pages read as text, and pages/s on one core
beside pymupdf's get_text("dict").

Each page of a corpus text PDF is rendered at the scanner's resolution, wrapped as an image-only
PDF page and loaded through the PDF loader (`pdf: {ocr: auto}`), so the figures are those of the
whole path: the render, the engine, and the line, heading and paragraph rules on its lines. The
ground truth is the loader's text of the original page (its hyphens undone the same way).

    python benchmarks/ocr_eval.py                    # all pages, 300 and 150 dpi (tens of minutes)
    python benchmarks/ocr_eval.py --limit 6 --dpi 300  # a sample while developing
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, as in a worker

import pymupdf
from shared_paths import CORPUS, PDFEVAL

from ingest.loaders import load_bytes, load_file, local_document
from ingest.loaders.options import LoaderOptions, PdfOptions
from tests.pdf.scans import recall, scanned_pdf, words

# (file, 0-based pages, kind): prose, two columns, tables, and others (forms, slides, French).
PAGES: list[tuple[Path, tuple[int, ...], str]] = [
    (CORPUS / "docling/pdf/sources/multi_page.pdf", (0, 1, 2, 3, 4), "prose"),
    (CORPUS / "unstructured/example-docs/language-docs/fr_olap.pdf", (0, 1, 2, 3, 4), "prose (French)"),
    (CORPUS / "freelaw_doctor/doctor/test_assets/missouri.pdf", (0, 1, 2), "prose (court)"),
    (CORPUS / "freelaw_doctor/doctor/test_assets/recap_documents/ca5_00516242060.pdf", (0, 1, 2, 3), "prose (court)"),
    (CORPUS / "docling/pdf/bookmark_sample.pdf", (0, 1, 2), "prose (headings)"),
    (CORPUS / "unstructured/example-docs/pdf/multi-column-2p.pdf", (0, 1), "two columns"),
    (CORPUS / "unstructured/example-docs/pdf/layout-parser-paper-with-empty-pages.pdf", (0, 2), "two columns"),
    (PDFEVAL / "olmocr/pdfs/olmo2-pg4.pdf", (0,), "two columns"),
    (CORPUS / "docling/pdf/sources/2305.03393v1-pg9.pdf", (0,), "two columns"),
    (CORPUS / "docling/pdf/sources/code_and_formula.pdf", (0, 1), "two columns"),
    (CORPUS / "docling/pdf/sources/table_mislabeled_as_picture.pdf", (0,), "tables"),
    (CORPUS / "unstructured/example-docs/pdf/list-item-example.pdf", (0, 1), "lists"),
    (CORPUS / "unstructured/example-docs/pdf/interface-config-guide-p93.pdf", (0,), "manual"),
    (PDFEVAL / "olmocr/pdfs/earnings.pdf", (0,), "tables"),
    (CORPUS / "unstructured/example-docs/pdf/reliance.pdf", (0, 1, 2), "tables"),
    (CORPUS / "docling/pdf/sources/picture_classification.pdf", (0, 1), "prose"),
    (CORPUS / "unstructured/example-docs/pdf/header-test-doc.pdf", (0,), "furniture"),
]


def page_text(loaded, page: int) -> str:
    return " ".join(b.text for b in loaded.blocks if b.page == page)


def headings(loaded, page: int) -> int:
    return sum(1 for b in loaded.blocks if b.page == page and b.kind == "heading")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dpi", type=int, nargs="+", default=[300, 150])
    parser.add_argument("--limit", type=int, default=0, help="pages to score (0: all); spread over the kinds")
    args = parser.parse_args()

    pages = [(path, k, kind) for path, ks, kind in PAGES if path.exists() for k in ks]
    if args.limit:
        step = max(1, len(pages) // args.limit)
        pages = pages[::step][: args.limit]
    options = LoaderOptions(pdf=PdfOptions(ocr="auto"))
    text_loads = {path: load_file(path) for path, _, _ in pages}

    started = time.perf_counter()
    for path, k, _ in pages:
        with pymupdf.open(path) as doc:
            doc[k].get_text("dict")
    dict_rate = len(pages) / (time.perf_counter() - started)

    print(f"{len(pages)} pages of {len({p for p, _, _ in pages})} files")
    for dpi in args.dpi:
        hits = total = 0
        heads_ocr = heads_text = 0
        seconds = 0.0
        by_kind: dict[str, list[float]] = {}
        for path, k, kind in pages:
            truth = words(page_text(text_loads[path], k + 1))
            if not truth:
                continue
            data = scanned_pdf(path, [k], dpi)
            t = time.perf_counter()
            loaded = load_bytes(data, local_document(path, data, 0), options)
            seconds += time.perf_counter() - t
            r = recall(truth, page_text(loaded, 1))
            hits += round(r * len(truth))
            total += len(truth)
            by_kind.setdefault(kind, []).append(r)
            heads_ocr += headings(loaded, 1)
            heads_text += headings(text_loads[path], k + 1)
            print(f"  {dpi} dpi  {path.name[:40]:40} p{k + 1:<3} {kind:18} recall {r:6.1%}", file=sys.stderr)
        print(f"\n{dpi} dpi: word recall {hits / total:.1%} over {total} words")
        for kind, rs in sorted(by_kind.items()):
            print(f"  {kind:18} {sum(rs) / len(rs):6.1%}  ({len(rs)} pages)")
        print(f"  headings on OCRed pages: {heads_ocr} (the text layer's: {heads_text})")
        print(f"  OCR through the loader: {len(pages) / seconds:.3f} pages/s on one core")
    print(f'\npymupdf get_text("dict"): {dict_rate:.1f} pages/s')


if __name__ == "__main__":
    main()
