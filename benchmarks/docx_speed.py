"""Speed and peak memory of the .docx loader, against python-docx's plain read (the floor) and
docling's Word backend, in one run over every .docx in the shared corpus.

Each reader runs in its own subprocess so peak memory (max RSS) is its own: the figure is the peak
during the run minus the RSS after imports. python-docx reads `Document(...).paragraphs` text only
(no tables, headers, notes or tracked insertions), so it is the floor, not a like-for-like peer.
docling's `DocumentConverter` imports torch at import time, even for DOCX (docling-slim 2.143:
docling/pipeline/asr_transformers.py), so its `MsWordDocumentBackend` is timed directly; it is
skipped with a note if docling-slim is not installed (`pip install -e .[bench]`).

    .venv/bin/python benchmarks/docx_speed.py [--corpus ../shared/corpus] [--rounds 3]
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from shared_paths import CORPUS

ROOT = Path(__file__).resolve().parent.parent
READERS = ("python-docx", "ingest", "ingest+cleaners", "docling-backend")


def _reader(name: str):
    """Import one reader and return a function bytes, path -> number of characters read."""
    if name == "python-docx":
        import docx as python_docx

        return lambda data, path: sum(len(p.text) for p in python_docx.Document(io.BytesIO(data)).paragraphs)
    if name in ("ingest", "ingest+cleaners"):
        from ingest.blocks import Document
        from ingest.cleaners import build_chain, clean
        from ingest.loaders.word import docx

        chain = build_chain([])

        def read(data: bytes, path: Path) -> int:
            doc = Document(id=str(path), uri=path.as_uri(), name=path.name, mime_type=docx.MIME, title=path.stem)
            loaded = docx.load(data, doc)
            blocks = loaded.blocks
            if name == "ingest+cleaners":
                blocks, _ = clean(blocks, loaded.document, chain)
            return sum(len(b.text) for b in blocks)

        return read
    if name == "docling-backend":
        from docling.backend.msword_backend import MsWordDocumentBackend
        from docling.datamodel.base_models import InputFormat
        from docling.datamodel.document import InputDocument

        def read(data: bytes, path: Path) -> int:
            stream = io.BytesIO(data)
            ind = InputDocument(
                path_or_stream=stream, format=InputFormat.DOCX, backend=MsWordDocumentBackend, filename=path.name
            )
            return len(MsWordDocumentBackend(ind, stream).convert().export_to_markdown())

        return read
    raise ValueError(name)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_one(name: str, corpus: Path, rounds: int) -> dict:
    """Runs inside the subprocess: read every file `rounds` times."""
    try:
        read = _reader(name)
    except ImportError as exc:
        return {"reader": name, "skipped": f"not installed: {exc}"}
    files = [(p, p.read_bytes()) for p in sorted(corpus.rglob("*.docx"))]
    base = _rss_mb()
    errors: set[str] = set()
    chars = docs = 0
    start = time.perf_counter()
    for _ in range(rounds):
        for path, data in files:
            try:
                chars += read(data, path)
                docs += 1
            except Exception:  # a reader that cannot open a file: counted, not timed as a success
                errors.add(path.name)
    elapsed = time.perf_counter() - start
    return {
        "reader": name,
        "docs": docs,
        "seconds": elapsed,
        "docs_per_s": docs / elapsed,
        "peak_mb": _rss_mb() - base,
        "files": len(files),
        "errors": sorted(errors),
        "chars": chars // rounds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", choices=READERS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.corpus, args.rounds)))
        return 0
    results = []
    for name in READERS:
        out = subprocess.run(
            [sys.executable, __file__, "--one", name, "--corpus", str(args.corpus), "--rounds", str(args.rounds)],
            capture_output=True,
            text=True,
            check=True,
        )
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    floor = next(r for r in results if r["reader"] == "python-docx")
    print(f"{len(list(args.corpus.rglob('*.docx')))} .docx files x {args.rounds} rounds\n")
    print(f"{'reader':18} {'docs/s':>8} {'x floor':>8} {'peak MB':>8} {'chars/round':>12}  failed files")
    for r in results:
        if "skipped" in r:
            print(f"{r['reader']:18} skipped: {r['skipped']}")
            continue
        ratio = r["docs_per_s"] / floor["docs_per_s"]
        print(
            f"{r['reader']:18} {r['docs_per_s']:8.1f} {ratio:8.2f} {r['peak_mb']:8.1f} {r['chars']:12}  {', '.join(r['errors']) or '-'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
