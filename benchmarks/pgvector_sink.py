"""The pgvector sink against the SQLite sink: write throughput and query latency, in one run.

    .venv/bin/python benchmarks/pgvector_sink.py                    # 20,000 chunks
    .venv/bin/python benchmarks/pgvector_sink.py --chunks 100000 --queries 300

Chunks are real: every Markdown, PDF, Word and Excel file of ../shared/corpus, loaded, cleaned and
chunked with the default settings, then copied under new document ids (each copy's texts marked
with its number, so no two texts, and no two vectors, are the same) until there are --chunks.
The server is a real PostgreSQL 16 + pgvector 0.6 on 127.0.0.1 (tests/storage/pg_server.py, fsync off as
in the tests; a production server's fsync adds its disk's commit latency to every document).

- embed: the default embedder (wordllama, 256-d) over every chunk's embed_text, once, timed
  alone; the pgvector sink then gets those vectors from a lookup of them, so its write figure is
  the store's cost (COPY, the HNSW and GIN index updates, one transaction a document);
- write: chunks/s writing every document (one `write` each, then `sync`), SQLite (FTS5, no
  vectors) and pgvector (vectors, HNSW, tsvector) from empty;
- query: p50 / p95 milliseconds of `ingest.search.bm25.search` (SQLite BM25) and `search_pgvector` in
  each mode, k=5 with one neighbour each side, over --queries questions made from chunk headings
  and words; the vector modes include embedding the query. One client, one query at a time; the
  SQLite search opens its file per query (its API), `PgvectorSearch` keeps its connection (a
  PostgreSQL connection costs a handshake and a process on the server: a service keeps one).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from shared_paths import CORPUS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the tests package's server helper: the same server the tests run

SUFFIXES = {".md", ".pdf", ".docx", ".xlsx"}


def corpus_documents():
    from ingest.chunker import chunk
    from ingest.cleaners import clean_blocks
    from ingest.errors import IngestError
    from ingest.loaders import load_file

    out = []
    for path in sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file()):
        try:
            loaded = load_file(path)
            chunks = list(chunk(loaded, blocks=clean_blocks(loaded)))
        except IngestError:
            continue
        if chunks:
            out.append((loaded.document, chunks))
    return out


def copies(documents, wanted: int):
    """Documents under new ids until `wanted` chunks; copy n's texts end with "(n)"."""
    out, total, n = [], 0, 0
    while total < wanted:
        for document, chunks in documents:
            doc = replace(document, id=f"copy{n}/{document.id}", uri=f"{document.uri}#copy{n}")
            source = replace(chunks[0].source, uri=doc.uri)
            made = [
                replace(c, id=f"{n}-{c.id}", doc_id=doc.id, source=source, text=c.text if n == 0 else f"{c.text} ({n})")
                for c in chunks
            ]
            made = made[: wanted - total]
            out.append((doc, made))
            total += len(made)
            if total >= wanted:
                break
        n += 1
    return out


class Looked:
    """The real embedder's vectors, made once beforehand; queries are embedded for real."""

    def __init__(self, embedder, vectors: dict) -> None:
        self.inner, self.vectors = embedder, vectors
        self.name, self.dimensions = embedder.name, embedder.dimensions

    def embed(self, texts):
        import numpy as np

        if all(t in self.vectors for t in texts):
            return np.stack([self.vectors[t] for t in texts])
        return self.inner.embed(texts)


def timed_writes(sink, documents) -> float:
    began = time.perf_counter()
    for document, chunks in documents:
        sink.write(document, chunks)
    sink.sync()
    return time.perf_counter() - began


def latencies(search, queries) -> tuple[float, float]:
    search(queries[0])  # a first query pays for connections and caches: not a user's steady state
    times = []
    for query in queries:
        began = time.perf_counter()
        search(query)
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()

    from ingest.embedders import EmbedderConfig, load
    from ingest.search.bm25 import search as search_sqlite
    from ingest.sinks.pgvector import PgvectorSink
    from ingest.sinks.pgvector_options import PgvectorOptions
    from ingest.sinks.pgvector_search import PgvectorSearch
    from ingest.sinks.sqlite import SqliteSink
    from tests.storage.pg_server import pg_server

    documents = copies(corpus_documents(), args.chunks)
    chunks = [c for _, cs in documents for c in cs]
    print(
        f"{len(chunks)} chunks in {len(documents)} documents "
        f"(mean {statistics.mean(c.token_count for c in chunks):.0f} tokens)"
    )
    embedder = load(EmbedderConfig())
    texts = [c.embed_text for c in chunks]
    began = time.perf_counter()
    matrix = embedder.embed(texts)
    embed_s = time.perf_counter() - began
    looked = Looked(embedder, dict(zip(texts, matrix)))
    rng = random.Random(7)
    sample = rng.sample(chunks, min(args.queries, len(chunks)))
    queries = [" ".join([*c.heading_path[-1:], *c.text.split()[:6]]) for c in sample]

    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index.sqlite"
        with SqliteSink(index) as sink:
            sqlite_s = timed_writes(sink, documents)
        server_started = pg_server()
        server = next(server_started)
        try:
            options = PgvectorOptions(dsn=server.create_database("bench"))
            with PgvectorSink(options, looked) as sink:
                pg_s = timed_writes(sink, documents)
            rows = [("sqlite bm25", latencies(lambda q: search_sqlite(index, q, k=5, window=1), queries))]
            with PgvectorSearch(options, embedder) as searcher:
                for mode in ("keyword", "vector", "hybrid"):
                    rows.append(
                        (
                            f"pgvector {mode}",
                            latencies(lambda q, m=mode: searcher.search(q, k=5, window=1, mode=m), queries),
                        )
                    )
        finally:
            next(server_started, None)

    n = len(chunks)
    print(f"\nembed (wordllama 256-d): {n / embed_s:,.0f} chunks/s")
    print(f"{'write':<18}{'chunks/s':>10}{'x sqlite':>10}")
    print(f"{'sqlite':<18}{n / sqlite_s:>10,.0f}{1:>10.2f}")
    print(f"{'pgvector':<18}{n / pg_s:>10,.0f}{sqlite_s / pg_s:>10.2f}")
    base = rows[0][1][0]
    print(f"\n{'query (k=5)':<18}{'p50 ms':>10}{'p95 ms':>10}{'p50 x sqlite':>14}")
    for name, (p50, p95) in rows:
        print(f"{name:<18}{p50:>10.2f}{p95:>10.2f}{p50 / base:>14.2f}")


if __name__ == "__main__":
    main()
