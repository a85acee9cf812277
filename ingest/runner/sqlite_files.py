"""What every ingest SQLite file checks when it opens: that it is the kind of file it should be
(an application id per kind) at the schema version this ingest reads, or empty and ready to be
created. The index and the state database share this; only their words and schemas differ."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DamagedDatabase, IngestError
from .machine_faults import sqlite_advice


@dataclass(frozen=True, slots=True)
class FileKind:
    noun: str
    """What the file is called in messages: "index", "state database"."""
    application_id: int
    version: int
    error: type[IngestError]
    older: str
    """What to do with a file of an older schema."""
    newer: str
    """What to do with a file written by a newer ingest."""
    other: str
    """What to do with an ingest file of another kind (e.g. the index given as the state)."""
    empty: str = ""
    """Why an empty file is an error when it may not be created here; unused when it may."""
    damaged: str = "Restore it from a backup, or move it away and run again to rebuild it."
    """What to do with a file SQLite reports damaged."""


class transaction:
    """BEGIN ... COMMIT, or ROLLBACK on any exception (the connection is in autocommit mode)."""

    def __init__(self, conn: sqlite3.Connection, *, immediate: bool = True) -> None:
        self.conn, self.immediate = conn, immediate

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE" if self.immediate else "BEGIN")
        return self.conn

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


CHECK_EVERY_RUN_BYTES = 256 * 1024 * 1024
"""Files up to this size are checked for damage at every open (about 10 ms a megabyte, measured);
larger ones once a day, and any of them whenever SQLite reports damage mid-run."""
CHECK_EVERY_S = 24 * 3600

BUSY_TIMEOUT_S = 30.0
"""How long a statement waits for another connection's lock before "database is locked"."""


def open_error(exc: sqlite3.Error, path: Path, kind: FileKind) -> IngestError:
    """The error to raise when `path` cannot be opened as `kind`: the machine's cause and what to do
    when SQLite names one (locked, read-only, full), else a file that is not what it should be."""
    if is_damage(exc):
        return damaged(path, kind, str(exc))
    advice = sqlite_advice(exc)
    if advice is not None:
        cause, todo = advice
        return kind.error(f"cannot open the {kind.noun}: {cause} ({exc}); {todo}", path)
    return kind.error(f"cannot be read as an ingest {kind.noun} ({exc}); check it is the right file", path)


def is_damage(exc: sqlite3.Error) -> bool:
    """SQLite's words for a damaged file (as opposed to a locked, full or read-only one). "file is
    not a database" is left out: it is what a wrong file (a text file given as the index) says."""
    text = str(exc).lower()
    return "malformed" in text or "corrupt" in text


def damaged(path: Path, kind: FileKind, detail: str) -> DamagedDatabase:
    return DamagedDatabase(
        f"the {kind.noun} is damaged ({detail}); ingest stopped before writing more into it. {kind.damaged}", path
    )


def check_integrity(
    conn: sqlite3.Connection, path: Path, kind: FileKind, meta_table: str, *, force: bool = False
) -> None:
    """`PRAGMA quick_check` on the file (see `CHECK_EVERY_RUN_BYTES`); raise `DamagedDatabase`
    naming it and what to do when it is not ok."""
    now = time.time()
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    try:
        if not force and size > CHECK_EVERY_RUN_BYTES:
            row = conn.execute(f"SELECT value FROM {meta_table} WHERE key = 'checked_at'").fetchone()
            if row is not None and now - float(row[0]) < CHECK_EVERY_S:
                return
        rows = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            raise damaged(path, kind, str(exc)) from exc
        raise
    if rows != ["ok"]:
        raise damaged(path, kind, "; ".join(rows[:3]))
    if size > CHECK_EVERY_RUN_BYTES:
        conn.execute(f"INSERT OR REPLACE INTO {meta_table} (key, value) VALUES ('checked_at', ?)", (str(now),))


def check_schema(
    conn: sqlite3.Connection, path: Path, kind: FileKind, create: Callable[[sqlite3.Connection], None] | None
) -> None:
    """Create the schema in an empty file (if `create` is given), or check the file is `kind` at
    its version; anything else raises `kind.error` naming the file and what to do. A file opened
    to write is switched to WAL, so readers never wait for a run's writes."""
    try:
        if create is not None:
            conn.execute("PRAGMA journal_mode = WAL")
        with transaction(conn, immediate=create is not None):  # two processes creating: one wins
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if app_id == 0 and version == 0:
                tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                if tables:
                    raise kind.error(
                        f"is an SQLite database but not an ingest {kind.noun} (it has tables "
                        f"{', '.join(tables[:5])}); point the {kind.noun} at a new file",
                        path,
                    )
                if create is None:
                    raise kind.error(f"is empty, not an ingest {kind.noun}; {kind.empty}", path)
                create(conn)
                conn.execute(f"PRAGMA application_id = {kind.application_id}")
                conn.execute(f"PRAGMA user_version = {kind.version}")
                return
    except sqlite3.DatabaseError as exc:
        raise open_error(exc, path, kind) from exc
    if app_id != kind.application_id:
        raise kind.error(f"is not an ingest {kind.noun} (application_id {app_id:#x}); {kind.other}", path)
    if version > kind.version:
        raise kind.error(
            f"was written by a newer ingest ({kind.noun} schema {version}; this ingest reads "
            f"{kind.version}); {kind.newer}",
            path,
        )
    if version < kind.version:
        raise kind.error(f"has {kind.noun} schema {version} but this ingest needs {kind.version}; {kind.older}", path)
