"""What every ingest SQLite file checks when it opens: that it is the kind of file it should be
(an application id per kind) at the schema version this ingest reads, or empty and ready to be
created. The index and the state database share this; only their words and schemas differ."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .errors import IngestError
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


BUSY_TIMEOUT_S = 30.0
"""How long a statement waits for another connection's lock before "database is locked"."""


def open_error(exc: sqlite3.Error, path: Path, kind: FileKind) -> IngestError:
    """The error to raise when `path` cannot be opened as `kind`: the machine's cause and what to do
    when SQLite names one (locked, read-only, full), else a file that is not what it should be."""
    advice = sqlite_advice(exc)
    if advice is not None:
        cause, todo = advice
        return kind.error(f"cannot open the {kind.noun}: {cause} ({exc}); {todo}", path)
    return kind.error(f"cannot be read as an ingest {kind.noun} ({exc}); check it is the right file", path)


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
