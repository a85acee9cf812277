"""FakeGoogle: the store and endpoints served on 127.0.0.1, with request logs and fault injection."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from typing import Any, Self

from .comments import Comments
from .docs_api import DocsEndpoints
from .drive_api import DriveEndpoints
from .errors import Fault
from .handler import Recorded, make_handler
from .sharing import Sharing
from .store import DriveStore


class FakeGoogle(DriveStore, DriveEndpoints, DocsEndpoints, Comments, Sharing):
    """The fake's state and control API; `start()` serves it on 127.0.0.1 (a free port)."""

    def __init__(
        self,
        *,
        token: str = "test-token",
        cascade_trash_changes: bool = False,
        comment_changes: bool = True,
        latency: float = 0.0,
    ) -> None:
        super().__init__(cascade_trash_changes=cascade_trash_changes, comment_changes=comment_changes)
        self.token = token
        self.latency = latency
        """Seconds every request waits before it is answered (a round trip to Google), for benchmarks."""
        self._headers = threading.local()  # the request being served, for resource keys
        self.requests: list[tuple[str, str]] = []
        self.log: list[Recorded] = []
        self._faults: list[Fault] = []
        self._connections: set[socket.socket] = set()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle

    def start(self, port: int = 0) -> FakeGoogle:
        """Serve on 127.0.0.1:`port` (0: a free one)."""
        self._server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(self))
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.drive_endpoint = self.base_url + "/drive/v3/"
        self.docs_endpoint = self.base_url + "/"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.02,), name="fake-google", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
            with self._lock:  # kept-alive client connections would otherwise hold their threads
                for conn in list(self._connections):
                    try:
                        conn.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ fault injection

    def fail(
        self,
        path_pattern: str,
        status: int | None = 500,
        *,
        times: int = 1,
        reason: str | None = None,
        drop: bool = False,
        retry_after: str | None = None,
        error_info: str | None = None,
    ) -> None:
        """The next `times` requests whose `path?query` matches the regex (re.search) get `status` with
        Google's error JSON, or, with drop=True, a closed connection and no answer at all. With
        `error_info` the answer is AIP-193's shape (`status` word, an ErrorInfo detail with that
        reason, e.g. RATE_LIMIT_EXCEEDED); `retry_after` adds a Retry-After header."""
        with self._lock:
            self._faults.append(Fault(re.compile(path_pattern), status, times, reason, drop, retry_after, error_info))

    def _take_fault(self, target: str) -> Fault | None:
        with self._lock:
            for fault in self._faults:
                if fault.times > 0 and fault.pattern.search(target):
                    fault.times -= 1
                    return fault
        return None


# ---------------------------------------------------------------- pytest


def fake_google_server(**options: Any) -> Iterator[FakeGoogle]:
    """A fixture body: `yield from fake_google_server()` serves a fresh fake for one test."""
    fake = FakeGoogle(**options).start()
    try:
        yield fake
    finally:
        fake.stop()
