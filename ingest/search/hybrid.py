"""Search by mode: bm25 (words), vector (meaning) or hybrid, which fuses the two rankings by
reciprocal rank: a chunk scores the sum of 1 / (k + rank) over the rankings it is in.

Rank fusion needs no calibration between a bm25 score and a cosine: only the order of each list
counts, so a chunk both rankers put near the top wins over one that only one ranker likes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path
from typing import Literal, TypeVar

from ..blocks import Chunk
from ..runner.sqlite_files import transaction
from .bm25 import Hit, SearchError, hit, ranked_bm25, search
from .filters import Filters
from .principals import checked_readers
from .vectors import VectorIndex, holds_vectors

Mode = Literal["bm25", "vector", "hybrid"]
MODES: tuple[Mode, ...] = ("bm25", "vector", "hybrid")
RRF_K = 60
"""The constant of reciprocal rank fusion (Cormack et al., 2009): large enough that the first few
ranks of either list do not drown the rest."""
DEPTH = 100
"""How many chunks each ranker contributes before fusion."""

K = TypeVar("K", bound=Hashable)


def fuse(rankings: Iterable[Sequence[K]], k: int = RRF_K) -> list[tuple[K, float]]:
    """Reciprocal rank fusion of best-first lists: (item, score), best first; ties keep the order
    items were first met in (the first ranking's first)."""
    scores: dict[K, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


def default_mode(index: Path) -> Mode:
    """hybrid when the index holds vectors for its embedder (the job paid for them, and they find
    what other words say), else bm25."""
    return "hybrid" if holds_vectors(index) else "bm25"


def search_mode(
    index: Path,
    query: str,
    mode: Mode = "bm25",
    k: int = 5,
    window: int = 1,
    readers: tuple[str, ...] | None = None,
    vectors: VectorIndex | None = None,
    rrf_k: int = RRF_K,
    depth: int = DEPTH,
    filters: Filters | None = None,
    exact: bool = False,
) -> list[Hit]:
    """The `k` best chunks for `query` by `mode`. `vectors`: a `VectorIndex` kept open between
    queries (its matrix stays loaded); one is opened for this query otherwise. `filters` narrow
    every ranking alike, before fusion. `exact`: the vectors' ranking compares the query with every
    vector, never the HNSW file beside the index (`search/ann.py`), on the index opened here."""
    readers = checked_readers(readers)
    if mode == "bm25":
        return search(index, query, k, window, readers, filters)
    if mode not in MODES:
        raise SearchError(f"unknown search mode {mode!r} (there are: {', '.join(MODES)})", index)
    if k < 1 or window < 0 or depth < 1:
        raise SearchError(
            f"k and depth must be at least 1 and window at least 0 (got k={k}, window={window}, depth={depth})", index
        )
    owned = vectors is None
    vectors = vectors or VectorIndex(index, ann="never" if exact else "auto")
    try:
        conn = vectors.conn
        with transaction(conn, immediate=False):  # both rankings and the neighbours from one snapshot
            scored = ranked(conn, vectors, query, mode, k, readers, rrf_k, max(depth, k), filters)
            return [hit(conn, chunk, score, window) for chunk, score in scored]
    except sqlite3.Error as exc:
        raise SearchError(f"{mode} search for {query!r} failed ({exc})", index) from exc
    finally:
        if owned:
            vectors.close()


def ranked(
    conn: sqlite3.Connection,
    vectors: VectorIndex,
    query: str,
    mode: Mode,
    k: int,
    readers: tuple[str, ...] | None,
    rrf_k: int = RRF_K,
    depth: int = DEPTH,
    filters: Filters | None = None,
) -> list[tuple[Chunk, float]]:
    """The `k` best (chunk, score) by `mode` "vector" or "hybrid" (fused score) on an open index."""
    if mode == "vector":
        return vectors.ranked(query, k, readers, filters)
    words = ranked_bm25(conn, query, depth, readers, filters, vectors.terms)
    near = [seq for seq, _ in vectors.nearest(query, depth, readers, filters)]
    ids = vectors.ids(near)
    fused = fuse([[chunk.id for chunk, _ in words], [ids[s] for s in near if s in ids]], rrf_k)[:k]
    # Only the fused top k are read whole: the vector ranking is fused by id alone.
    chunks = {chunk.id: chunk for chunk, _ in words}
    missing = [seq for seq in near if ids.get(seq) in {cid for cid, _ in fused} and ids[seq] not in chunks]
    chunks.update((c.id, c) for c in vectors.chunks(missing).values())
    return [(chunks[cid], score) for cid, score in fused if cid in chunks]
