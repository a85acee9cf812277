"""An approximate nearest-neighbour index (HNSW, usearch) beside the SQLite index, for vector
search over many chunks.

Exact search reads every vector for every query, and an open `VectorIndex` holds them all in
memory: at 10^6 chunks of minilm's 384 dimensions that is 2.2 GiB resident, 4-40 s to read in,
and 150-190 ms a query on one core. An HNSW graph answers in about a millisecond and opens as a
memory map in 0.1 s, at a small cost in recall (`benchmarks/ann_scale.py`;
figures and the threshold's reasons in benchmarks/README.md, "Vector search at 10^6 chunks").

The file is `<index>.usearch`, keyed by `chunks.seq`. The sink brings it up to date when it
closes (the end of a run): triggers record in `ann_pending` every seq whose vector was inserted or
deleted since, and only those are removed from the graph and added again (a seq can come back with
a new vector when the last document's chunks are replaced). What it reflects is recorded in
`ingest_meta` (`ann`: the embedder, the vector count, the file's size and a hash of its ends). A search uses the file
only when `ann_pending` is empty and the record matches the file: otherwise (a run that did not
finish, a file copied from elsewhere, deleted or cut short) it warns and searches exactly, never
from a graph that could return a deleted chunk or miss a new one.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigError, SinkError
from ..runner.sqlite_files import transaction

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

AnnMode = Literal["auto", "always", "never"]
"""`auto`: an HNSW index from `AUTO_MIN_VECTORS` vectors on, exact below; `always`: whatever the
size; `never`: exact search only (the writer removes the file; a search ignores it)."""

AUTO_MIN_VECTORS = 100_000
"""Where `auto` starts keeping an HNSW index (benchmarks/README.md, "Vector search at 10^6 chunks"):
below it exact search takes under 16 ms a query (0.15 us a vector), about the query's embedding,
and misses nothing; at it the graph answers in 1 ms with .998 of the top 10."""
CONNECTIVITY = 16
"""Graph edges a vector keeps (HNSW's M): usearch's default, and the benchmark's."""
EXPANSION_ADD = 128
"""Candidates weighed when a vector is added (ef_construction)."""
EXPANSION_SEARCH = 256
"""Candidates weighed per query (ef): in the benchmark, recall@10 .998 at 10^5 vectors and .973
at 10^6, about 1 ms a query (ef 128: .993 and .950, 0.8-0.9 ms). A query asking for more than half
of it weighs twice as many as it asks."""
FILTER_OVERFETCH = 10
"""With readers or filters, the graph is asked this many times the hits wanted (at least
`FILTER_MIN_CANDIDATES`); if fewer of them pass, the search is exact over the chunks that do."""
FILTER_MIN_CANDIDATES = 1000
BUILD_THREADS = 1
"""Vectors are added on one thread: usearch's parallel insert left vectors no query reaches (1-5
of 1,500 in two builds of four, found by no search even at ef 2,000; 1 of 5,000 probed at 2x10^4),
one thread none, and the same graph every time. Twice the build time on two cores, once an index."""
_BATCH = 50_000
"""Vectors read from SQLite and added to the graph at a time."""

_META_KEY = "ann"


def ann_file(index: Path) -> Path:
    """The HNSW file beside the index: `out/index.sqlite.usearch`."""
    return index.with_name(index.name + ".usearch")


def available() -> bool:
    try:
        usearch_index()
    except ImportError:
        return False
    return True


def usearch_index() -> Any:
    """usearch's `Index` class, imported after onnxruntime: onnxruntime 1.32 imported into a process
    that already holds usearch 2.26's compiled module crashes it (a segmentation fault; the other
    order is fine), and a search or a scheduled run can open the graph before the embedder."""
    try:
        import onnxruntime  # noqa: F401  (minilm's, a runtime dependency: absent only in odd installs)
    except ImportError:
        pass
    from usearch.index import Index

    return Index


def require(subject: object) -> None:
    """A `ConfigError` unless the `ann` extra (usearch) is installed."""
    if not available():
        raise ConfigError("`ann: always` needs usearch: pip install 'ingest[ann]'", subject)


@dataclass(frozen=True)
class Refreshed:
    """What `refresh` did, for the run's report."""

    action: Literal["built", "updated", "unchanged", "removed", "none"]
    vectors: int
    changed: int = 0


def wanted(mode: AnnMode, count: int) -> bool:
    return mode == "always" or (mode == "auto" and count >= AUTO_MIN_VECTORS)


def refresh(conn: sqlite3.Connection, index: Path, mode: AnnMode) -> Refreshed:
    """Bring `index`'s HNSW file up to date with its vectors (the writer's side; `conn` writable).

    Without a usable file it is built from every vector; with one, only the `ann_pending` seqs are
    removed and added again. Below the mode's size (or `never`) any file is removed, so a search
    never meets a stale one. The file is replaced whole (written beside, then renamed) and the
    record and `ann_pending` change only after: a crash leaves a file a search calls stale.
    """
    path = ann_file(index)
    embedder = _embedder(conn)
    count = 0 if embedder is None else conn.execute(_COUNT, (embedder,)).fetchone()[0]
    if embedder is None or not wanted(mode, count):
        had = path.exists() or _record(conn) is not None
        path.unlink(missing_ok=True)
        if had or conn.execute("SELECT 1 FROM ann_pending LIMIT 1").fetchone():
            with transaction(conn):
                conn.execute("DELETE FROM ann_pending")
                conn.execute("DELETE FROM ingest_meta WHERE key = ?", (_META_KEY,))
        return Refreshed("removed" if had else "none", count)
    if not available():
        if mode == "always":
            raise SinkError("`search: {ann: always}` needs usearch: pip install 'ingest[ann]'", index)
        log.warning("%s: %d vectors: vector search stays exact (install 'ingest[ann]' for an HNSW index)", index, count)
        return Refreshed("none", count)
    pending = [row[0] for row in conn.execute("SELECT seq FROM ann_pending ORDER BY seq")]
    graph = _usable(conn, path, embedder)
    if graph is not None and not pending:
        return Refreshed("unchanged", count)
    try:
        if graph is None:
            graph, action, changed = _new_graph(conn, embedder), "built", count
        else:
            _apply(conn, graph, embedder, pending)
            action, changed = "updated", len(pending)
        if len(graph) != count:
            raise SinkError(f"the HNSW index holds {len(graph)} vectors, the index {count}", path)
        tmp = path.with_name(path.name + ".tmp")
        graph.save(str(tmp))
        os.replace(tmp, path)
    except (OSError, RuntimeError, ValueError) as exc:
        raise SinkError(f"cannot write the HNSW index ({exc})", path) from exc
    with transaction(conn):
        conn.execute("DELETE FROM ann_pending WHERE seq IN (SELECT value FROM json_each(?))", (json.dumps(pending),))
        if action == "built":
            conn.execute("DELETE FROM ann_pending")  # all of them are in it
        conn.execute(
            "INSERT OR REPLACE INTO ingest_meta (key, value) VALUES (?, ?)",
            (_META_KEY, json.dumps({"embedder": embedder, "vectors": count, "file": _fingerprint(path)})),
        )
    return Refreshed(action, count, changed)  # type: ignore[arg-type]


class Graph:
    """An opened, up-to-date HNSW file: the nearest seqs to a query vector."""

    def __init__(self, index: Any, path: Path) -> None:
        self.index, self.path = index, path

    def nearest(self, query: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
        """(seqs, cosine similarities) of the `count` nearest, best first."""
        import numpy as np

        self.index.expansion_search = max(EXPANSION_SEARCH, 2 * count)
        found = self.index.search(query.astype(np.float32), count, threads=1)
        return np.asarray(found.keys, dtype=np.int64), 1.0 - np.asarray(found.distances, dtype=np.float64)

    def __len__(self) -> int:
        return len(self.index)


def open_graph(conn: sqlite3.Connection, index: Path, embedder: str, mode: AnnMode) -> Graph | None:
    """The index's HNSW file, memory-mapped, if `mode` lets it be used and it reflects the index
    now; None (exact search) otherwise, with a warning when a file was due and is missing or stale."""
    if mode == "never":
        return None
    path = ann_file(index)
    try:
        record = _record(conn)
        if record is None:
            count = conn.execute(_COUNT, (embedder,)).fetchone()[0]
            if wanted(mode, count) and available():
                log.warning(
                    "%s: no HNSW index beside the index's %d vectors; searching exactly (`ingest run` builds it)",
                    index,
                    count,
                )
            return None
        pending = conn.execute("SELECT count(*) FROM ann_pending").fetchone()[0]
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):  # an index no run of this version has written
            return None
        raise
    why = _stale(record, path, embedder, pending)
    if why is None and not available():
        why = "usearch is not installed (pip install 'ingest[ann]')"
    if why is not None:
        log.warning("%s: %s; searching exactly", path, why)
        return None
    Index = usearch_index()

    try:
        graph = Index.restore(str(path), view=True)
    except (OSError, RuntimeError, ValueError) as exc:
        log.warning("%s: cannot open the HNSW index (%s); searching exactly", path, exc)
        return None
    if graph is None or len(graph) != record["vectors"]:
        log.warning("%s: the HNSW index is damaged; searching exactly", path)
        return None
    return Graph(graph, path)


# --- inside ------------------------------------------------------------------------------------------

_COUNT = "SELECT count(*) FROM chunk_vectors WHERE embedder = ?"


def _embedder(conn: sqlite3.Connection) -> str | None:
    """The embedder of most vectors: the one searches embed their queries with (as `VectorIndex`)."""
    row = conn.execute("SELECT embedder FROM chunk_vectors GROUP BY embedder ORDER BY count(*) DESC LIMIT 1").fetchone()
    return None if row is None else str(row[0])


def _record(conn: sqlite3.Connection) -> dict[str, Any] | None:
    row = conn.execute("SELECT value FROM ingest_meta WHERE key = ?", (_META_KEY,)).fetchone()
    return None if row is None else dict(json.loads(row[0]))


def _stale(record: dict[str, Any], path: Path, embedder: str, pending: int) -> str | None:
    """Why the file cannot be trusted for the index as it is, or None."""
    if record.get("embedder") != embedder:
        return f"the HNSW index holds {record.get('embedder')}'s vectors, the search embeds with {embedder}"
    if not path.is_file():
        return "the HNSW index is missing"
    if _fingerprint(path) != record.get("file"):
        return "the HNSW index is not the one the last run wrote"
    if pending:
        return f"the HNSW index is stale ({pending} vectors changed since it was written; `ingest run` updates it)"
    return None


_FINGERPRINT_BYTES = 1 << 20


def _fingerprint(path: Path) -> str:
    """The file's size and a hash of its first and last MiB: tells the file the last run wrote
    from another index's (of the same size, even) or one cut short, without reading 1.6 GB."""
    import hashlib

    size = path.stat().st_size
    digest = hashlib.sha256(str(size).encode())
    with path.open("rb") as f:
        digest.update(f.read(_FINGERPRINT_BYTES))
        f.seek(max(0, size - _FINGERPRINT_BYTES))
        digest.update(f.read(_FINGERPRINT_BYTES))
    return f"{size}:{digest.hexdigest()[:32]}"


def _usable(conn: sqlite3.Connection, path: Path, embedder: str) -> Any | None:
    """The file, loaded for changes, if it is the one the record describes (pending changes aside)."""
    record = _record(conn)
    if record is None or _stale(record, path, embedder, 0) is not None:
        return None
    Index = usearch_index()

    try:
        return Index.restore(str(path), view=False)
    except (OSError, RuntimeError, ValueError):
        return None  # damaged: built again


def _new_graph(conn: sqlite3.Connection, embedder: str) -> Any:
    Index = usearch_index()

    dims = conn.execute("SELECT length(vector) / 4 FROM chunk_vectors WHERE embedder = ? LIMIT 1", (embedder,))
    graph = Index(
        ndim=dims.fetchone()[0],
        metric="ip",  # unit vectors: the inner product is the cosine
        dtype="f32",
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
    )
    cursor = conn.execute("SELECT seq, vector FROM chunk_vectors WHERE embedder = ? ORDER BY seq", (embedder,))
    while rows := cursor.fetchmany(_BATCH):
        _add(graph, rows)
    return graph


def _apply(conn: sqlite3.Connection, graph: Any, embedder: str, pending: list[int]) -> None:
    import numpy as np

    keys = np.asarray(pending, dtype=np.uint64)
    graph.remove(keys[np.asarray(graph.contains(keys), dtype=bool)])
    for start in range(0, len(pending), _BATCH):
        rows = conn.execute(
            "SELECT seq, vector FROM chunk_vectors WHERE embedder = ? AND seq IN (SELECT value FROM json_each(?))",
            (embedder, json.dumps(pending[start : start + _BATCH])),
        ).fetchall()
        if rows:
            _add(graph, rows)


def _add(graph: Any, rows: list[tuple[int, bytes]]) -> None:
    import numpy as np

    keys = np.fromiter((r[0] for r in rows), dtype=np.uint64, count=len(rows))
    vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    graph.add(keys, vectors, threads=BUILD_THREADS)
