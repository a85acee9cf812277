"""What metadata filters cost a search: `ingest.search` with each filter against the same queries
unfiltered, on one index, in one run.

    .venv/bin/python benchmarks/search_filters.py                   # 100,000 chunks, 200 queries
    .venv/bin/python benchmarks/search_filters.py --chunks 20000 --queries 50

The index holds the chunks of ../shared/bench/markdown-pypi (613 real READMEs, ingest's defaults),
copied under as many documents as it takes to reach --chunks: each copy with its own folder
(`d00/` ... `d99/`), one of four MIME types and a modification date spread over four years, so a
filter keeps a known share. Queries are 2-4 words drawn (seeded) from the chunks' own text. Each
figure is the median milliseconds of one query, k=10, window=0, after one untimed pass; "x none"
is that median over the unfiltered one measured in the same run, and "hits" how many chunks all the
queries returned (fewer where a filter leaves fewer than k matches).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shared_paths import SHARED  # noqa: E402

from ingest import ChunkOptions, Filters, chunk_files, search  # noqa: E402
from ingest.blocks import Citation, Document  # noqa: E402
from ingest.sinks import SqliteSink  # noqa: E402

TYPES = (
    "text/markdown",
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "text/plain",
)
START = datetime(2022, 1, 1, tzinfo=UTC)


def build(index: Path, target: int) -> int:
    files = sorted((SHARED / "bench" / "markdown-pypi" / "files").rglob("*.md"))
    loaded = [r for r in chunk_files(files, ChunkOptions(), workers=None) if r.chunks]
    written = copy = documents = 0
    rng = random.Random(7)
    with SqliteSink(index) as sink:
        while written < target:
            for result in loaded:
                if written >= target:
                    break
                when = START + timedelta(days=rng.randrange(4 * 365))
                document = _document(result, f"d{documents % 100:02d}", copy, TYPES[documents % len(TYPES)], when)
                chunks = [
                    replace(c, id=f"{document.id}#{c.chunk_index}", doc_id=document.id, source=Citation.of(document))
                    for c in result.chunks[: target - written]
                ]
                sink.write(document, chunks)
                written += len(chunks)
                documents += 1
            copy += 1
    return written


def _document(result, folder: str, copy: int, mime: str, when: datetime) -> Document:
    name = Path(result.path).name
    doc_id = f"{folder}/{copy}-{name}"
    return Document(
        id=doc_id,
        uri=f"file:///bench/{doc_id}",
        name=name,
        mime_type=mime,
        modified=when.isoformat(timespec="seconds"),
        version=str(copy),
        title=Path(name).stem,
    )


def queries(index: Path, count: int) -> list[str]:
    rng = random.Random(11)
    conn = sqlite3.connect(index)
    texts = [row[0] for row in conn.execute("SELECT text FROM chunks ORDER BY seq LIMIT 5000")]
    conn.close()
    out = []
    while len(out) < count:
        words = [w for w in rng.choice(texts).split() if w.isalpha() and len(w) > 3]
        if len(words) >= 4:
            start = rng.randrange(len(words) - 3)
            out.append(" ".join(words[start : start + rng.randint(2, 4)]))
    return out


def timed(index: Path, qs: list[str], filters: Filters | None) -> tuple[float, list]:
    results = [search(index, q, k=10, window=0, filters=filters) for q in qs]  # untimed pass: caches warm
    times = []
    for q in qs:
        t0 = time.perf_counter()
        search(index, q, k=10, window=0, filters=filters)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index.sqlite"
        t0 = time.perf_counter()
        n = build(index, args.chunks)
        print(f"index: {n} chunks in {time.perf_counter() - t0:.1f} s; {args.queries} queries, k=10")
        qs = queries(index, args.queries)
        heading = search(index, qs[0], k=1)[0].chunk.heading_path[:1]
        cases = [
            ("none", None),
            ("--doc (one document)", Filters(docs=search(index, qs[0], k=1)[0].chunk.doc_id)),
            ("--path d0 (10 of 100 folders)", Filters(paths="d0")),
            (f"--heading {' > '.join(heading)!r}", Filters(heading=heading)),
            ("--type pdf (a quarter)", Filters(mime_types="application/pdf")),
            ("--modified-after (a quarter)", Filters(modified_after=START + timedelta(days=3 * 365))),
            (
                "all of path, type, after",
                Filters(paths="d0", mime_types="application/pdf", modified_after=START + timedelta(days=3 * 365)),
            ),
        ]
        base, base_results = timed(index, qs, None)
        print(f"{'filter':<44}{'median ms':>10}{'x none':>8}{'hits':>8}")
        for label, filters in cases:
            ms, results = (base, base_results) if filters is None else timed(index, qs, filters)
            hits = sum(len(r) for r in results)
            print(f"{label:<44}{ms:>10.2f}{ms / base:>8.2f}{hits:>8}")


if __name__ == "__main__":
    main()
