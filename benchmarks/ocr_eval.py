"""OCR of rendered corpus pages against their own text layer (#26): word recall at 300 and 150 dpi,
headings found on the OCRed pages against the same pages read as text, and pages/s on one core
beside pymupdf's get_text("dict"). With `--truth`, the pages that have heading ground truth
independent of ingest (`ocr_truth.py`), each read from its text layer and by OCR from its render,
both scored against that truth with one scorer: headings found and headings true, side by side.

Each page of a corpus text PDF is rendered at the scanner's resolution, wrapped as an image-only
PDF page and loaded through the PDF loader (`pdf: {ocr: auto}`), so the figures are those of the
whole path: the render, the engine, and the line, heading and paragraph rules on its lines. The
ground truth is the loader's text of the original page cut out as a one-page PDF (`text_page`),
so both sides read one page alone: its hyphens undone the same way, no paragraph run on from the
next page, no furniture found by its repeats on other pages. Words are compared as `\w+` runs,
lower-cased, so quotes, apostrophes and dashes (' against ’) count on neither side.

Speed is CPU seconds of this process (the engine runs on one thread), so a machine shared with
other work gives the figure of one core; wall seconds are printed beside it.

    python benchmarks/ocr_eval.py                    # all pages, 300 and 150 dpi (tens of minutes)
    python benchmarks/ocr_eval.py --limit 6 --dpi 300  # a sample while developing
    python benchmarks/ocr_eval.py --pages 0:10         # a slice of the page list (to run in chunks)
    python benchmarks/ocr_eval.py --truth --dpi 300    # the ground-truth pages (21 pages, ~2 min)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import astuple
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, as in a worker

import ocr_truth
import pymupdf
from shared_paths import CORPUS, PDFEVAL, RAGBENCH

from ingest.loaders import load_bytes, local_document
from ingest.loaders.options import LoaderOptions, PdfOptions
from tests.pdf.scans import recall, scanned_pdf, text_page, words

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
    (RAGBENCH / "financebench/pdfs/JPMORGAN_2022Q2_10Q.pdf", (4, 6), "tables"),
    (RAGBENCH / "mmlb/pdfs/PG_2020.03.09_US-Germany_FINAL.pdf", (3, 5), "report (charts)"),
]


def page_text(loaded, page: int = 1) -> str:
    return " ".join(b.text for b in loaded.blocks if b.page == page)


def heading_texts(loaded, page: int = 1) -> list[tuple[str, ...]]:
    return [tuple(words(b.text)) for b in loaded.blocks if b.page == page and b.kind == "heading"]


def matched(heads: list[tuple[str, ...]], others: list[tuple[str, ...]]) -> int:
    """How many of `heads` have their words among one of `others` (OCR misreading a letter of a
    heading, or joining a heading with its number, still finds it where most words agree)."""
    left = list(others)
    hits = 0
    for head in heads:
        for other in left:
            if head and sum(w in other for w in head) >= HEADING_AGREES * len(head):
                left.remove(other)
                hits += 1
                break
    return hits


HEADING_AGREES = 0.75
"""Share of a text-layer heading's words an OCR heading holds to be the same heading."""


def score_page(path: Path, k: int, kind: str, dpi: int, options: LoaderOptions) -> dict | None:
    """One page's record: words, words found, headings of each side and those matched, seconds."""
    single = text_page(path, k)
    text = load_bytes(single, local_document(path, single, 0))
    truth = words(page_text(text))
    if not truth:
        return None
    data = scanned_pdf(path, [k], dpi)
    wall, cpu = time.perf_counter(), time.process_time()
    loaded = load_bytes(data, local_document(path, data, 0), options)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    r = recall(truth, page_text(loaded))
    heads_text, heads_ocr = heading_texts(text), heading_texts(loaded)
    return {
        "file": path.name,
        "page": k + 1,
        "kind": kind,
        "dpi": dpi,
        "words": len(truth),
        "found": round(r * len(truth)),
        "headings_text": len(heads_text),
        "headings_ocr": len(heads_ocr),
        "headings_matched": matched(heads_text, heads_ocr),
        "cpu": cpu,
        "wall": wall,
    }


def body_headings(loaded, page: int = 1) -> list[str]:
    """The page's headings as they reach the heading paths (furniture headings are dropped)."""
    return [b.text for b in loaded.blocks if b.page == page and b.kind == "heading" and b.layer == "body"]


def score_truth_page(page: ocr_truth.TruthPage, dpi: int, options: LoaderOptions) -> dict:
    """One ground-truth page's record: its headings read from the text layer and by OCR, each
    scored against the truth (`ocr_truth.score`), with the words OCR found of the text layer's."""
    single = text_page(page.path, page.page)
    text = load_bytes(single, local_document(page.path, single, 0), options)
    data = scanned_pdf(page.path, [page.page], dpi)
    wall, cpu = time.perf_counter(), time.process_time()
    loaded = load_bytes(data, local_document(page.path, data, 0), options)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    truth = words(page_text(text))
    heads_text, heads_ocr = body_headings(text), body_headings(loaded)
    return {
        "set": "truth",
        "file": page.path.name,
        "page": page.page + 1,
        "kind": page.kind,
        "dpi": dpi,
        "words": len(truth),
        "found": round(recall(truth, page_text(loaded)) * len(truth)),
        "truth_headings": list(page.headings),
        "text_headings": heads_text,
        "ocr_headings": heads_ocr,
        "text": list(astuple(ocr_truth.score(list(page.headings), heads_text))),
        "ocr": list(astuple(ocr_truth.score(list(page.headings), heads_ocr))),
        "cpu": cpu,
        "wall": wall,
    }


def pct(hits: int, of: int) -> str:
    return f"{hits}/{of} {hits / of:.0%}" if of else "-"


def report_truth(records: list[dict]) -> None:
    """Text layer and OCR against the ground truth, per dpi: headings found (recall) and headings
    true (precision), and OCR's difference in points."""
    print("\nheadings against ground truth: the page read from its text layer, and by OCR from its render")
    print("| | pages | headings found: text layer | OCR | points | headings true: text layer | OCR | points |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for dpi in sorted({r["dpi"] for r in records}, reverse=True):
        for kind in [None, *sorted({r["kind"] for r in records})]:
            rs = [r for r in records if r["dpi"] == dpi and kind in (None, r["kind"])]
            # HeadingScore's fields: truth, found, read, true
            t = [sum(r["text"][i] for r in rs) for i in range(4)]
            o = [sum(r["ocr"][i] for r in rs) for i in range(4)]
            found = 100 * (o[1] / o[0] - t[1] / t[0]) if t[0] else None
            true = 100 * (o[3] / o[2] - t[3] / t[2]) if t[2] and o[2] else None
            label = f"{dpi} dpi" if kind is None else f"  {kind}"
            print(
                f"| {label} | {len(rs)} | {pct(t[1], t[0])} | {pct(o[1], o[0])} | "
                f"{'-' if found is None else f'{found:+.1f}'} | {pct(t[3], t[2])} | {pct(o[3], o[2])} | "
                f"{'-' if true is None else f'{true:+.1f}'} |"
            )
    print_misses(records)
    words_by_dpi = {
        dpi: (sum(r["found"] for r in records if r["dpi"] == dpi), sum(r["words"] for r in records if r["dpi"] == dpi))
        for dpi in sorted({r["dpi"] for r in records}, reverse=True)
    }
    print(
        "word recall of OCR against the text layer on these pages: "
        + ", ".join(f"{dpi} dpi {h / n:.1%} of {n}" for dpi, (h, n) in words_by_dpi.items() if n)
    )


def print_misses(records: list[dict]) -> None:
    """Per dpi and page, the true headings OCR missed (marked where the text layer missed them
    too) and the headings OCR read that are none: what the figures above are made of."""
    for dpi in sorted({r["dpi"] for r in records}, reverse=True):
        print(f"\n{dpi} dpi: headings OCR missed (* the text layer too), and OCR's headings that are none")
        for r in (r for r in records if r["dpi"] == dpi):
            truth = ocr_truth.distinct(r["truth_headings"])
            missed = ocr_truth.unmatched(truth, r["ocr_headings"])
            wrong = ocr_truth.unmatched(ocr_truth.distinct(r["ocr_headings"]), truth)
            for head in missed:
                star = "*" if head in ocr_truth.unmatched(truth, r["text_headings"]) else " "
                print(f"  {r['file'][:16]:16} p{r['page']:<2} missed {star} {head[:70]!r}")
            for head in wrong:
                print(f"  {r['file'][:16]:16} p{r['page']:<2} false    {head[:70]!r}")


def report(records: list[dict], dict_rate: float | None) -> None:
    truth = [r for r in records if r.get("set") == "truth"]
    if truth:
        report_truth(truth)
    records = [r for r in records if r.get("set") != "truth"]
    for dpi in sorted({r["dpi"] for r in records}, reverse=True):
        rs = [r for r in records if r["dpi"] == dpi]
        total, found = sum(r["words"] for r in rs), sum(r["found"] for r in rs)
        print(f"\n{dpi} dpi: word recall {found / total:.1%} over {total} words, {len(rs)} pages")
        for kind in sorted({r["kind"] for r in rs}):
            ks = [r for r in rs if r["kind"] == kind]
            share = sum(r["found"] for r in ks) / sum(r["words"] for r in ks)
            print(f"  {kind:18} {share:6.1%}  ({len(ks)} pages)")
        text, ocr, both = (sum(r[f"headings_{s}"] for r in rs) for s in ("text", "ocr", "matched"))
        if text and ocr:
            print(
                f"  headings: the text layer's {text}, OCR's {ocr}; OCR finds {both / text:.0%} of the text "
                f"layer's, {both / ocr:.0%} of OCR's are the text layer's"
            )
        cpu, wall = sum(r["cpu"] for r in rs), sum(r["wall"] for r in rs)
        print(
            f"  OCR through the loader: {len(rs) / cpu:.3f} pages/s on one core ({len(rs) / wall:.3f} by the wall clock)"
        )
    if dict_rate:
        print(f'\npymupdf get_text("dict"): {dict_rate:.1f} pages/s on one core')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dpi", type=int, nargs="+", default=[300, 150])
    parser.add_argument("--limit", type=int, default=0, help="pages to score (0: all); spread over the kinds")
    parser.add_argument("--pages", default="", help="a slice START:END of the page list (to run in chunks)")
    parser.add_argument("--records", type=Path, help="append each page's record to this JSON-lines file")
    parser.add_argument("--report", type=Path, nargs="+", help="summarise record files of earlier runs, run nothing")
    parser.add_argument("--truth", action="store_true", help="score the pages with heading ground truth instead")
    args = parser.parse_args()

    if args.report:
        records = [json.loads(line) for path in args.report for line in path.read_text().splitlines() if line]
        report(records, None)
        return
    if args.truth:
        run_truth(args)
        return
    pages = [(path, k, kind) for path, ks, kind in PAGES if path.exists() for k in ks]
    if args.limit:
        step = max(1, len(pages) // args.limit)
        pages = pages[::step][: args.limit]
    if args.pages:
        start, _, end = args.pages.partition(":")
        pages = pages[int(start or 0) : int(end) if end else None]
    options = LoaderOptions(pdf=PdfOptions(ocr="auto"))

    started = time.process_time()
    for path, k, _ in pages:
        with pymupdf.open(path) as doc:
            doc[k].get_text("dict")
    dict_rate = len(pages) / (time.process_time() - started)

    print(f"{len(pages)} pages of {len({p for p, _, _ in pages})} files")
    records = []
    for dpi in args.dpi:
        for path, k, kind in pages:
            record = score_page(path, k, kind, dpi, options)
            if record is None:
                print(f"  {path.name} p{k + 1}: no words in its text layer, not scored", file=sys.stderr)
                continue
            records.append(record)
            if args.records:
                with args.records.open("a") as f:
                    f.write(json.dumps(record) + "\n")
            print(
                f"  {dpi} dpi  {path.name[:40]:40} p{k + 1:<3} {kind:18} recall "
                f"{record['found'] / record['words']:6.1%}  headings {record['headings_matched']}/"
                f"{record['headings_text']} (OCR {record['headings_ocr']})  {record['cpu']:.1f} s",
                file=sys.stderr,
            )
    report(records, dict_rate)


def run_truth(args: argparse.Namespace) -> None:
    kinds = {path.name: kind for path, _, kind in PAGES}
    pages = ocr_truth.truth_pages(kinds)
    if args.pages:
        start, _, end = args.pages.partition(":")
        pages = pages[int(start or 0) : int(end) if end else None]
    options = LoaderOptions(pdf=PdfOptions(ocr="auto"))
    heads = sum(len(ocr_truth.distinct(list(p.headings))) for p in pages)
    print(f"{len(pages)} ground-truth pages of {len({p.path for p in pages})} files, {heads} headings")
    records = []
    for dpi in args.dpi:
        for page in pages:
            record = score_truth_page(page, dpi, options)
            records.append(record)
            if args.records:
                with args.records.open("a") as f:
                    f.write(json.dumps(record) + "\n")
            (truth, t_found, t_read, t_true), (_, o_found, o_read, o_true) = record["text"], record["ocr"]
            print(
                f"  {dpi} dpi  {page.path.name[:32]:32} p{page.page + 1:<2} {page.kind[:18]:18} truth {truth}: "
                f"text layer {t_found} found, {t_true}/{t_read} true; OCR {o_found} found, {o_true}/{o_read} true  "
                f"{record['cpu']:.1f} s",
                file=sys.stderr,
            )
    report(records, None)


if __name__ == "__main__":
    main()
