"""Vector search over the SQLite index: an exact dot product against every stored vector, or the
HNSW file beside the index when the run keeps one (`ann.py`: from 10^5 vectors by default).

Python's sqlite3 here (and on many systems) cannot load extensions such as sqlite-vec, so the
vectors are float32 BLOBs read into one numpy matrix, once per `VectorIndex`, and read again only
when the index has changed since (`PRAGMA data_version`). Exact search needs no index to build or
tune and never misses a neighbour; `benchmarks/vector_search_speed.py` measures what it costs.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..blocks import Chunk
from ..embedders import Embedder, load
from ..errors import IngestError
from ..sinks.sqlite import CHUNK_SELECT, chunk_from_row, connect_index
from .ann import FILTER_MIN_CANDIDATES, FILTER_OVERFETCH, AnnMode, Graph, open_graph
from .bm25 import HEADING_WEIGHT, SearchError, allowed_seqs
from .bm25_memory import WarmBm25
from .filters import Filters

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class _Matrix:
    embedder: str
    seqs: np.ndarray
    """chunks.seq of each row."""
    vectors: np.ndarray
    """(rows, dimensions) float32, unit rows."""


def holds_vectors(index: Path) -> bool:
    """Whether `index` holds vectors whose embedder it records (so a query can be embedded the
    same way): what makes hybrid the default search. False for anything unreadable: bm25 then
    says what is wrong."""
    try:
        conn = sqlite3.connect(f"{Path(index).resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        row = conn.execute(
            "SELECT 1 FROM ingest_meta WHERE key = 'embedder:' || (SELECT embedder FROM chunk_vectors LIMIT 1)"
        ).fetchone()
        return row is not None
    except sqlite3.Error:  # no such table: an index built without an embedder, or not an index
        return False
    finally:
        conn.close()


class VectorIndex:
    """An index's vectors held in memory for repeated queries, and the embedder of its queries.

    `embedder` defaults to the one the index records (the job's `embedder:` config, opened here).
    `ann`: whether to search the HNSW file beside the index when it is there and up to date
    (`search/ann.py`; `never`: always exact). With it, the vectors are never read into memory.
    """

    def __init__(self, index: Path, embedder: Embedder | None = None, ann: AnnMode = "auto") -> None:
        self.index = Path(index)
        self.conn = connect_index(self.index, create=False)
        self.ann: AnnMode = ann
        self._embedder = embedder
        self._matrix: _Matrix | None = None
        self._version: int | None = None
        self._graph: tuple[int, Graph | None] | None = None
        """(data_version, the HNSW file or None) as last checked."""
        self._terms: WarmBm25 | None = None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> VectorIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def terms(self) -> WarmBm25:
        """The bm25 half of hybrid search, its terms' postings kept in memory while this is open."""
        if self._terms is None:
            self._terms = WarmBm25(self.conn, HEADING_WEIGHT)
        return self._terms

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            name, spec = self._recorded()
            try:
                self._embedder = load(spec)
            except IngestError as exc:
                raise SearchError(
                    f"cannot open the embedder {name} the index was built with: {exc}", self.index
                ) from exc
            if self._embedder.name != name:
                raise SearchError(
                    f"the index's vectors are {name}'s but its config now opens {self._embedder.name}; "
                    "run `ingest run` again to re-embed",
                    self.index,
                )
        return self._embedder

    def ranked(
        self, query: str, limit: int, readers: tuple[str, ...] | None = None, filters: Filters | None = None
    ) -> list[tuple[Chunk, float]]:
        """The `limit` chunks nearest to `query` (cosine, highest first), as (chunk, similarity)."""
        nearest = self.nearest(query, limit, readers, filters)
        found = self.chunks([seq for seq, _ in nearest])
        return [(found[seq], score) for seq, score in nearest if seq in found]

    def nearest(
        self, query: str, limit: int, readers: tuple[str, ...] | None = None, filters: Filters | None = None
    ) -> list[tuple[int, float]]:
        """(chunks.seq, similarity) of the `limit` nearest chunks, best first; ties by seq, so
        results are repeatable. From the HNSW file when there is an up-to-date one (approximate),
        else exact."""
        import numpy as np

        graph = self._current_graph()
        if graph is not None:
            found = self._graph_nearest(graph, self.embedder.embed([query])[0], limit, readers, filters)
            if found is not None:
                return found
        matrix = self._current()
        if not len(matrix.seqs):
            return []
        scores = matrix.vectors @ self.embedder.embed([query])[0].astype(np.float32)
        if readers is not None or filters:
            scores = np.where(np.isin(matrix.seqs, self._allowed(readers, filters)), scores, -np.inf)
        limit = min(limit, int(np.isfinite(scores).sum()))
        if limit <= 0:
            return []
        top = np.argpartition(-scores, limit - 1)[:limit] if limit < len(scores) else np.arange(len(scores))
        top = top[np.lexsort((matrix.seqs[top], -scores[top]))]
        return [(int(matrix.seqs[i]), float(scores[i])) for i in top]

    def _graph_nearest(
        self, graph: Graph, query: np.ndarray, limit: int, readers: tuple[str, ...] | None, filters: Filters | None
    ) -> list[tuple[int, float]] | None:
        """As `nearest`, from the graph; None when readers or filters let fewer than `limit` of
        the graph's candidates through (the caller then searches exactly)."""
        import numpy as np

        narrowed = readers is not None or bool(filters)
        want = min(len(graph), max(limit * FILTER_OVERFETCH, FILTER_MIN_CANDIDATES) if narrowed else limit)
        if want <= 0:
            return []
        seqs, scores = graph.nearest(query, want)
        if narrowed:
            keep = np.isin(seqs, self._allowed(readers, filters))
            if keep.sum() < limit and want < len(graph):
                return None
            seqs, scores = seqs[keep], scores[keep]
        order = np.lexsort((seqs, -scores))[:limit]
        return [(int(seqs[i]), float(scores[i])) for i in order]

    def _current_graph(self) -> Graph | None:
        try:
            version = self.conn.execute("PRAGMA data_version").fetchone()[0]
            if self._graph is None or self._graph[0] != version:
                self._graph = (version, open_graph(self.conn, self.index, self.embedder.name, self.ann))
        except sqlite3.Error as exc:
            raise SearchError(f"cannot read the index's vectors ({exc})", self.index) from exc
        return self._graph[1]

    def chunks(self, seqs: list[int]) -> dict[int, Chunk]:
        """The chunks of these `chunks.seq` values (those still in the index)."""
        rows = self.conn.execute(
            CHUNK_SELECT.replace("SELECT ", "SELECT c.seq, ", 1) + " WHERE c.seq IN (SELECT value FROM json_each(?))",
            (json.dumps(seqs),),
        )
        return {row[0]: chunk_from_row(row[1:]) for row in rows}

    def ids(self, seqs: list[int]) -> dict[int, str]:
        """chunks.seq -> chunk id, for fusing with rankings that name chunks by id."""
        return dict(
            self.conn.execute(
                "SELECT seq, id FROM chunks WHERE seq IN (SELECT value FROM json_each(?))", (json.dumps(seqs),)
            )
        )

    def _current(self) -> _Matrix:
        import numpy as np

        try:
            version = self.conn.execute("PRAGMA data_version").fetchone()[0]
            if self._matrix is not None and version == self._version:
                return self._matrix
            name = self.embedder.name
            rows = self.conn.execute(
                "SELECT seq, vector FROM chunk_vectors WHERE embedder = ? ORDER BY seq", (name,)
            ).fetchall()
        except sqlite3.Error as exc:
            raise SearchError(f"cannot read the index's vectors ({exc})", self.index) from exc
        seqs = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        vectors = (
            np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
            if rows
            else np.zeros((0, self.embedder.dimensions), dtype=np.float32)  # reshape(0, -1) is an error
        )
        if len(rows) and vectors.shape[1] != self.embedder.dimensions:
            raise SearchError(
                f"the stored vectors have {vectors.shape[1]} dimensions, the embedder "
                f"{self.embedder.dimensions}; run `ingest run` again",
                self.index,
            )
        self._matrix, self._version = _Matrix(name, seqs, vectors), version
        return self._matrix

    def _recorded(self) -> tuple[str, dict[str, Any]]:
        """The embedder of most of the index's vectors, and the config that opens it."""
        try:
            row = self.conn.execute(
                "SELECT embedder FROM chunk_vectors GROUP BY embedder ORDER BY count(*) DESC LIMIT 1"
            ).fetchone()
            spec = (
                row
                and self.conn.execute("SELECT value FROM ingest_meta WHERE key = ?", (f"embedder:{row[0]}",)).fetchone()
            )
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise SearchError(f"cannot read the index's vectors ({exc})", self.index) from exc
            row = spec = None
        if not row or not spec:
            raise SearchError(
                "the index holds no vectors; add `embedder: {name: minilm}` to the job's config "
                "and run `ingest run` again, or search with --mode bm25",
                self.index,
            )
        return row[0], json.loads(spec[0])

    def _allowed(self, readers: tuple[str, ...] | None, filters: Filters | None) -> np.ndarray:
        """chunks.seq of the chunks the readers may open and the filters let through."""
        return allowed_seqs(self.conn, readers, filters)
