"""Failures that are the machine's, not the document's: a full disk, a locked or read-only
database, memory, a time limit, a lost worker. They say nothing about the document, so the state
records them to be tried again on the next run, without waiting for an edit."""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator

from ..errors import DocumentTimeout, SinkUnreachable, WorkerCrash

_OS_CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EIO: "an input/output error (a failing disk or a dropped network share)",
    errno.ENOMEM: "out of memory",
    errno.EMFILE: "too many open files",
    errno.ENFILE: "too many open files",
}


def machine_fault(exc: BaseException) -> str | None:
    """The machine's part in `exc` (following its causes), in words; None if it is the document's."""
    for e in _chain(exc):
        if isinstance(e, (DocumentTimeout, WorkerCrash)):
            return "time limit" if isinstance(e, DocumentTimeout) else "worker lost"
        if isinstance(e, SinkUnreachable):
            return "the database server cannot be reached"
        if isinstance(e, MemoryError):
            return "out of memory"
        if isinstance(e, sqlite3.OperationalError):
            cause = sqlite_cause(e)
            if cause:
                return cause
        if isinstance(e, OSError) and e.errno in _OS_CAUSES:
            return _OS_CAUSES[e.errno]
    return None


_SQLITE_CAUSES = (
    (("full",), "the disk is full", "make room on that disk; the next run goes on where this one stopped"),
    (
        ("locked", "busy"),
        "another program holds the database locked",
        "close the program holding it (a database browser, a backup, a second ingest on another state) or try later",
    ),
    (
        ("readonly", "read-only"),
        "the file or its folder is read-only",
        "make the file and its folder writable (SQLite writes -wal and -shm files beside it)",
    ),
    (("unable to open",), "the file cannot be opened", "check its folder exists and is writable by this user"),
    (("disk i/o",), "an input/output error", "check the disk or the network share it is on"),
)


def sqlite_cause(exc: sqlite3.Error) -> str | None:
    """What an SQLite error says about the machine, in words; None when it says nothing."""
    found = _sqlite(exc)
    return found[1] if found else None


def sqlite_advice(exc: sqlite3.Error) -> tuple[str, str] | None:
    """(cause, what to do) for an SQLite error caused by the machine; None otherwise."""
    found = _sqlite(exc)
    return found[1:] if found else None


def _sqlite(exc: sqlite3.Error) -> tuple | None:
    text = str(exc).lower()
    return next((entry for entry in _SQLITE_CAUSES if any(word in text for word in entry[0])), None)


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__
