"""Search the pgvector sink's tables: by vector (HNSW, inner product on unit vectors), by
PostgreSQL full text (heading path weighted above the body, as the SQLite index does), or both
fused by reciprocal rank, each hit widened with its neighbouring chunks like `search.search`.

The same queries work from any SQL client; README's "PostgreSQL + pgvector" section shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypedDict, Unpack

from ..blocks import Chunk
from ..embedders import Embedder
from ..search.bm25 import Hit, SearchError, widened
from ..search.filters import Filters
from ..search.principals import checked_readers
from .chunk_rows import row_chunk, select_list
from .pgvector import RENAMED, Tables, connect, single, where
from .pgvector_filters import pg_where
from .pgvector_options import PgvectorOptions

if TYPE_CHECKING:
    import psycopg

Mode = Literal["hybrid", "vector", "keyword"]
MODES: tuple[Mode, ...] = ("hybrid", "vector", "keyword")
RRF_K = 60
"""Reciprocal rank fusion's constant (Cormack et al. 2009): a hit's score is the sum of
1 / (RRF_K + rank) over the two lists, so neither list's raw scores need to be comparable."""
CANDIDATES = 50
"""How deep each list is read before fusing (at least 4 k)."""

_COLUMNS = select_list(lambda name: RENAMED.get(name, name))
"""What `row_chunk` reads (psycopg hands jsonb back as data), then each query's own column."""
_ALLOWED = "(%(readers)s::text[] IS NULL OR d.readers IS NULL OR d.readers && %(readers)s::text[]) AND {filters}"
"""A document without readers (local files) is open to all; one with readers only to those listed
(an empty list: to no one). Then the metadata filters (`pgvector_filters.py`)."""
_TSQUERY = "replace(plainto_tsquery(%(config)s::regconfig, %(query)s)::text, ' & ', ' | ')::tsquery"
"""Any of the query's words, as the SQLite index's OR of terms: plainto_tsquery's AND would drop
every chunk that misses one word of a question."""


class SearchArgs(TypedDict, total=False):
    """`PgvectorSearch.search`'s options, for the one-call form."""

    k: int
    window: int
    readers: tuple[str, ...] | None
    mode: Mode
    filters: Filters | None


def search_pgvector(options: PgvectorOptions, embedder: Embedder, query: str, **how: Unpack[SearchArgs]) -> list[Hit]:
    """One search on a connection of its own (the CLI's); see `PgvectorSearch.search`."""
    with PgvectorSearch(options, embedder) as searcher:
        return searcher.search(query, **how)


class PgvectorSearch:
    """A connection to the sink's tables kept open for many searches, as a service holds one."""

    def __init__(self, options: PgvectorOptions, embedder: Embedder) -> None:
        self.options, self.embedder = options, embedder
        self.where = where(options)
        self.tables = Tables(options)
        self._conn: psycopg.Connection | None = None
        self._live()

    def search(
        self,
        query: str,
        k: int = 5,
        window: int = 1,
        readers: tuple[str, ...] | None = None,
        mode: Mode = "hybrid",
        filters: Filters | None = None,
    ) -> list[Hit]:
        """The `k` best chunks for `query`; `readers` and `filters` as in `search.search`. Scores:
        higher is better (the inner product for vector, ts_rank for keyword, the fused reciprocal
        ranks for hybrid)."""
        import psycopg

        readers = checked_readers(readers)
        if k < 1 or window < 0:
            raise SearchError(f"k must be at least 1 and window at least 0 (got k={k}, window={window})", self.where)
        if mode not in MODES:
            raise SearchError(f"unknown mode {mode!r} (there are: {', '.join(MODES)})", self.where)
        params: dict[str, Any] = {
            "query": query,
            "k": k,
            "config": self.options.text_search,
            "readers": None if readers is None else list(readers),  # checked above
            "n": max(CANDIDATES, 4 * k),
        }
        narrowed, filter_params = pg_where(filters)
        params.update(filter_params)
        if mode != "keyword":
            params["vector"] = self.embedder.embed([query])[0]
        conn = self._live()
        try:
            with conn.transaction():  # hits and their neighbours from one snapshot
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                if mode != "keyword" and filters:
                    # HNSW filters after the scan and returns at most ef_search rows, so a filter
                    # that passes few chunks would leave few or none: rank exactly the chunks
                    # that pass (the GIN full-text index is a bitmap scan, unaffected).
                    conn.execute("SET LOCAL enable_indexscan = off")
                elif mode != "keyword":
                    # Read deeper than the candidates wanted, more so when readers may drop some.
                    depth = max(40, params["n"] * (4 if readers is not None else 1))
                    conn.execute(f"SET LOCAL hnsw.ef_search = {min(depth, 1000)}")
                rows = conn.execute(_sql(_QUERIES[mode], self.tables, narrowed), params).fetchall()
                hits = [(row_chunk(row), float(row[-1])) for row in rows]
                around = _neighbours(conn, self.tables, [c for c, _ in hits], window)
        except psycopg.Error as exc:
            if conn.closed or conn.broken:
                self._conn = None  # the next search connects again
            raise SearchError(f"search for {query!r} failed ({_first_line(exc)})", self.where) from exc
        return [widened(chunk, score, around[chunk.doc_id, chunk.chunk_index]) for chunk, score in hits]

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> PgvectorSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _live(self) -> psycopg.Connection:
        import psycopg

        if self._conn is not None and not self._conn.closed:
            return self._conn
        try:
            conn = connect(self.options)
        except psycopg.OperationalError as exc:
            raise SearchError(f"cannot reach the database ({_first_line(exc)})", self.where) from exc
        try:
            _check(conn, self.tables, self.embedder, self.where)
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _check(conn: psycopg.Connection, tables: Tables, embedder: Embedder, place: str) -> None:
    exists = single(conn.execute("SELECT to_regclass(%s)", (f"{tables.label}",)))
    if exists is None:
        raise SearchError("no index here; run `ingest run` with this sink first to build it", place)
    made_with = conn.execute(_sql("SELECT value FROM {meta} WHERE key = 'embedder'", tables)).fetchone()
    if made_with and made_with[0] != embedder.name:
        raise SearchError(
            f"the index holds vectors of {made_with[0]!r}, not of {embedder.name!r}: search with "
            "the embedder the index was built with",
            place,
        )


_VECTOR = f"""
SELECT * FROM (
    SELECT {_COLUMNS}, -(c.embedding <#> %(vector)s) AS score
    FROM {{chunks}} AS c JOIN {{documents}} AS d ON d.id = c.doc_id
    WHERE {_ALLOWED}
    ORDER BY c.embedding <#> %(vector)s  -- the distance alone, which the HNSW index yields in order
    LIMIT %(k)s
) AS nearest
ORDER BY score DESC, doc_id, chunk_index
"""
_KEYWORD = f"""
SELECT {_COLUMNS}, ts_rank(c.tsv, q.query, 1) AS score
FROM {{chunks}} AS c JOIN {{documents}} AS d ON d.id = c.doc_id, (SELECT {_TSQUERY} AS query) AS q
WHERE c.tsv @@ q.query AND {_ALLOWED}
ORDER BY score DESC, c.doc_id, c.chunk_index
LIMIT %(k)s
"""
_HYBRID = f"""
WITH q AS (SELECT {_TSQUERY} AS query),
v AS (
    SELECT doc_id, chunk_index, row_number() OVER (ORDER BY distance, doc_id, chunk_index) AS r
    FROM (SELECT c.doc_id, c.chunk_index, c.embedding <#> %(vector)s AS distance
          FROM {{chunks}} AS c JOIN {{documents}} AS d ON d.id = c.doc_id
          WHERE {_ALLOWED}
          ORDER BY c.embedding <#> %(vector)s LIMIT %(n)s) AS nearest
),
t AS (
    SELECT doc_id, chunk_index, row_number() OVER (ORDER BY rank DESC, doc_id, chunk_index) AS r
    FROM (SELECT c.doc_id, c.chunk_index, ts_rank(c.tsv, q.query, 1) AS rank
          FROM {{chunks}} AS c JOIN {{documents}} AS d ON d.id = c.doc_id, q
          WHERE c.tsv @@ q.query AND {_ALLOWED}
          ORDER BY rank DESC LIMIT %(n)s) AS matching
),
fused AS (
    SELECT doc_id, chunk_index,
           COALESCE(1.0 / ({RRF_K} + v.r), 0) + COALESCE(1.0 / ({RRF_K} + t.r), 0) AS score
    FROM v FULL JOIN t USING (doc_id, chunk_index)
)
SELECT {_COLUMNS}, f.score
FROM fused AS f
JOIN {{chunks}} AS c ON c.doc_id = f.doc_id AND c.chunk_index = f.chunk_index
JOIN {{documents}} AS d ON d.id = c.doc_id
ORDER BY f.score DESC, c.doc_id, c.chunk_index
LIMIT %(k)s
"""
_QUERIES: dict[str, str] = {"vector": _VECTOR, "keyword": _KEYWORD, "hybrid": _HYBRID}
_AROUND = f"""
SELECT {_COLUMNS}, w.n
FROM unnest(%s::text[], %s::integer[]) WITH ORDINALITY AS w(doc_id, chunk_index, n)
JOIN {{chunks}} AS c ON c.doc_id = w.doc_id AND c.chunk_index BETWEEN w.chunk_index - %s AND w.chunk_index + %s
JOIN {{documents}} AS d ON d.id = c.doc_id
ORDER BY w.n, c.chunk_index
"""
"""Every hit's neighbours in one query: a round trip a hit would cost more than the search."""


def _sql(template: str, tables: Tables, filters: str = "TRUE") -> Any:
    from psycopg import sql

    return sql.SQL(template).format(
        chunks=tables.chunks, documents=tables.documents, meta=tables.meta, filters=sql.SQL(filters)
    )


def _neighbours(
    conn: psycopg.Connection, tables: Tables, hits: list[Chunk], window: int
) -> dict[tuple[str, int], list[Chunk]]:
    found: dict[tuple[str, int], list[Chunk]] = {(c.doc_id, c.chunk_index): [] for c in hits}
    if not hits:
        return found
    rows = conn.execute(
        _sql(_AROUND, tables), ([c.doc_id for c in hits], [c.chunk_index for c in hits], window, window)
    ).fetchall()
    for row in rows:
        hit = hits[row[-1] - 1]
        found[hit.doc_id, hit.chunk_index].append(row_chunk(row))
    return found
