"""Spreadsheet loading speed and memory: ingest against openpyxl's own plain read-only iteration.

    .venv/bin/python benchmarks/spreadsheet_speed.py             # best of 5 passes
    .venv/bin/python benchmarks/spreadsheet_speed.py --repeat 1 --rows 0   # corpus only

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

Large sheet (--rows, default 50,000; 0 skips it): one generated sheet of that many rows under a
header, 8 columns of mixed ints, texts, floats with two decimals, dates, floats, a six-city
category, small ints and a sparse note, written in openpyxl's write-only mode to a temporary
folder. Each contender reads it in a fresh child process (spawned, so nothing is inherited):
s/pass is the best of --repeat passes (docling: one pass; it takes half a minute), peak RSS the
child's VmHWM (whole process), RSS growth that minus VmHWM after imports, before the first read;
the tracemalloc peak is taken over one more pass (not for docling: tracing its allocations is slow).
"""

from __future__ import annotations

import argparse
import csv
import io
import logging
import multiprocessing
import random
import tempfile
import time
import tracemalloc
import warnings
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import openpyxl
from shared_paths import CORPUS

from ingest.cleaners import build_chain, clean
from ingest.loaders import load_bytes, local_document

ROOT = Path(__file__).resolve().parent.parent
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
        fmt, backend = (
            (InputFormat.CSV, CsvDocumentBackend)
            if path.suffix == ".csv"
            else (InputFormat.XLSX, MsExcelDocumentBackend)
        )
        stream = io.BytesIO(data)
        doc = InputDocument(path_or_stream=stream, format=fmt, backend=backend, filename=path.name)
        return len(backend(doc, stream).convert().export_to_markdown())

    return read


def contender(name: str) -> Callable[[Path, bytes], int]:
    return {
        "floor (openpyxl ro)": lambda: floor(reset=False),
        "floor+reset": lambda: floor(reset=True),
        "ingest load": lambda: ingest(cleaned=False),
        "ingest load+clean": lambda: ingest(cleaned=True),
        "docling backend": docling_backend,
    }[name]()


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
        results[name] = {
            "docs_per_s": len(docs) / best[name],
            "seconds": best[name],
            "peak_max": max(peaks.values()),
            "peak_inflated": peaks[INFLATED],
            "inflated_s": best_inflated[name],
        }
    return results


def _time(read: Callable[[Path, bytes], int], docs: list[tuple[Path, bytes]]) -> float:
    start = time.perf_counter()
    for path, data in docs:
        read(path, data)
    return time.perf_counter() - start


def large_sheet(rows: int, folder: Path) -> Path:
    """A generated sheet of `rows` rows under a header, 8 mixed columns; same seed, same file."""
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Data")
    ws.append(["id", "name", "amount", "date", "ratio", "city", "count", "note"])
    rnd = random.Random(rows)
    cities = ["Oslo", "Lima", "Pune", "Kyiv", "Graz", "Nice"]
    start = date(2020, 1, 1)
    for i in range(rows):
        ws.append(
            [
                i + 1,
                f"item {rnd.randrange(10**6)}",
                round(rnd.uniform(-1e4, 1e4), 2),
                start + timedelta(days=rnd.randrange(2000)),
                rnd.random(),
                rnd.choice(cities),
                rnd.randrange(1000),
                "" if i % 7 else f"note {i}",
            ]
        )
    path = folder / f"large_{rows}.xlsx"
    wb.save(path)
    return path


def _vm(key: str) -> int:
    """A VmHWM/VmRSS line of /proc/self/status, in bytes."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith(key + ":"))
    return int(line.split()[1]) * 1024


def _large_child(name: str, path: Path, repeat: int, traced: bool) -> dict:
    warnings.simplefilter("ignore", UserWarning)
    logging.getLogger("docling").setLevel(logging.ERROR)
    read = contender(name)
    data = path.read_bytes()
    before = _vm("VmHWM")
    best = min(_time(read, [(path, data)]) for _ in range(repeat))
    result = {"seconds": best, "hwm": _vm("VmHWM"), "growth": _vm("VmHWM") - before, "traced": None}
    if traced:
        tracemalloc.start()
        read(path, data)
        result["traced"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return result


def measure_large(names: list[str], rows: int, repeat: int) -> None:
    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        path = large_sheet(rows, Path(tmp))
        print(
            f"\nlarge sheet: {rows} rows x 8 columns, {path.stat().st_size / 1e6:.2f} MB; "
            f"fresh child per contender, best of {repeat} (docling: 1)"
        )
        print(
            f"{'contender':22} {'s/pass':>7} {'x floor':>8} {'tracemalloc MB':>15} {'peak RSS MB':>12} "
            f"{'RSS growth MB':>14}"
        )
        base = None
        for name in names:
            docling = name.startswith("docling")
            with spawn.Pool(1) as pool:
                r = pool.apply(_large_child, (name, path, 1 if docling else repeat, not docling))
            base = base or r["seconds"]
            traced = f"{r['traced'] / 1e6:15.1f}" if r["traced"] is not None else f"{'-':>15}"
            print(
                f"{name:22} {r['seconds']:7.2f} {base / r['seconds']:8.2f} {traced} {r['hwm'] / 1e6:12.0f} "
                f"{r['growth'] / 1e6:14.0f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rows", type=int, default=50_000, help="rows of the generated large sheet (0: skip it)")
    args = parser.parse_args()
    warnings.simplefilter("ignore", UserWarning)  # openpyxl's "extension not supported" noise
    logging.getLogger("docling").setLevel(logging.ERROR)  # "install LibreOffice for EMF images"
    docs = [(p, p.read_bytes()) for p in corpus_files()]
    print(f"{len(docs)} documents, {sum(len(d) for _, d in docs) / 1e6:.2f} MB, best of {args.repeat}")
    contenders = {
        name: contender(name) for name in ("floor (openpyxl ro)", "floor+reset", "ingest load", "ingest load+clean")
    }
    try:
        contenders["docling backend"] = docling_backend()
    except ImportError as exc:
        print(f"docling backend: not measured ({exc}); pip install -e .[bench]")
    results = measure(contenders, docs, args.repeat)
    base = results["floor (openpyxl ro)"]
    print(
        f"{'contender':22} {'docs/s':>8} {'x floor':>8} {'s/pass':>7} {'peak MB':>8} "
        f"{'inflated ms':>12} {'inflated MB':>12}"
    )
    for name, r in results.items():
        print(
            f"{name:22} {r['docs_per_s']:8.1f} {r['docs_per_s'] / base['docs_per_s']:8.2f} {r['seconds']:7.3f} "
            f"{r['peak_max'] / 1e6:8.2f} {r['inflated_s'] * 1e3:12.1f} {r['peak_inflated'] / 1e6:12.2f}"
        )
    print("docling (full package): not installed: `pip install docling` pulls torch and the CUDA wheels.")
    if args.rows:
        measure_large([n for n in contenders if n != "floor+reset"], args.rows, args.repeat)


if __name__ == "__main__":
    main()
