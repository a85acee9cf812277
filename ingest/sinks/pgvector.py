"""PostgreSQL + pgvector: chunks, their vectors and a full-text column in a database teams already
run, for vector and hybrid search from any service that speaks SQL.

Why this store: PostgreSQL is the database most companies already operate (backups, access
control, replication, managed offerings everywhere), and pgvector is its standard vector
extension (HNSW and IVFFlat indexes), so the index lives beside the rest of the data with no new
service to run. The tests run a real PostgreSQL 16 + pgvector 0.6 server (the `pgserver` wheel's
binaries, from PyPI) on 127.0.0.1; Qdrant or Milvus servers are not installable from a registry
here, and their embedded modes are not the servers teams run.

Three tables, named by the `table` prefix: `<t>_documents` (citation metadata and readers),
`<t>_chunks` (text, heading path, pages, the vector, a generated tsvector for full text; HNSW on
the vector, built at the end of the first load, GIN on the text) and `<t>_meta` (the index id, the embedder the vectors come from).
Each `write` is one transaction that replaces the document's chunks: a reader, or a crash,
sees the old chunks or the new. Vectors are embedded before the transaction opens, and a chunk
whose embedded text (heading path and body) is already stored, in any document, reuses that
vector: an edit re-embeds only the chunks whose text changed.

A refused or dropped connection is tried again `retries` times; past that the document fails as a
machine fault (`SinkUnreachable`), tried again on the next run, and what the table held stays.
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..blocks import Chunk, Document
from ..embedders import Embedder
from ..errors import SinkError, SinkUnreachable
from . import Sink
from .chunk_rows import STORED_FIELDS, chunk_values, json_data
from .pgvector_options import PgvectorOptions

if TYPE_CHECKING:
    import psycopg

    from ..embedders import ChunkVectors

log = logging.getLogger(__name__)

SCHEMA_VERSION = "1"
_T = TypeVar("_T")

RENAMED = {"start": "start_char", "end": "end_char"}
"""Columns named apart from their `Chunk` field (`end` is a word PostgreSQL reserves)."""
CHUNK_COLUMNS = (*(RENAMED.get(name, name) for name in STORED_FIELDS), "content_hash", "embedding")
"""The chunk table's columns: `chunk_rows.STORED_FIELDS`, then the embedded text's hash and its vector."""


class Tables:
    """The qualified names of one sink's tables."""

    def __init__(self, options: PgvectorOptions) -> None:
        from psycopg import sql

        self.schema = sql.Identifier(options.schema_name)
        prefix = options.table
        self.chunks = sql.Identifier(options.schema_name, f"{prefix}_chunks")
        self.documents = sql.Identifier(options.schema_name, f"{prefix}_documents")
        self.meta = sql.Identifier(options.schema_name, f"{prefix}_meta")
        self.prefix = prefix
        self.label = f"{options.schema_name}.{prefix}_chunks"

    def index(self, suffix: str) -> Any:
        from psycopg import sql

        return sql.Identifier(f"{self.prefix}_{suffix}")


def single(cursor: psycopg.Cursor) -> Any:
    """The one value of a query that always returns one row (EXISTS, to_regclass, a key just upserted)."""
    row = cursor.fetchone()
    assert row is not None
    return row[0]


def where(options: PgvectorOptions) -> str:
    """The database as said in messages: host, port, database and table, never a secret."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(options.dsn)
    except Exception:  # a malformed dsn is reported by connect; name no part of it here
        return f"postgresql ({options.schema_name}.{options.table}_chunks)"
    host = parts.get("host") or os.environ.get("PGHOST") or "localhost"
    port = parts.get("port") or os.environ.get("PGPORT") or "5432"
    database = parts.get("dbname") or parts.get("user") or ""
    return f"postgresql://{host}:{port}/{database} ({options.schema_name}.{options.table}_chunks)"


class PgvectorSink(Sink):
    """Writes documents, chunks and vectors to PostgreSQL (the tables are created if missing); a
    `VectorSink`, so a job's `embedder:` step hands it the vectors it made."""

    def __init__(self, options: PgvectorOptions, embedder: Embedder) -> None:
        _client()  # a missing extra fails here, with what to install
        self.options, self.embedder = options, embedder
        self.where = where(options)
        self.tables = Tables(options)
        self._conn: psycopg.Connection | None = None
        self._closed = False
        self.embedded = 0
        """Texts this sink sent to the embedder (the rest reused stored vectors)."""
        self._index_pending = self._retrying(
            "open the index", lambda conn: create_tables(conn, self.tables, options, embedder)
        )

    def write(self, document: Document, chunks: Sequence[Chunk], vectors: ChunkVectors | None = None) -> None:
        """As `Sink.write`; `vectors` as `VectorSink.write` (a job with `embedder:` embeds before the
        sink), else the sink embeds what it has no stored vector for itself."""
        from ..embedders import embed_chunks

        chunks = list(chunks)
        doc_row = _document_row(document, len(chunks))
        rows = [chunk_values(document, chunk) for chunk in chunks]  # a bad chunk fails before anything is read
        if vectors is None:
            vectors = embed_chunks(self.embedder, chunks, self.cached_vectors)
            self.embedded += vectors.embedded
        elif vectors.embedder != self.embedder.name or len(vectors.hashes) != len(chunks):
            raise SinkError(
                f"document {document.id!r} came with {len(vectors.hashes)} vectors of "
                f"{vectors.embedder!r} for {len(chunks)} chunks; the tables hold {self.embedder.name!r}'s. "
                "Its previous chunks are kept",
                self.where,
            )
        rows = [(*row, digest, vector) for row, digest, vector in zip(rows, vectors.hashes, vectors.matrix)]
        self._retrying(
            f"write document {document.id!r}", lambda conn: replace_document(conn, self.tables, doc_row, rows)
        )

    def cached_vectors(self, embedder: str, hashes: Collection[str]) -> dict[str, Any]:
        """The stored vector of each embedded-text hash, in any document (`VectorSink`)."""
        if embedder != self.embedder.name:  # the tables hold one embedder's vectors (checked at open)
            return {}
        return self._retrying("read the stored vectors", lambda conn: stored_vectors(conn, self.tables, hashes))

    def record_embedder(self, name: str, spec: Mapping[str, Any]) -> None:
        """Keep the config that opens the embedder beside the vectors (`VectorSink`), for searches."""
        if name != self.embedder.name:
            raise SinkError(
                f"the job's embedder is {name!r} but this sink stores {self.embedder.name!r}'s vectors; "
                "give the sink no `embedder:` of its own, or the same",
                self.where,
            )
        query = _sql(
            "INSERT INTO {} (key, value) VALUES ('embedder_spec', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            self.tables.meta,
        )
        self._retrying("record the embedder", lambda conn: conn.execute(query, (json.dumps(dict(spec)),)))

    def withhold(self, doc_id: str, readers: tuple[str, ...]) -> None:
        """As `ReadersSink.withhold` (an empty list: no one's principals overlap it)."""
        query = _sql("UPDATE {} SET readers = %s WHERE id = %s AND readers IS NOT NULL", self.tables.documents)
        self._retrying(f"withhold document {doc_id!r}", lambda conn: conn.execute(query, (list(readers), doc_id)))

    def delete(self, doc_id: str) -> None:
        query = _sql("DELETE FROM {} WHERE id = %s", self.tables.documents)  # its chunks go by ON DELETE CASCADE
        self._retrying(f"delete document {doc_id!r}", lambda conn: conn.execute(query, (doc_id,)))

    def close(self) -> None:
        if self._index_pending and not self._closed:
            self._build_index()
        self._closed = True
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _build_index(self) -> None:
        """The HNSW index over what a first load wrote; if it cannot be built now, the next open builds it."""
        try:
            log.info("%s: building the HNSW index", self.where)
            self._retrying("build the HNSW index", lambda conn: hnsw_index(conn, self.tables, self.options))
            self._index_pending = False
        except SinkError as exc:  # the run's own outcome matters more; vector search scans exactly meanwhile
            log.warning("%s; the next run builds it", exc)

    def identity(self) -> str:
        return self._retrying("read the index's id", lambda conn: index_id(conn, self.tables))

    def stored(self) -> dict[str, str]:
        query = _sql("SELECT id, name FROM {}", self.tables.documents)
        return self._retrying("list the index's documents", lambda conn: dict(conn.execute(query).fetchall()))

    def sync(self) -> None:
        pass  # every write committed with synchronous_commit on (set per session): already durable

    def _retrying(self, what: str, action: Callable[[psycopg.Connection], _T]) -> _T:
        """`action` on a live connection; a refused or dropped one is opened again and the action
        repeated (every action here is idempotent), `retries` times with a doubling wait."""
        psycopg = _client()
        if self._closed:
            raise SinkError("the sink is closed; open a new PgvectorSink", self.where)
        for attempt in range(self.options.retries + 1):
            try:
                return action(self._connection())
            except psycopg.OperationalError as exc:
                self._drop()
                if attempt == self.options.retries:
                    raise SinkUnreachable(
                        f"could not {what}: {_reason(exc)} (tried {attempt + 1} times). Check the server is up "
                        "and reachable; what was stored stays, and the next run tries again",
                        self.where,
                    ) from exc
                wait = 0.5 * 2**attempt
                log.warning("%s: could not %s (%s); trying again in %.1f s", self.where, what, _reason(exc), wait)
                time.sleep(wait)
            except psycopg.errors.UniqueViolation as exc:
                raise SinkError(
                    f"could not {what}: two chunks have the same id ({_reason(exc)}); its previous chunks "
                    "are kept. This is a chunker bug: please report it",
                    self.where,
                ) from exc
            except psycopg.Error as exc:
                raise SinkError(f"could not {what} ({_reason(exc)}); what was stored is kept", self.where) from exc
        raise AssertionError("unreachable")

    def _connection(self) -> psycopg.Connection:
        if self._conn is None or self._conn.closed:
            self._conn = connect(self.options)
        return self._conn

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # closing a broken connection may fail too; it is gone either way
                pass
            self._conn = None


def connect(options: PgvectorOptions) -> psycopg.Connection:
    """A connection in autocommit mode (each change in its own explicit transaction), with
    pgvector's types registered and commits synchronous."""
    psycopg = _client()
    from pgvector.psycopg import register_vector

    password = os.environ.get(options.password_env) or None
    conn = psycopg.connect(
        options.dsn,
        password=password,
        autocommit=True,
        connect_timeout=max(1, round(options.connect_timeout_s)),
        application_name="ingest",
    )
    try:
        conn.execute("SET synchronous_commit = on")
        try:
            register_vector(conn)
        except psycopg.ProgrammingError:  # the type is not there yet: `create_tables` makes it
            pass
    except BaseException:
        conn.close()
        raise
    return conn


def create_tables(conn: psycopg.Connection, tables: Tables, options: PgvectorOptions, embedder: Embedder) -> bool:
    """Create what is missing, then check the tables were made for this embedder and schema.
    True when the HNSW index is left for `close` to build: the table is empty, and a graph built
    over a first load at once is many times faster than one grown row by row."""
    from pgvector.psycopg import register_vector
    from psycopg import errors, sql

    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (tables.label,))  # two first runs at once
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except (errors.FeatureNotSupported, errors.UndefinedFile, errors.InsufficientPrivilege) as exc:
            raise SinkError(
                f"the pgvector extension is not available ({_reason(exc)}); install pgvector on the "
                "server and run `CREATE EXTENSION vector` in this database as its owner",
                where(options),
            ) from exc
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(tables.schema))
        conn.execute(_sql("CREATE TABLE IF NOT EXISTS {} (key text PRIMARY KEY, value text NOT NULL)", tables.meta))
        wanted = {
            "schema_version": SCHEMA_VERSION,
            "embedder": embedder.name,
            "dimensions": str(embedder.dimensions),
            "text_search": options.text_search,
        }
        found: dict[str, str] = dict(conn.execute(_sql("SELECT key, value FROM {}", tables.meta)).fetchall())
        for key, value in wanted.items():
            if key in found and found[key] != value:
                raise SinkError(
                    f"the tables were made with {key} {found[key]!r}, not {value!r}: give this configuration "
                    "another `table` prefix, or drop the three tables to rebuild them",
                    where(options),
                )
        for statement in _schema(tables, options, embedder.dimensions):
            conn.execute(statement)
        defer = single(conn.execute(_sql("SELECT NOT EXISTS (SELECT 1 FROM {})", tables.chunks)))
        if not defer:  # a no-op where it exists; built here if a first load ended before its close
            hnsw_index(conn, tables, options)
        conn.cursor().executemany(
            _sql("INSERT INTO {} (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", tables.meta),
            list(wanted.items()),
        )
    register_vector(conn)
    return defer


def _schema(tables: Tables, options: PgvectorOptions, dimensions: int) -> list[Any]:
    from psycopg import sql

    config = sql.Literal(options.text_search)
    return [
        _sql(
            """CREATE TABLE IF NOT EXISTS {} (
            id          text PRIMARY KEY,
            uri         text NOT NULL,
            name        text NOT NULL,
            mime_type   text NOT NULL,
            modified    text NOT NULL,
            version     text NOT NULL,
            title       text NOT NULL,
            meta        jsonb NOT NULL,
            chunk_count integer NOT NULL,
            readers     text[],             -- NULL: no notion of readers (local files); '{{}}': none known
            indexed_at  timestamptz NOT NULL DEFAULT now())""",
            tables.documents,
        ),
        sql.SQL("""CREATE TABLE IF NOT EXISTS {chunks} (
            id             text NOT NULL UNIQUE,
            doc_id         text NOT NULL REFERENCES {documents} (id) ON DELETE CASCADE,
            chunk_index    integer NOT NULL,
            text           text NOT NULL,
            heading_path   text[] NOT NULL,
            heading        text NOT NULL,    -- the path joined with ' > ', for full text and display
            kinds          text[] NOT NULL,
            token_count    integer NOT NULL,
            overlap_tokens integer NOT NULL,
            start_char     integer,
            end_char       integer,
            page_start     integer,
            page_end       integer,
            meta           jsonb NOT NULL,
            url            text NOT NULL,
            content_hash   text NOT NULL,    -- ingest.embedders.text_hash of the embedded text: its vector is reused
            embedding      vector({dimensions}) NOT NULL,
            tsv            tsvector GENERATED ALWAYS AS (
                               setweight(to_tsvector({config}::regconfig, heading), 'A')
                               || setweight(to_tsvector({config}::regconfig, text), 'B')) STORED,
            PRIMARY KEY (doc_id, chunk_index))""").format(
            chunks=tables.chunks, documents=tables.documents, dimensions=sql.Literal(dimensions), config=config
        ),
        sql.SQL("CREATE INDEX IF NOT EXISTS {} ON {} USING gin (tsv)").format(
            tables.index("chunks_tsv"), tables.chunks
        ),
        sql.SQL("CREATE INDEX IF NOT EXISTS {} ON {} (content_hash)").format(
            tables.index("chunks_hash"), tables.chunks
        ),
    ]


def hnsw_index(conn: psycopg.Connection, tables: Tables, options: PgvectorOptions) -> None:
    from psycopg import sql

    # Inner product: the embedders' vectors are unit length, where it ranks as cosine, cheaper.
    conn.execute(
        sql.SQL(
            "CREATE INDEX IF NOT EXISTS {} ON {} USING hnsw (embedding vector_ip_ops) "
            "WITH (m = {}, ef_construction = {})"
        ).format(
            tables.index("chunks_hnsw"),
            tables.chunks,
            sql.Literal(options.hnsw_m),
            sql.Literal(options.hnsw_ef_construction),
        )
    )


def index_id(conn: psycopg.Connection, tables: Tables) -> str:
    with conn.transaction():
        conn.execute(
            _sql("INSERT INTO {} (key, value) VALUES ('index_id', %s) ON CONFLICT (key) DO NOTHING", tables.meta),
            (uuid.uuid4().hex,),
        )
        return single(conn.execute(_sql("SELECT value FROM {} WHERE key = 'index_id'", tables.meta)))


def stored_vectors(conn: psycopg.Connection, tables: Tables, hashes: Collection[str]) -> dict[str, Any]:
    """Vectors already stored for any of these embedded-text hashes (in any document)."""
    if not hashes:
        return {}
    query = _sql(
        "SELECT DISTINCT ON (content_hash) content_hash, embedding FROM {} WHERE content_hash = ANY(%s)", tables.chunks
    )
    found = conn.execute(query, (list(set(hashes)),)).fetchall()
    # pgvector 0.5's loader gives a Vector, older ones a numpy array.
    return {h: vector.to_numpy() if hasattr(vector, "to_numpy") else vector for h, vector in found}


def replace_document(conn: psycopg.Connection, tables: Tables, doc_row: tuple, rows: list[tuple]) -> None:
    """The document's row upserted and its chunks replaced, in one transaction sent as one pipeline:
    a round trip to the server a document, not one a statement (they were most of a write's time)."""
    with conn.pipeline(), conn.transaction():
        conn.execute(_sql(_UPSERT_DOCUMENT, tables.documents), doc_row)
        conn.execute(_sql("DELETE FROM {} WHERE doc_id = %s", tables.chunks), (doc_row[0],))
        insert_chunks(conn, tables, rows)


def insert_chunks(conn: psycopg.Connection, tables: Tables, rows: list[tuple]) -> None:
    from psycopg import sql
    from psycopg.types.json import Jsonb

    columns = sql.SQL(", ").join(map(sql.Identifier, CHUNK_COLUMNS))
    values = sql.SQL(", ").join(sql.Placeholder() * len(CHUNK_COLUMNS))
    meta = CHUNK_COLUMNS.index("meta")
    with conn.cursor() as cur:
        cur.executemany(
            sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(tables.chunks, columns, values),
            [(*row[:meta], Jsonb(row[meta]), *row[meta + 1 :]) for row in rows],
        )


_UPSERT_DOCUMENT = """
INSERT INTO {} (id, uri, name, mime_type, modified, version, title, meta, chunk_count, readers, indexed_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, now())
ON CONFLICT (id) DO UPDATE SET
    uri = excluded.uri, name = excluded.name, mime_type = excluded.mime_type,
    modified = excluded.modified, version = excluded.version, title = excluded.title,
    meta = excluded.meta, chunk_count = excluded.chunk_count, readers = excluded.readers,
    indexed_at = excluded.indexed_at
"""


def _document_row(document: Document, chunk_count: int) -> tuple[Any, ...]:
    from psycopg.types.json import Jsonb

    d = document
    meta = Jsonb(json_data(d.meta, f"document {d.id!r} has meta that is not JSON data", d.uri))
    # Readers known to be none are stored as an empty list, which no one's principals overlap.
    readers = None if d.readers is None else list(d.readers)
    return (d.id, d.uri, d.name, d.mime_type, d.modified, d.version, d.title, meta, chunk_count, readers)


def _sql(template: str, *names: Any) -> Any:
    from psycopg import sql

    return sql.SQL(template).format(*names)


def _reason(exc: BaseException) -> str:
    """The server's or libpq's first line: enough to act on, and no connection string in it."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _client() -> Any:
    try:
        import pgvector.psycopg  # noqa: F401
        import psycopg
    except ImportError as exc:
        raise SinkError(
            f"the pgvector sink needs psycopg and pgvector ({exc}): pip install 'ingest[pgvector]'", "sink.pgvector"
        ) from exc
    return psycopg


def open_sink(options: PgvectorOptions) -> PgvectorSink:
    """What `sink: {pgvector: {...}}` opens: the sink with the embedder its options name (the job's
    `embedder:`, given to the options by `plugin_stages.with_job_embedder`), the default (minilm) if none."""
    from ..embedders import EmbedderConfig, load

    return PgvectorSink(options, load(options.embedder or EmbedderConfig()))
