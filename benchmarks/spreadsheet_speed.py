"""Spreadsheet loading speed and memory: ingest against openpyxl's own plain read-only iteration.

    .venv/bin/python benchmarks/spreadsheet_speed.py             # best of 5 passes
    .venv/bin/python benchmarks/spreadsheet_speed.py --repeat 1

Corpus: every XLSX/XLSM in ../shared/corpus (docling, unstructured, openpyxl test data; the 0-byte
file is left out: nobody reads it) plus the CSV of chunking_evaluation. Contenders, all in this
process, each document read from bytes already in memory:
- floor: openpyxl `load_workbook(read_only=True, data_only=True)` then `iter_rows(values_only=True)`
  over every worksheet; `csv.reader` for the CSV. It produces values only: no text, no tables.
- floor+reset: the same with `reset_dimensions()` first, the documented fix for a wrong dimension tag.
- ingest: the loader (documents, sections, tables, merges); ingest+clean adds the default cleaners.
- docling: `pip install docling` would pull torch and the CUDA wheels (checked with
  `pip install --dry-run docling`), and its DocumentConverter imports torch; docling-slim's
  `MsExcelDocumentBackend` / `CsvDocumentBackend` (the `bench` extra, no torch) are timed directly,
  through to Markdown, the way docling's converter would call them. Skipped if not installed.
docs/s: documents / seconds of the best pass. Peak: tracemalloc peak of one untimed pass per
document (Python allocations only), the largest over the corpus and that of xlsx_04_inflated (a
sheet whose dimension tag claims 1,048,496 rows over 7 real ones).
"""

from __future__ import annotations

import argparse
import csv
import io
import logging
import time
import tracemalloc
import warnings
from pathlib import Path
from typing import Callable

import openpyxl

from ingest.cleaners import build_chain, clean
from ingest.loaders import load_bytes, local_document

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
INFLATED = "xlsx_04_inflated.xlsx"


def corpus_files() -> list[Path]:
    files = [p for p in CORPUS.rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm") and p.stat().st_size]
    return sorted(files) + [CORPUS / "chunking_evaluation" / "questions_df.csv"]


def floor(reset: bool) -> Callable[[Path, bytes], int]:
    def read(path: Path, data: bytes) -> int:
        if path.suffix == ".csv":
            return sum(len(row) for row in csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        n = 0
        for ws in wb.worksheets:
            if reset:
                ws.reset_dimensions()
            for row in ws.iter_rows(values_only=True):
                n += len(row)
        wb.close()
        return n
    return read


def ingest(cleaned: bool) -> Callable[[Path, bytes], int]:
    chain = build_chain([])

    def read(path: Path, data: bytes) -> int:
        loaded = load_bytes(data, local_document(path, data, 0.0))
        blocks = loaded.blocks
        if cleaned:
            blocks = tuple(clean(blocks, loaded.document, chain)[0])
        return len(blocks)
    return read


def docling_backend() -> Callable[[Path, bytes], int]:
    from docling.backend.csv_backend import CsvDocumentBackend
    from docling.backend.msexcel_backend import MsExcelDocumentBackend
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.document import InputDocument

    def read(path: Path, data: bytes) -> int:
        fmt, backend = (InputFormat.CSV, CsvDocumentBackend) if path.suffix == ".csv" else (
            InputFormat.XLSX, MsExcelDocumentBackend)
        stream = io.BytesIO(data)
        doc = InputDocument(path_or_stream=stream, format=fmt, backend=backend, filename=path.name)
        return len(backend(doc, stream).convert().export_to_markdown())
    return read


def measure(contenders: dict[str, Callable[[Path, bytes], int]], docs: list[tuple[Path, bytes]], repeat: int) -> dict:
    """Passes alternate between contenders so that load from other processes hits all alike."""
    best = dict.fromkeys(contenders, float("inf"))
    inflated = [(p, d) for p, d in docs if p.name == INFLATED]
    best_inflated = dict.fromkeys(contenders, float("inf"))
    for _ in range(repeat):
        for name, read in contenders.items():
            best[name] = min(best[name], _time(read, docs))
            best_inflated[name] = min(best_inflated[name], _time(read, inflated))
    results = {}
    for name, read in contenders.items():
        peaks = {}
        for path, data in docs:
            tracemalloc.start()
            read(path, data)
            peaks[path.name] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        results[name] = {"docs_per_s": len(docs) / best[name], "seconds": best[name],
                         "peak_max": max(peaks.values()), "peak_inflated": peaks[INFLATED],
                         "inflated_s": best_inflated[name]}
    return results


def _time(read: Callable[[Path, bytes], int], docs: list[tuple[Path, bytes]]) -> float:
    start = time.perf_counter()
    for path, data in docs:
        read(path, data)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore", UserWarning)  # openpyxl's "extension not supported" noise
    logging.getLogger("docling").setLevel(logging.ERROR)  # "install LibreOffice for EMF images"
    docs = [(p, p.read_bytes()) for p in corpus_files()]
    print(f"{len(docs)} documents, {sum(len(d) for _, d in docs) / 1e6:.2f} MB, best of {args.repeat}")
    contenders = {
        "floor (openpyxl ro)": floor(reset=False),
        "floor+reset": floor(reset=True),
        "ingest load": ingest(cleaned=False),
        "ingest load+clean": ingest(cleaned=True),
    }
    try:
        contenders["docling backend"] = docling_backend()
    except ImportError as exc:
        print(f"docling backend: not measured ({exc}); pip install -e .[bench]")
    results = measure(contenders, docs, args.repeat)
    base = results["floor (openpyxl ro)"]
    print(f"{'contender':22} {'docs/s':>8} {'x floor':>8} {'s/pass':>7} {'peak MB':>8} "
          f"{'inflated ms':>12} {'inflated MB':>12}")
    for name, r in results.items():
        print(f"{name:22} {r['docs_per_s']:8.1f} {r['docs_per_s'] / base['docs_per_s']:8.2f} {r['seconds']:7.3f} "
              f"{r['peak_max'] / 1e6:8.2f} {r['inflated_s'] * 1e3:12.1f} {r['peak_inflated'] / 1e6:12.2f}")
    print("docling (full package): not installed: `pip install docling` pulls torch and the CUDA wheels.")


if __name__ == "__main__":
    main()
