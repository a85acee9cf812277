"""SIGTERM and SIGINT as a request to stop, answered where stopping leaves nothing half-done.

The first signal sets a flag that the pipeline checks between documents (and the worker pool
while it waits), so what was committed stays committed and the rest waits for the next run. Where
there is nothing to lose -- waiting for the lock, sleeping between `--every` runs, a document
being parsed in this process -- it raises `Stopped` at once. A second signal raises anywhere:
someone means it.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import Stopped

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StopRequest:
    def __init__(self) -> None:
        self.signum: int | None = None
        self._abandonable = 0

    @property
    def requested(self) -> bool:
        return self.signum is not None

    def check(self) -> None:
        """Raise `Stopped` if a stop was asked for."""
        if self.signum is not None:
            raise Stopped(self.signum)

    @contextmanager
    def installed(self) -> Iterator[StopRequest]:
        """Answer SIGTERM and SIGINT while inside; the previous handlers come back on exit."""
        if threading.current_thread() is not threading.main_thread():
            yield self  # signals reach only the main thread; a caller elsewhere keeps its own handling
            return
        previous = {s: signal.signal(s, self._handle) for s in SIGNALS}
        try:
            yield self
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)

    @contextmanager
    def abandonable(self) -> Iterator[None]:
        """Inside, a signal raises `Stopped` at once: nothing in here is worth finishing."""
        self.check()
        self._abandonable += 1
        try:
            yield
        finally:
            self._abandonable -= 1

    def sleep(self, seconds: float) -> None:
        with self.abandonable():
            time.sleep(seconds)

    def _handle(self, signum: int, frame: object) -> None:
        if self.signum is not None:  # a second signal stops at once, as the first
            raise Stopped(self.signum)
        self.signum = signum
        if self._abandonable:
            raise Stopped(signum)


NEVER = StopRequest()
"""For callers that install no handlers: never asked to stop."""
