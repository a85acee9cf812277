"""Query latency of vector and hybrid search at 10^5 and 10^6 chunks, on one core, against peers.

    .venv/bin/python benchmarks/vector_search_speed.py                 # 100000 and 1000000 chunks
    .venv/bin/python benchmarks/vector_search_speed.py --sizes 100000 --queries 300

The chunks are synthetic but made of real text: sentences of ingest's own chunks of the Markdown
files in ../shared/corpus, three to six to a chunk, in documents of 1,000 chunks. A chunk's
vector is the normalised sum of its sentences' vectors from `--embedder` (default minilm, the
default embedder; wordllama pools token vectors, so there this is close to embedding the chunk,
and for minilm it gives vectors of the right shape and spread), which spares embedding 10^6
texts; a query is embedded for real, so the query's embedding cost is the embedder's own. The index is written through `SqliteSink.write` (chunks, FTS5, vectors in one
transaction per document) and kept under `--work` for the next run.

Per query, ms p50 / p95, everything a search does (the query embedded, ranked, the chunks read):
- ingest vector: `hybrid.search_mode(..., "vector", k=10, window=0)` on a `VectorIndex` kept open;
- ingest hybrid: the same in "hybrid" (FTS5 bm25 top 100 + vectors top 100, rank-fused);
- sqlite-vec (apsw, a `vec0` table of the same vectors, exact KNN), alone and fused with the
  same FTS5 bm25 ranking in the same way: the extension users would load where SQLite can;
- FAISS `IndexFlatIP` (exact, in memory), alone;
- the bm25 half alone: ingest's in memory (`WarmBm25`, the open `VectorIndex`'s), FTS5 ranking
  the query with common terms left out and MaxScore (the bm25 half before, and what a one-off
  `ingest search` does), and FTS5 ranking the whole query (`--no-whole-query` leaves it out: at
  10^6 it takes seconds a question); the run counts the top 100 lists identical to the whole
  query's.
Ratios are against ingest's own figure for the same mode, measured in the same run, in turns
(one query of each in rotation, so a busy neighbour slows all alike); `--repeat N` times each
query N times so and keeps its best; "first" is each query's first run (the terms it meets for
the first time read from the index then). BLAS, OpenMP and FAISS are held to one thread.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy loads its BLAS

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from bm25_pruning import reference as whole_query  # noqa: E402
from shared_paths import SHARED  # noqa: E402

from ingest import chunk, load_file  # noqa: E402
from ingest.blocks import Chunk, Citation, Document  # noqa: E402
from ingest.embedders import ChunkVectors, load, text_hash  # noqa: E402
from ingest.search.bm25 import ranked_bm25  # noqa: E402
from ingest.search.fts_terms import TermCounts  # noqa: E402
from ingest.search.hybrid import DEPTH, fuse, search_mode  # noqa: E402
from ingest.search.vectors import VectorIndex  # noqa: E402
from ingest.sinks.sqlite import SqliteSink  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PER_DOC = 1000
K = 10


def sentence_pool(limit: int) -> list[str]:
    sentences: list[str] = []
    for path in sorted((SHARED / "corpus").rglob("*.md")):
        for c in chunk(load_file(path)):
            sentences += [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", c.text) if len(s.split()) >= 4]
        if len(sentences) >= limit:
            break
    return sentences[:limit]


STOP = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there "
    "these they this to was will with what how which who when where does did do".split()
)


def keywords(question: str, n: int = 4) -> str:
    """A search-box query from a question: its first `n` words that are not stop words."""
    return " ".join([w for w in re.findall(r"[\w.$%-]+", question) if w.lower() not in STOP][:n])


def queries(n: int) -> list[str]:
    found = []
    for name in ("financebench", "mmlb"):
        path = SHARED / "ragbench" / name / "questions.jsonl"
        if path.exists():
            found += [json.loads(line)["question"] for line in path.read_text().splitlines() if line.strip()]
    if not found:
        raise SystemExit(f"no questions under {SHARED / 'ragbench'}")
    return [found[i % len(found)] for i in range(n)]


def build(index: Path, size: int, sentences: list[str], vectors: np.ndarray, name: str) -> None:
    rng = random.Random(size)
    started = time.perf_counter()
    with SqliteSink(index) as sink:
        sink.record_embedder(name, {"name": name})
        for d in range(size // PER_DOC):
            doc = Document(
                id=f"doc{d:05d}",
                uri=f"synthetic://doc{d:05d}",
                name=f"doc{d:05d}.md",
                mime_type="text/markdown",
                title=f"Document {d}",
            )
            chunks, rows = [], []
            for i in range(PER_DOC):
                picked = [rng.randrange(len(sentences)) for _ in range(rng.randint(3, 6))]
                text = " ".join(sentences[p] for p in picked)
                path = (doc.title, f"Section {i // 20}")
                chunks.append(
                    Chunk(
                        id=f"{doc.id}-{i}",
                        doc_id=doc.id,
                        chunk_index=i,
                        text=text,
                        heading_path=path,
                        kinds=("paragraph",),
                        token_count=len(text) // 4,
                        overlap_tokens=0,
                        source=Citation.of(doc),
                    )
                )
                row = vectors[picked].sum(axis=0)
                rows.append(row / np.linalg.norm(row))
            matrix = np.asarray(rows, dtype=np.float32)
            sink.write(doc, chunks, ChunkVectors(name, tuple(text_hash(c.embed_text) for c in chunks), matrix, 0))
            if d % 100 == 99:
                print(
                    f"    {(d + 1) * PER_DOC} chunks written, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )


def sqlite_vec_db(path: Path, index: Path) -> None:
    import apsw
    import sqlite_vec

    conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE | apsw.SQLITE_OPEN_URI)
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.execute(f"ATTACH 'file:{index}?mode=ro' AS ix")
    dims = next(conn.execute("SELECT length(vector) / 4 FROM ix.chunk_vectors LIMIT 1"))[0]
    conn.execute(f"CREATE VIRTUAL TABLE vec USING vec0(embedding float[{dims}])")
    with conn:
        conn.execute("INSERT INTO vec (rowid, embedding) SELECT seq, vector FROM ix.chunk_vectors")
    conn.execute("DETACH ix")
    conn.close()


class SqliteVecPeer:
    """sqlite-vec's exact KNN over the same vectors; bm25 from ingest's FTS5 index, fused alike."""

    def __init__(self, path: Path, index: Path, embedder, counts: TermCounts) -> None:
        import apsw
        import sqlite_vec

        self.counts = counts

        self.conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
        self.conn.enable_load_extension(True)
        self.conn.load_extension(sqlite_vec.loadable_path())
        self.conn.execute(f"ATTACH 'file:{index}?mode=ro' AS ix")
        self.embedder = embedder

    def vector(self, query: str, k: int) -> list[tuple]:
        q = self.embedder.embed([query])[0].astype(np.float32).tobytes()
        seqs = [
            r[0]
            for r in self.conn.execute(
                "SELECT rowid FROM vec WHERE embedding MATCH ? AND k = ? ORDER BY distance", (q, k)
            )
        ]
        return self._chunks(seqs)

    def hybrid(self, query: str, k: int, sqlite_conn) -> list[tuple]:
        q = self.embedder.embed([query])[0].astype(np.float32).tobytes()
        near = [
            r[0]
            for r in self.conn.execute(
                "SELECT rowid FROM vec WHERE embedding MATCH ? AND k = ? ORDER BY distance", (q, DEPTH)
            )
        ]
        words = [c.id for c, _ in ranked_bm25(sqlite_conn, query, DEPTH, counts=self.counts)]
        ids = {
            r[0]: r[1]
            for r in self.conn.execute(
                "SELECT seq, id FROM ix.chunks WHERE seq IN (SELECT value FROM json_each(?))", (json.dumps(near),)
            )
        }
        fused = fuse([words, [ids[s] for s in near if s in ids]])[:k]
        return list(
            self.conn.execute(
                "SELECT id, text FROM ix.chunks WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps([i for i, _ in fused]),),
            )
        )

    def _chunks(self, seqs: list[int]) -> list[tuple]:
        return list(
            self.conn.execute(
                "SELECT id, text FROM ix.chunks WHERE seq IN (SELECT value FROM json_each(?))", (json.dumps(seqs),)
            )
        )


class FaissPeer:
    def __init__(self, vectors: VectorIndex, embedder) -> None:
        import faiss

        faiss.omp_set_num_threads(1)
        matrix = vectors._current()
        self.seqs, self.embedder = matrix.seqs, embedder
        self.index = faiss.IndexFlatIP(matrix.vectors.shape[1])
        self.index.add(matrix.vectors)
        self.conn = vectors.conn

    def vector(self, query: str, k: int) -> list[tuple]:
        q = self.embedder.embed([query]).astype(np.float32)
        _, rows = self.index.search(q, k)
        seqs = [int(self.seqs[r]) for r in rows[0] if r >= 0]
        return self.conn.execute(
            "SELECT id, text FROM chunks WHERE seq IN (SELECT value FROM json_each(?))", (json.dumps(seqs),)
        ).fetchall()


def timed(
    runs: dict[str, callable], texts: list[str], repeat: int = 1
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each query through every run in turn, `repeat` times; per query, the best ms of a run
    (on a shared machine the least disturbed one is the closest to what the work costs), and
    the ms of its first run."""
    ms: dict[str, list[float]] = {name: [] for name in runs}
    first: dict[str, list[float]] = {name: [] for name in runs}
    for text in texts[:10]:  # warm: first reads, caches
        for fn in runs.values():
            fn(text)
    for text in texts:
        best = dict.fromkeys(runs, float("inf"))
        for turn in range(repeat):
            for name, fn in runs.items():
                began = time.perf_counter()
                fn(text)
                spent = (time.perf_counter() - began) * 1000
                best[name] = min(best[name], spent)
                if turn == 0:
                    first[name].append(spent)
        for name, value in best.items():
            ms[name].append(value)
    return ms, first


def identical(vectors: VectorIndex, texts: list[str]) -> int:
    """How many of the in-memory bm25 top 100 lists are the whole query's, chunk for chunk and
    score for score."""
    same = 0
    for text in texts:
        ours = [(c.id, s) for c, s in ranked_bm25(vectors.conn, text, DEPTH, counts=vectors.terms)]
        same += ours == whole_query(vectors.conn, text, DEPTH)
    return same


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", type=Path, default=ROOT / "out" / "vector_bench")
    ap.add_argument("--peers", default="sqlite-vec,faiss")
    ap.add_argument("--embedder", default="minilm", help="built-in embedder name (minilm, wordllama)")
    ap.add_argument(
        "--query-sets",
        default="questions,keywords",
        help="questions: the ragbench questions whole; keywords: their first four words that are not stop words",
    )
    ap.add_argument("--repeat", type=int, default=1, help="time each query this many times, keep the best")
    ap.add_argument("--no-whole-query", action="store_true", help="leave out FTS5 ranking the whole query")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args(argv)
    a.work.mkdir(parents=True, exist_ok=True)
    embedder = load({"name": a.embedder})
    texts = queries(a.queries)
    pool = None
    report = {}
    for size in [int(s) for s in a.sizes.split(",")]:
        index = a.work / f"index-{a.embedder}-{size}.sqlite"
        if not index.exists():
            if pool is None:
                print("  embedding the sentence pool ...", file=sys.stderr, flush=True)
                sentences = sentence_pool(40000)
                pool = (sentences, embedder.embed(sentences))
            print(f"  building {size} chunks ...", file=sys.stderr, flush=True)
            build(index.with_suffix(".tmp"), size, *pool, embedder.name)
            index.with_suffix(".tmp").rename(index)
        vectors = VectorIndex(index, embedder)
        began = time.perf_counter()
        vectors._current()
        load_s = time.perf_counter() - began
        began = time.perf_counter()
        vectors.terms.top(['"x"'], 1)  # the chunk lengths, read once per index version
        lengths_s = time.perf_counter() - began
        pruned = TermCounts(vectors.conn)
        bm25 = "ingest bm25 top 100 (hybrid's first half, in memory)"
        runs = {
            "ingest vector": lambda q, index=index, vectors=vectors: search_mode(
                index, q, "vector", k=K, window=0, vectors=vectors
            ),
            "ingest hybrid": lambda q, index=index, vectors=vectors: search_mode(
                index, q, "hybrid", k=K, window=0, vectors=vectors
            ),
            bm25: lambda q, vectors=vectors: ranked_bm25(vectors.conn, q, DEPTH, counts=vectors.terms),
            "FTS5 bm25 top 100, common terms left out + MaxScore (the bm25 half before)": lambda q, vectors=vectors, pruned=pruned: (
                ranked_bm25(vectors.conn, q, DEPTH, counts=pruned)
            ),
            "FTS5 bm25 top 100 of the whole query": lambda q, vectors=vectors: whole_query(vectors.conn, q, DEPTH),
            "query embedding only": lambda q: embedder.embed([q]),
        }
        if a.no_whole_query:
            del runs["FTS5 bm25 top 100 of the whole query"]
        peers = [p for p in a.peers.split(",") if p]
        if "sqlite-vec" in peers:
            vec_db = a.work / f"sqlite-vec-{a.embedder}-{size}.db"
            if not vec_db.exists():
                print(f"  loading {size} vectors into sqlite-vec ...", file=sys.stderr, flush=True)
                sqlite_vec_db(vec_db.with_suffix(".tmp"), index)
                vec_db.with_suffix(".tmp").rename(vec_db)
            peer = SqliteVecPeer(vec_db, index, embedder, pruned)
            runs["sqlite-vec vector"] = lambda q, peer=peer: peer.vector(q, K)
            runs["sqlite-vec hybrid"] = lambda q, peer=peer, vectors=vectors: peer.hybrid(q, K, vectors.conn)
        if "faiss" in peers:
            flat = FaissPeer(vectors, embedder)
            runs["faiss flat vector"] = lambda q, flat=flat: flat.vector(q, K)
        report[size] = {"load_s": load_s, "lengths_s": lengths_s}
        sets = {"questions": texts, "keywords": [keywords(t) for t in texts]}
        for kind, asked in ((k, sets[k]) for k in a.query_sets.split(",")):
            print(f"  timing {len(asked)} {kind} at {size} chunks ...", file=sys.stderr, flush=True)
            loads = os.getloadavg()[0]
            ms, first = timed(runs, asked, a.repeat)
            rows = {
                name: (float(np.percentile(v, 50)), float(np.percentile(v, 95)), float(np.percentile(first[name], 50)))
                for name, v in ms.items()
            }
            print(
                f"\n{size:,} chunks ({vectors._current().vectors.nbytes / 2**20:.0f} MiB of vectors, loaded in "
                f"{load_s:.2f} s; chunk lengths for bm25 in {lengths_s:.2f} s; index "
                f"{index.stat().st_size / 2**20:.0f} MiB), {len(asked)} {kind} (e.g. {asked[1]!r}), k={K}, one core, "
                f"best of {a.repeat}, load average {loads:.1f}-{os.getloadavg()[0]:.1f}"
            )
            print("| search | p50 ms | p95 ms | first run p50 ms | p50 / ingest's |\n| --- | --- | --- | --- | --- |")
            for name, (p50, p95, cold) in rows.items():
                mode = name.rsplit(" ", 1)[-1]
                ours = rows.get(bm25 if name.startswith("FTS5") else f"ingest {mode}")
                ratio = f"{p50 / ours[0]:.2f}x" if ours and not name.startswith(("ingest", "query")) else ""
                print(f"| {name} | {p50:.1f} | {p95:.1f} | {cold:.1f} | {ratio} |")
            held = vectors.terms
            print(
                f"in-memory bm25: {held.held:,} (term, chunk) pairs held, {held.memory_bytes() / 2**20:.0f} MiB "
                "with the per-chunk arrays"
            )
            report[size][kind] = {n: {"p50": r[0], "p95": r[1], "first_p50": r[2]} for n, r in rows.items()}
            report[size][kind]["memory_bytes"] = held.memory_bytes()
            if not a.no_whole_query:
                same = identical(vectors, asked)
                print(f"in-memory bm25 top 100 identical to the whole query's (chunks and scores): {same}/{len(asked)}")
                report[size][kind]["identical"] = same
        vectors.close()
    if a.json:
        a.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
