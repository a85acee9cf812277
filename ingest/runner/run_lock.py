"""One run at a time per state database: an exclusive lock on `<state>.lock`.

The lock is the kernel's (`flock`), so it goes with the process that holds it, however that
process ends: a lock file left by a run that was killed is free, and the next run takes it over
without anyone deleting anything. The file also holds the holder's pid, host and start time, so a
second run can say who it is waiting for.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import IngestError, LockHeld


@dataclass(frozen=True, slots=True)
class Holder:
    pid: int
    host: str
    since: str
    """When the holder took the lock, ISO-8601 UTC."""

    def __str__(self) -> str:
        return f"pid {self.pid} on {self.host}, since {self.since}"


_HELD: set[int] = set()
"""Lock file descriptors this process holds."""


def _close_in_child() -> None:
    # A forked worker gets a copy of the descriptor, which would keep the lock held for as long as
    # the worker lives; closing the copy leaves the parent's lock as it is.
    for fd in _HELD:
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


os.register_at_fork(after_in_child=_close_in_child)


class RunLock:
    """Hold with `with RunLock(state_path, wait=...)`; released on exit (or when the process dies)."""

    def __init__(
        self, state: Path, *, wait: bool = False, on_wait: Callable[[Holder | None], None] | None = None
    ) -> None:
        self.path = Path(f"{state}.lock")
        self.wait = wait
        self.on_wait = on_wait
        self._fd: int | None = None

    def __enter__(self) -> RunLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise IngestError(
                f"cannot create the run lock ({exc.strerror}); check the state folder is writable", self.path
            ) from exc
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = read_holder(self.path)
                if not self.wait:
                    raise LockHeld(
                        f"another ingest run holds this state ({holder or 'holder unknown'}); it ends on its own, "
                        "or run with --wait to start when it does",
                        self.path,
                    ) from None
                if self.on_wait:
                    self.on_wait(holder)
                fcntl.flock(fd, fcntl.LOCK_EX)  # a signal handler that raises interrupts this wait
            record = {
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(record).encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        _HELD.add(fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            _HELD.discard(self._fd)
            try:
                os.ftruncate(self._fd, 0)  # the file stays (unlinking races a waiter); its holder goes
            finally:
                os.close(self._fd)  # closing releases the flock
                self._fd = None


def read_holder(path: Path) -> Holder | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8") or "null")
        return Holder(int(record["pid"]), str(record["host"]), str(record["since"]))
    except (OSError, ValueError, TypeError, KeyError):
        return None
