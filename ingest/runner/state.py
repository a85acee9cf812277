"""What each run saw: per source and document the version stored, its content hash, how to tell
it changed (fingerprint), and whether the last attempt failed; per source, the change cursor.

A separate SQLite file from the index, so the index can be rebuilt or thrown away on its own. Every
call commits, unless `batching()`: then writes gather in one transaction until `commit()`, which
the pipeline calls only after making the sink durable. A crash loses at most the uncommitted batch
of records, whose documents are already in the sink: the next run processes them again, writing
the same chunks (the state always trails the sink, never leads it).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Literal

from ..errors import StateError
from . import sqlite_files
from .machine_faults import sqlite_advice
from .sqlite_files import FileKind, check_integrity, check_schema, damaged, is_damage, open_error, transaction

SCHEMA_VERSION = 1
"""Stored in `PRAGMA user_version`; bump it (and say how to migrate) when the tables change."""
APPLICATION_ID = 0x696E5354  # "inST": tells the state DB from the index or a stranger's DB

_SCHEMA = (
    """
    CREATE TABLE documents (
        source       TEXT NOT NULL,
        doc_id       TEXT NOT NULL,
        version      TEXT NOT NULL,     -- of the last version stored in the sink ("" if none)
        content_hash TEXT NOT NULL,     -- of the last version stored in the sink ("" if none)
        fingerprint  TEXT NOT NULL,     -- of the last version seen, stored or failed
        status       TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
        last_error   TEXT NOT NULL,
        chunk_count  INTEGER NOT NULL,  -- in the sink
        name         TEXT NOT NULL,
        uri          TEXT NOT NULL,
        updated_at   TEXT NOT NULL,     -- ISO-8601, UTC
        PRIMARY KEY (source, doc_id)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE cursors (
        source     TEXT PRIMARY KEY,
        cursor     TEXT,
        updated_at TEXT NOT NULL
    )
    """,
)

_REMOVALS = """
    CREATE TABLE IF NOT EXISTS cleaner_removals (
        source  TEXT NOT NULL,
        doc_id  TEXT NOT NULL,
        cleaner TEXT NOT NULL,
        blocks  INTEGER NOT NULL,   -- blocks the cleaner removed from the last version stored
        chars   INTEGER NOT NULL,   -- characters it removed (net: negative if it added text)
        PRIMARY KEY (source, doc_id, cleaner)
    ) WITHOUT ROWID
"""
"""Added beside the schema-1 tables, not in them: a state file from before gains it on open, and
an older ingest reading a newer file ignores it."""

_META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
"""What the state says about itself: the `index_id` it feeds, a reconcile still due."""

_COLUMNS = "source, doc_id, version, content_hash, fingerprint, status, last_error, chunk_count, name, uri, updated_at"


@dataclass(frozen=True, slots=True)
class DocState:
    """One document as the state remembers it."""

    source: str
    doc_id: str
    version: str
    """Version of the last copy stored in the sink; kept when a later attempt fails."""
    content_hash: str
    """Content hash of the last copy stored in the sink; kept when a later attempt fails."""
    fingerprint: str
    """Cheap change signal of the last version seen ("size:mtime_ns" locally, Drive's version)."""
    status: Literal["ok", "failed"]
    last_error: str
    """Empty when `status` is "ok"."""
    chunk_count: int
    name: str
    uri: str
    updated_at: str

    @property
    def failed(self) -> bool:
        return self.status == "failed"


class StateStore:
    """The state database at `path` (created, with its folder, if missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._batching = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn: sqlite3.Connection | None = sqlite3.connect(
                self.path, isolation_level=None, timeout=sqlite_files.BUSY_TIMEOUT_S
            )
        except OSError as exc:
            raise StateError(
                f"cannot open the state database ({exc}); check the path and its permissions", self.path
            ) from exc
        except sqlite3.Error as exc:
            raise open_error(exc, self.path, _STATE) from exc
        try:
            check_schema(self._live(), self.path, _STATE, _create)
            self._execute(_REMOVALS, ())
            self._execute(_META, ())  # added after schema 1 shipped: older state files gain it on open
            check_integrity(self._live(), self.path, _STATE, "meta")
        except BaseException:
            self.close()
            raise

    def get(self, source: str, doc_id: str) -> DocState | None:
        row = self._query(f"SELECT {_COLUMNS} FROM documents WHERE source = ? AND doc_id = ?", (source, doc_id))
        return DocState(*row[0]) if row else None

    def known(self, source: str) -> dict[str, DocState]:
        rows = self._query(f"SELECT {_COLUMNS} FROM documents WHERE source = ? ORDER BY doc_id", (source,))
        return {row[1]: DocState(*row) for row in rows}

    def known_any(self) -> bool:
        return bool(self._query("SELECT 1 FROM documents LIMIT 1", ()))

    def record_ok(
        self,
        source: str,
        doc_id: str,
        *,
        version: str,
        content_hash: str,
        fingerprint: str,
        chunk_count: int,
        name: str,
        uri: str,
    ) -> None:
        self._execute(
            f"INSERT OR REPLACE INTO documents ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, 'ok', '', ?, ?, ?, ?)",
            (source, doc_id, version, content_hash, fingerprint, chunk_count, name, uri, _now()),
        )

    def record_failure(self, source: str, doc_id: str, *, error: str, fingerprint: str, name: str, uri: str) -> None:
        """Mark the document failed so the next run retries it, keeping what the sink still holds
        (version, content hash, chunk count of the last good copy)."""
        self._execute(
            f"""
            INSERT INTO documents ({_COLUMNS}) VALUES (?, ?, '', '', ?, 'failed', ?, 0, ?, ?, ?)
            ON CONFLICT (source, doc_id) DO UPDATE SET
                fingerprint = excluded.fingerprint, status = 'failed', last_error = excluded.last_error,
                name = excluded.name, uri = excluded.uri, updated_at = excluded.updated_at
            """,
            (source, doc_id, fingerprint, error, name, uri, _now()),
        )

    def forget(self, source: str, doc_id: str) -> None:
        self._execute("DELETE FROM documents WHERE source = ? AND doc_id = ?", (source, doc_id))
        self._execute("DELETE FROM cleaner_removals WHERE source = ? AND doc_id = ?", (source, doc_id))

    def record_removals(self, source: str, doc_id: str, cleaned: dict[str, dict[str, float]]) -> None:
        """What each cleaner removed from the version just stored (replacing the last version's)."""
        self._execute("DELETE FROM cleaner_removals WHERE source = ? AND doc_id = ?", (source, doc_id))
        for cleaner, counts in cleaned.items():
            self._execute(
                "INSERT INTO cleaner_removals VALUES (?, ?, ?, ?, ?)",
                (source, doc_id, cleaner, int(counts.get("blocks", 0)), int(counts.get("chars", 0))),
            )

    def removals(self, source: str, doc_id: str) -> dict[str, tuple[int, int]]:
        """Cleaner name to (blocks, characters) it removed from the stored version."""
        rows = self._query(
            "SELECT cleaner, blocks, chars FROM cleaner_removals WHERE source = ? AND doc_id = ?", (source, doc_id)
        )
        return {cleaner: (blocks, chars) for cleaner, blocks, chars in rows}

    def get_meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str | None) -> None:
        if value is None:
            self._execute("DELETE FROM meta WHERE key = ?", (key,))
        else:
            self._execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def pair_with(self, index_id: str, *, reset: bool) -> None:
        """Record that this state feeds the index `index_id`, in one transaction; `reset` also forgets
        every document and cursor (they describe another index) and marks a reconcile as due."""
        with transaction(self._live()):
            if reset:
                self._execute("DELETE FROM documents", ())
                self._execute("DELETE FROM cursors", ())
            self.set_meta("index_id", index_id)
            self.set_meta("reconcile", "due")

    def get_cursor(self, source: str) -> str | None:
        rows = self._query("SELECT cursor FROM cursors WHERE source = ?", (source,))
        return rows[0][0] if rows else None

    def set_cursor(self, source: str, cursor: str | None) -> None:
        self._execute(
            "INSERT OR REPLACE INTO cursors (source, cursor, updated_at) VALUES (?, ?, ?)", (source, cursor, _now())
        )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> StateStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _live(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StateError("the state store is closed; open a new StateStore", self.path)
        return self._conn

    def _query(self, sql: str, params: tuple[object, ...]) -> list[tuple]:
        try:
            return self._live().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            if is_damage(exc):
                raise damaged(self.path, _STATE, str(exc)) from exc
            raise StateError(f"cannot read the state database ({exc}){_advice(exc)}", self.path) from exc

    @contextmanager
    def batching(self) -> Iterator[StateStore]:
        """Writes inside gather in one transaction until `commit()`; what is not committed when the
        block ends is rolled back (the caller commits once the sink is durable)."""
        self._batching = True
        try:
            yield self
        finally:
            self._batching = False
            if self._conn is not None and self._conn.in_transaction:
                self._conn.execute("ROLLBACK")  # not committed: records trail the sink, as after a crash

    def commit(self) -> None:
        conn = self._live()
        if conn.in_transaction:
            try:
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                raise StateError(f"cannot update the state database ({exc}){_advice(exc)}", self.path) from exc

    @property
    def pending(self) -> bool:
        """Writes wait in an uncommitted batch."""
        return self._conn is not None and self._conn.in_transaction

    def _execute(self, sql: str, params: tuple[object, ...]) -> None:
        try:
            conn = self._live()
            if self._batching and not conn.in_transaction:
                conn.execute("BEGIN IMMEDIATE")
            conn.execute(sql, params)  # autocommit unless batching: one statement, one transaction
        except sqlite3.Error as exc:
            if is_damage(exc):
                raise damaged(self.path, _STATE, str(exc)) from exc
            raise StateError(f"cannot update the state database ({exc}){_advice(exc)}", self.path) from exc


_STATE = FileKind(
    noun="state database",
    application_id=APPLICATION_ID,
    version=SCHEMA_VERSION,
    error=StateError,
    older="delete it (the next run re-processes every document)",
    newer="upgrade ingest, or use another state file (which re-processes every document)",
    other="is it the index? Point the state at its own file",
    damaged="Move it (with its -wal and -shm files) away and run again: a new state re-processes every document "
    "and reconciles the index with the source",
)


def _create(conn: sqlite3.Connection) -> None:
    for statement in _SCHEMA:
        conn.execute(statement)


def _advice(exc: sqlite3.Error) -> str:
    found = sqlite_advice(exc)
    return f": {found[0]}; {found[1]}" if found else ""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
