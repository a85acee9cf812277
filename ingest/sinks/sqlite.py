"""The embedded index: documents and chunks in one SQLite file, with an FTS5 table for search.

Each `write` is one transaction that deletes the document's chunks and inserts the new ones, so a
reader (or a crash) sees either the old chunks or the new, never a mix. WAL mode lets `search` read
while a run writes.

The FTS5 table is external-content (it indexes `chunks.heading` and `chunks.text` without storing
them twice) and triggers keep it in sync. Triggers rather than explicit inserts from Python: every
path that changes `chunks` (replace, delete, a future migration or a hand-run SQL fix) updates the
index in the same transaction, and nothing can forget to.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Collection, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..blocks import Chunk, Document
from ..errors import SinkError
from ..runner import sqlite_files
from ..runner.sqlite_files import FileKind, check_integrity, check_schema, damaged, is_damage, open_error, transaction
from . import Sink
from .chunk_rows import JSON_FIELDS, STORED_FIELDS, chunk_values, json_data, row_chunk, select_list

if TYPE_CHECKING:
    from ..embedders import ChunkVectors
    from ..search.ann import AnnMode, Refreshed

SCHEMA_VERSION = 2
"""Stored in `PRAGMA user_version`; bump it (and say how to migrate) when the tables change.
2: chunks.url and the readers table (an index of schema 1 is rebuilt: delete it and its state, and run)."""
APPLICATION_ID = 0x696E6458  # "inDX": tells an ingest index from the state DB or a stranger's DB
FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"
"""The FTS5 tokenizer of `chunks_fts` (a search cuts its query words with the same one)."""

_SCHEMA = f"""
CREATE TABLE documents (
    id          TEXT PRIMARY KEY,
    uri         TEXT NOT NULL,
    name        TEXT NOT NULL,
    mime_type   TEXT NOT NULL,
    modified    TEXT NOT NULL,
    version     TEXT NOT NULL,
    title       TEXT NOT NULL,
    meta        TEXT NOT NULL,          -- JSON object
    chunk_count INTEGER NOT NULL,
    indexed_at  TEXT NOT NULL           -- ISO-8601, UTC
);
CREATE TABLE chunks (
    seq            INTEGER PRIMARY KEY, -- stable rowid the FTS table points at
    id             TEXT NOT NULL UNIQUE,
    doc_id         TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    chunk_index    INTEGER NOT NULL,
    text           TEXT NOT NULL,
    heading_path   TEXT NOT NULL,       -- JSON array
    heading        TEXT NOT NULL,       -- the same path joined with " > ", for FTS and display
    kinds          TEXT NOT NULL,       -- JSON array
    token_count    INTEGER NOT NULL,
    overlap_tokens INTEGER NOT NULL,
    "start"        INTEGER,
    "end"          INTEGER,
    page_start     INTEGER,
    page_end       INTEGER,
    meta           TEXT NOT NULL,       -- JSON object
    url            TEXT NOT NULL DEFAULT '', -- opens the place the chunk came from ('' if none)
    UNIQUE (doc_id, chunk_index)
);
CREATE TABLE readers (                  -- who may open a document; a document without rows: anyone
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    reader TEXT NOT NULL,               -- user:a@x, group:g@x, domain:x, anyone; '' = none known
    PRIMARY KEY (doc_id, reader)
) WITHOUT ROWID;
CREATE INDEX readers_by_reader ON readers(reader, doc_id);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    heading, text,
    content='chunks', content_rowid='seq',
    tokenize='{FTS_TOKENIZE}'
);
CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, heading, text) VALUES (new.seq, new.heading, new.text);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, heading, text) VALUES ('delete', old.seq, old.heading, old.text);
END;
CREATE TRIGGER chunks_fts_update AFTER UPDATE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, heading, text) VALUES ('delete', old.seq, old.heading, old.text);
    INSERT INTO chunks_fts(rowid, heading, text) VALUES (new.seq, new.heading, new.text);
END;
"""

_META = "CREATE TABLE IF NOT EXISTS ingest_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
"""What the index says about itself: its `index_id`, when it was last checked for damage, and
(`embedder:NAME`) the config that opens each embedder its vectors were made with."""

_VECTORS = """
CREATE TABLE IF NOT EXISTS chunk_vectors (
    seq      INTEGER PRIMARY KEY,       -- the chunk's chunks.seq
    embedder TEXT NOT NULL,             -- Embedder.name
    hash     TEXT NOT NULL,             -- text_hash of the chunk's embed_text: the cache key
    vector   BLOB NOT NULL              -- float32, native byte order, unit length
);
CREATE INDEX IF NOT EXISTS chunk_vectors_by_hash ON chunk_vectors(hash, embedder);
CREATE TRIGGER IF NOT EXISTS chunk_vectors_delete AFTER DELETE ON chunks BEGIN
    DELETE FROM chunk_vectors WHERE seq = old.seq;
END;
"""
"""Vectors beside the chunks (vector and hybrid search). A trigger deletes a chunk's vector with
it, in the same transaction, whichever path deletes the chunk. Created on open, as `ingest_meta`:
an index made before vectors gains the table without a new schema version."""

_ANN_PENDING = """
CREATE TABLE IF NOT EXISTS ann_pending (seq INTEGER PRIMARY KEY);
CREATE TRIGGER IF NOT EXISTS chunk_vectors_ann_insert AFTER INSERT ON chunk_vectors BEGIN
    INSERT OR IGNORE INTO ann_pending (seq) VALUES (new.seq);
END;
CREATE TRIGGER IF NOT EXISTS chunk_vectors_ann_delete AFTER DELETE ON chunk_vectors BEGIN
    INSERT OR IGNORE INTO ann_pending (seq) VALUES (old.seq);
END;
CREATE TRIGGER IF NOT EXISTS chunk_vectors_ann_update AFTER UPDATE ON chunk_vectors BEGIN
    INSERT OR IGNORE INTO ann_pending (seq) VALUES (old.seq);
    INSERT OR IGNORE INTO ann_pending (seq) VALUES (new.seq);
END;
"""
"""The seqs whose vectors changed since the HNSW file beside the index (`search/ann.py`) was last
brought up to date: it is updated from these alone, and a search trusts it only when there are
none. Triggers, as for `chunk_vectors`: whichever path changes a vector, it is recorded. Created on
open with the vectors' table, so an older index gains it."""

CHUNK_COLUMNS = select_list(lambda name: f'"{name}"')
"""The columns `chunk_from_row` turns back into a `Chunk`, from `chunks AS c` and `documents AS d`."""
CHUNK_SELECT = f"SELECT {CHUNK_COLUMNS} FROM chunks AS c JOIN documents AS d ON d.id = c.doc_id"

_INSERT_CHUNK = f"""
INSERT INTO chunks ({", ".join(f'"{name}"' for name in STORED_FIELDS)})
VALUES ({", ".join("?" * len(STORED_FIELDS))})
"""
_JSON_FIELDS = tuple(STORED_FIELDS.index(name) for name in JSON_FIELDS)
"""The `STORED_FIELDS` the SQLite index keeps as JSON text."""
_UPSERT_DOCUMENT = """
INSERT INTO documents (id, uri, name, mime_type, modified, version, title, meta, chunk_count, indexed_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(id) DO UPDATE SET
    uri = excluded.uri, name = excluded.name, mime_type = excluded.mime_type,
    modified = excluded.modified, version = excluded.version, title = excluded.title,
    meta = excluded.meta, chunk_count = excluded.chunk_count, indexed_at = excluded.indexed_at
"""


class SqliteSink(Sink):
    """Writes documents and their chunks to the SQLite index at `path` (created if missing).

    `ann`: when to keep an HNSW index of the vectors beside it (`search/ann.py`), brought up to
    date when the sink closes (not when it closes on an exception: the next run does it then)."""

    def __init__(self, path: str | Path, ann: AnnMode = "auto") -> None:
        self.path = Path(path)
        self.ann: AnnMode = ann
        self._conn: sqlite3.Connection | None = connect_index(self.path, create=True)

    def write(self, document: Document, chunks: Sequence[Chunk], vectors: ChunkVectors | None = None) -> None:
        """`vectors`: the chunks' vectors (`embed_chunks`), stored in the same transaction."""
        conn = self._live()
        chunks = list(chunks)
        if vectors is not None and len(vectors.hashes) != len(chunks):
            raise SinkError(f"{len(vectors.hashes)} vectors for the {len(chunks)} chunks of {document.id!r}", self.path)
        # Rows are serialised lazily inside the transaction: a chunk that cannot be stored rolls
        # back the delete of the old chunks too.
        rows = (_chunk_row(document, chunk) for chunk in chunks)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(_UPSERT_DOCUMENT, _document_row(document, len(chunks)))
            conn.execute("DELETE FROM chunks WHERE doc_id = ?", (document.id,))
            conn.executemany(_INSERT_CHUNK, rows)
            if vectors is not None:
                _write_vectors(conn, document, chunks, vectors)
            _write_readers(conn, document)
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.IntegrityError):
                raise SinkError(
                    f"document {document.id!r} has two chunks with the same id or chunk_index ({exc}); "
                    "its previous chunks are kept. This is a chunker bug: please report it",
                    self.path,
                ) from exc
            if isinstance(exc, sqlite3.Error) and is_damage(exc):
                raise damaged(self.path, _INDEX, str(exc)) from exc
            if isinstance(exc, sqlite3.Error):
                raise SinkError(
                    f"could not write document {document.id!r} ({exc}); its previous chunks are kept",
                    self.path,
                ) from exc
            raise

    def withhold(self, doc_id: str, readers: tuple[str, ...]) -> None:
        """As `ReadersSink.withhold`."""
        conn = self._live()
        try:
            with transaction(conn):
                if conn.execute("SELECT 1 FROM readers WHERE doc_id = ? LIMIT 1", (doc_id,)).fetchone():
                    conn.execute("DELETE FROM readers WHERE doc_id = ?", (doc_id,))
                    conn.executemany(
                        "INSERT INTO readers (doc_id, reader) VALUES (?, ?)", [(doc_id, r) for r in readers or ("",)]
                    )
        except sqlite3.Error as exc:
            if is_damage(exc):
                raise damaged(self.path, _INDEX, str(exc)) from exc
            raise SinkError(f"could not change who may read document {doc_id!r} ({exc})", self.path) from exc

    def delete(self, doc_id: str) -> None:
        conn = self._live()
        try:
            with transaction(conn):
                conn.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
                conn.execute("DELETE FROM readers WHERE doc_id = ?", (doc_id,))
                conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
        except sqlite3.Error as exc:
            if is_damage(exc):
                raise damaged(self.path, _INDEX, str(exc)) from exc
            raise SinkError(f"could not delete document {doc_id!r} ({exc})", self.path) from exc

    def cached_vectors(self, embedder: str, hashes: Collection[str]) -> dict[str, Any]:
        """The stored vector of each text hash the index has one for, made by `embedder`."""
        import numpy as np

        try:
            rows = self._live().execute(
                "SELECT hash, vector FROM chunk_vectors WHERE embedder = ? AND hash IN (SELECT value FROM json_each(?)) "
                "GROUP BY hash",
                (embedder, json.dumps(sorted(hashes))),
            )
            return {h: np.frombuffer(blob, dtype=np.float32) for h, blob in rows}
        except sqlite3.Error as exc:
            raise SinkError(f"cannot read stored vectors ({exc})", self.path) from exc

    def record_embedder(self, name: str, spec: Mapping[str, Any]) -> None:
        """Remember how to open the embedder `name`: a search embeds its query with the same one."""
        try:
            with transaction(self._live()):
                self._live().execute(
                    "INSERT OR REPLACE INTO ingest_meta (key, value) VALUES (?, ?)",
                    (f"embedder:{name}", json.dumps(dict(spec), default=str)),
                )
        except sqlite3.Error as exc:
            raise SinkError(f"cannot record the embedder ({exc})", self.path) from exc

    def close(self) -> None:
        self._close(refresh=True)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        self._close(refresh=exc_type is None)

    def refresh_ann(self) -> Refreshed:
        """Bring the HNSW file beside the index up to date now (`close` does it too)."""
        from ..search.ann import refresh

        try:
            return refresh(self._live(), self.path, self.ann)
        except sqlite3.Error as exc:
            raise SinkError(f"cannot read the vectors for the HNSW index ({exc})", self.path) from exc

    def _close(self, *, refresh: bool) -> None:
        if self._conn is None:
            return
        try:
            if refresh:
                self.refresh_ann()
        finally:
            self._conn.close()
            self._conn = None

    def identity(self) -> str:
        conn = self._live()
        try:
            with transaction(conn):
                row = conn.execute("SELECT value FROM ingest_meta WHERE key = 'index_id'").fetchone()
                if row is None:
                    row = (uuid.uuid4().hex,)
                    conn.execute("INSERT INTO ingest_meta (key, value) VALUES ('index_id', ?)", row)
            return row[0]
        except sqlite3.Error as exc:
            raise SinkError(f"cannot read the index's id ({exc})", self.path) from exc

    def stored(self) -> dict[str, str]:
        try:
            return dict(self._live().execute("SELECT id, name FROM documents"))
        except sqlite3.Error as exc:
            raise SinkError(f"cannot list the index's documents ({exc})", self.path) from exc

    def sync(self) -> None:
        # synchronous=NORMAL leaves commits in the WAL unsynced; a checkpoint syncs the WAL first.
        try:
            self._live().execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:
            raise SinkError(f"cannot make the index durable ({exc})", self.path) from exc

    def _live(self) -> sqlite3.Connection:
        if self._conn is None:
            raise SinkError("the sink is closed; open a new SqliteSink", self.path)
        return self._conn


def connect_index(path: Path, *, create: bool) -> sqlite3.Connection:
    """Open the index, checking it is an ingest index of this schema version.

    `create=False` opens read-only and never creates anything: a missing file is an error that
    says to run `ingest run` first.
    """
    if not create and not path.is_file():
        raise SinkError("no index here; run `ingest run` first to build it", path)
    try:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, isolation_level=None, timeout=sqlite_files.BUSY_TIMEOUT_S)
        else:
            conn = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro",
                uri=True,
                isolation_level=None,
                timeout=sqlite_files.BUSY_TIMEOUT_S,
            )
    except OSError as exc:
        raise SinkError(f"cannot open the index ({exc}); check the path and its permissions", path) from exc
    except sqlite3.Error as exc:
        raise open_error(exc, path, _INDEX) from exc
    try:
        if create:
            conn.execute("PRAGMA synchronous = NORMAL")  # durable at checkpoints; safe with WAL
            conn.execute("PRAGMA foreign_keys = ON")
        check_schema(conn, path, _INDEX, _create if create else None)
        if create:  # added after schema 1 shipped: created on open, so older indexes gain it too
            conn.execute(_META)
            for statement in (*_statements(_VECTORS), *_statements(_ANN_PENDING)):
                conn.execute(statement)
            check_integrity(conn, path, _INDEX, "ingest_meta")
    except BaseException as exc:
        conn.close()
        if isinstance(exc, sqlite3.Error):
            raise open_error(exc, path, _INDEX) from exc
        raise
    return conn


_INDEX = FileKind(
    noun="index",
    application_id=APPLICATION_ID,
    version=SCHEMA_VERSION,
    error=SinkError,
    older="delete it and the state database (which would call every document unchanged), then run `ingest run`",
    newer="upgrade ingest, or build a new index in another file",
    other="is it the state database? Point the index at its own file",
    empty="run `ingest run` first to build it",
    damaged="Restore it from a backup, or move it (with its -wal and -shm files) away and run again: the index is "
    "rebuilt from the source",
)


def _create(conn: sqlite3.Connection) -> None:
    # executescript would COMMIT our transaction first; run the statements one by one instead.
    for statement in _statements(_SCHEMA):
        try:
            conn.execute(statement)
        except sqlite3.OperationalError as exc:
            if "fts5" in str(exc):
                raise SinkError("this Python's SQLite lacks FTS5; use a Python built with FTS5 (CPython's is)") from exc
            raise


def _statements(script: str) -> Iterator[str]:
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):  # knows a trigger body's ";" does not end it
            yield buffer.strip()
            buffer = ""


def _document_row(document: Document, chunk_count: int) -> tuple[Any, ...]:
    meta = json.dumps(
        json_data(document.meta, f"document {document.id!r} has meta that is not JSON data", document.uri),
        ensure_ascii=False,
    )
    indexed_at = datetime.now(UTC).isoformat(timespec="seconds")
    d = document
    return (d.id, d.uri, d.name, d.mime_type, d.modified, d.version, d.title, meta, chunk_count, indexed_at)


def _chunk_row(document: Document, chunk: Chunk) -> tuple[Any, ...]:
    """`chunk_values` with the lists and meta as JSON text, in `_INSERT_CHUNK`'s order."""
    values = list(chunk_values(document, chunk))
    for i in _JSON_FIELDS:
        values[i] = json.dumps(values[i], ensure_ascii=False)
    return tuple(values)


def _write_vectors(conn: sqlite3.Connection, document: Document, chunks: list[Chunk], vectors: ChunkVectors) -> None:
    seqs = dict(conn.execute("SELECT id, seq FROM chunks WHERE doc_id = ?", (document.id,)))
    matrix = vectors.matrix.astype("float32", copy=False)
    conn.executemany(
        "INSERT INTO chunk_vectors (seq, embedder, hash, vector) VALUES (?, ?, ?, ?)",
        (
            (seqs[c.id], vectors.embedder, h, matrix[i].tobytes())
            for i, (c, h) in enumerate(zip(chunks, vectors.hashes))
        ),
    )


def _write_readers(conn: sqlite3.Connection, document: Document) -> None:
    """The document's readers replace the ones stored; a document with readers but none known
    gets the row '', which no one matches (hidden from every filtered search)."""
    conn.execute("DELETE FROM readers WHERE doc_id = ?", (document.id,))
    if document.readers is not None:
        conn.executemany(
            "INSERT INTO readers (doc_id, reader) VALUES (?, ?)",
            [(document.id, r) for r in (document.readers or ("",))],
        )


def chunk_from_row(row: Sequence[Any]) -> Chunk:
    """The `Chunk` of one row that starts with `CHUNK_COLUMNS`."""
    return row_chunk(row, json.loads)


def read_chunks(
    conn: sqlite3.Connection, doc_id: str, first: int | None = None, last: int | None = None
) -> list[Chunk]:
    """The document's chunks with `first <= chunk_index <= last` (bounds optional), in order."""
    rows = conn.execute(
        CHUNK_SELECT + " WHERE c.doc_id = ? AND c.chunk_index >= ? AND c.chunk_index <= ? ORDER BY c.chunk_index",
        (doc_id, -(2**62) if first is None else first, 2**62 if last is None else last),
    )
    return [chunk_from_row(row) for row in rows]
