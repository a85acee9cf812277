"""Pages per second: the PDF loader plus its cleaners against pymupdf's own text walks and peers.

All on the same PDFs (every PDF of the shared corpus that has text), in one run; each extractor
opens the document from bytes itself. Rounds interleave the extractors (a shared machine's load
falls on all alike). Reported: pages per second in the best round (wall clock), and the median
over rounds of each round's ratio to the floor's time in that round, in CPU time of this process
(steady on a shared machine) and in wall time. Peers run one round.

- floor: `page.get_text("dict")` with text-only flags over every page (what the loader reads);
- `page.get_text("text")`: plain text, no structure;
- ingest: `load_bytes` (pymupdf) + the default PDF cleaner chain, blocks materialised (the
  `Document` each is given, with its content hash, is made before the clock starts: the source's work);
- ingest, loader only;
  both with the PDF loader's `ocr` option as `--ocr` gives it (auto: pages whose text layer cannot be
  read are OCR'd, so a scan inside a PDF with text costs OCR's time; never: the text layer's work alone);
- pymupdf4llm.to_markdown (bench extra; 0.x, which keeps pymupdf < 1.29 and needs no layout model);
- unstructured partition_pdf(strategy="fast") if it is installed.

    .venv/bin/python benchmarks/pdf_speed.py [--rounds 3] [--corpus ../shared/corpus] [--ocr never]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path

import pymupdf
from shared_paths import CORPUS

from ingest.cleaners import build_chain, clean
from ingest.loaders import load_bytes, local_document
from ingest.loaders.options import LoaderOptions, PdfOptions

ROOT = Path(__file__).resolve().parent.parent
if hasattr(pymupdf, "no_recommend_layout"):
    pymupdf.no_recommend_layout()  # pymupdf4llm would print an advert for pymupdf-layout


def corpus_pdfs(corpus: Path) -> list[tuple[Path, bytes]]:
    out = []
    for path in sorted(corpus.rglob("*.pdf")):
        data = path.read_bytes()
        try:
            with pymupdf.open(stream=data, filetype="pdf") as doc:
                if doc.needs_pass or not any(p.get_text("text").strip() for p in doc):
                    continue
        except Exception:
            continue
        out.append((path, data))
    return out


def floor_dict(path: Path, data: bytes) -> None:
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page in doc:
            page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)


def plain_text(path: Path, data: bytes) -> None:
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page in doc:
            page.get_text("text")


def make_ingest(
    with_cleaners: bool, pdfs: list[tuple[Path, bytes]], options: LoaderOptions | None = None
) -> Callable[[Path, bytes], None]:
    steps = build_chain([])
    # The Document (name, type and the content hash that tells a changed file) is the source's
    # work, done for every format before a loader runs; the clock times the loader and cleaners.
    documents = {path: local_document(path, data, 0.0) for path, data in pdfs}

    def run(path: Path, data: bytes) -> None:
        loaded = load_bytes(data, documents[path], options)
        if with_cleaners:
            blocks, _ = clean(loaded.blocks, loaded.document, steps)
            list(blocks)

    return run


def peers() -> dict[str, Callable[[Path, bytes], None] | str]:
    found: dict[str, Callable[[Path, bytes], None] | str] = {}
    try:
        import pymupdf4llm

        def to_markdown(path: Path, data: bytes) -> None:
            with pymupdf.open(stream=data, filetype="pdf") as doc, redirect_stdout(io.StringIO()):
                pymupdf4llm.to_markdown(doc, show_progress=False)

        found[f"pymupdf4llm {pymupdf4llm.__version__} to_markdown"] = to_markdown
    except ImportError:
        found["pymupdf4llm"] = "not installed (pip install -e '.[bench]')"
    try:
        from unstructured.partition.pdf import partition_pdf

        def fast(path: Path, data: bytes) -> None:
            partition_pdf(file=io.BytesIO(data), strategy="fast")

        found["unstructured partition_pdf fast"] = fast
    except Exception as exc:  # ImportError, or a missing system package behind it
        found["unstructured partition_pdf fast"] = f"not measured: {type(exc).__name__}: {exc}"[:160]
    return found


def timed(fn: Callable[[Path, bytes], None], pdfs: list[tuple[Path, bytes]]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for one pass over the PDFs."""
    wall, cpu = time.perf_counter(), time.process_time()
    for path, data in pdfs:
        fn(path, data)
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(
    runs: dict[str, Callable[[Path, bytes], None]], pdfs: list[tuple[Path, bytes]], rounds: int
) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds per round for each run. Rounds interleave the runs, so load from other
    work on the machine falls on all of them alike."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            times[name].append(timed(fn, pdfs))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ocr", choices=("auto", "never"), default="auto", help="the PDF loader's ocr option")
    args = parser.parse_args()
    pdfs = corpus_pdfs(args.corpus)
    pages = 0
    for _, data in pdfs:
        with pymupdf.open(stream=data, filetype="pdf") as doc:
            pages += doc.page_count
    print(f"{len(pdfs)} PDFs, {pages} pages, {args.rounds} rounds, ocr: {args.ocr}")
    options = LoaderOptions(pdf=PdfOptions(ocr=args.ocr))
    runs: dict[str, Callable[[Path, bytes], None]] = {
        'floor: get_text("dict") text flags': floor_dict,
        'get_text("text")': plain_text,
        "ingest loader + cleaners": make_ingest(True, pdfs, options),
        "ingest loader only": make_ingest(False, pdfs, options),
    }
    times = measure(runs, pdfs, args.rounds)
    floor = times['floor: get_text("dict") text flags']
    print(f"{'':36} {'pages/s':>8} {'x floor, CPU':>13} {'x floor, wall':>14}")
    for name, ts in times.items():
        best = min(w for w, _ in ts)
        cpu = statistics.median(c / f for (_, c), (_, f) in zip(ts, floor))
        wall = statistics.median(w / f for (w, _), (f, _) in zip(ts, floor))
        print(f"{name:36} {pages / best:8.1f} {cpu:13.2f} {wall:14.2f}")
    floor_cpu = statistics.median(c for _, c in floor)
    for name, fn in peers().items():  # slow peers: one round
        if isinstance(fn, str):
            print(f"{name:36} {fn}")
            continue
        wall, cpu = timed(fn, pdfs)
        print(f"{name:36} {pages / wall:8.1f} {cpu / floor_cpu:13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
