"""Requests to Google, made safely from many threads: one connection per thread, retries with
exponential back-off and jitter, and one rate gate every thread waits at.

httplib2 objects are not thread-safe; google-api-python-client's thread-safety guide says to give
each thread its own Http and pass it to the request, and that the service objects may be shared.
So the resources (`files()`, `documents()`...) are built once, which matters: building one
builds its every method and docstring (~40 ms), more than a fast round trip, while `call` runs
each request on the calling thread's own AuthorizedHttp. The client's own retries are off
(`num_retries=0`): they know neither the AIP-193 rate-limit shape nor Retry-After, and each
thread would back off alone.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from ..errors import SourceError
from .drive_errors import read_refusal, unreachable
from .drive_options import DriveSourceConfig

MAX_BACKOFF_S = 64.0
"""Google's advice: double the wait each time, up to about a minute."""


class RateGate:
    """Shared by every fetching thread: after a rate limit, no thread sends until the back-off
    ends, so the pool slows down together instead of each thread hammering on."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], Any] | None = None
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._until = 0.0
        self.holds = 0
        """How many times a rate limit closed the gate (for reports and tests)."""

    def hold(self, seconds: float) -> None:
        with self._lock:
            self._until = max(self._until, self._clock() + seconds)
            self.holds += 1

    def wait(self) -> float:
        """Sleep until the gate opens; the seconds slept."""
        with self._lock:
            delay = self._until - self._clock()
        if delay <= 0:
            return 0.0
        (self._sleep or time.sleep)(delay)  # looked up late: tests replace time.sleep
        return delay


def backoff(attempt: int, retry_after: float | None) -> float:
    """Seconds to wait before retry number `attempt` (0-based): what Retry-After asks, else
    2^attempt s capped at a minute; either way with up to a quarter more at random, so
    threads (and other clients) refused together do not come back together."""
    base = retry_after if retry_after is not None else min(MAX_BACKOFF_S, 2.0**attempt)
    return base * (1 + random.random() / 4)


_APIS = {
    "drive": ("drive", "v3", "drive_endpoint"),
    "docs": ("docs", "v1", "docs_endpoint"),
    "sheets": ("sheets", "v4", "sheets_endpoint"),
}
_RESOURCES = {
    "files": "drive",
    "changes": "drive",
    "comments": "drive",
    "permissions": "drive",
    "documents": "docs",
    "spreadsheets": "sheets",
}


class GoogleCalls:
    """The Drive, Docs and Sheets resources (`files()`, `documents()`..., shared by all threads),
    each thread's connection, and `call`, which runs a request on it with retries."""

    def __init__(self, config: DriveSourceConfig, credentials) -> None:
        self.config = config
        self.credentials = credentials
        self.gate = RateGate()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._resources: dict[str, Any] = {}
        self._apis: dict[str, Any] = {}

    def files(self):
        return self._resource("files")

    def changes(self):
        return self._resource("changes")

    def comments(self):
        return self._resource("comments")

    def permissions(self):
        return self._resource("permissions")

    def documents(self):
        return self._resource("documents")

    def spreadsheets(self):
        return self._resource("spreadsheets")

    def http(self):
        """This thread's connection (httplib2 objects are not thread-safe)."""
        if not hasattr(self._local, "http"):
            import google_auth_httplib2
            import httplib2

            self._local.http = google_auth_httplib2.AuthorizedHttp(
                self.credentials, http=httplib2.Http(timeout=self.config.timeout_s)
            )
        return self._local.http

    def _resource(self, name: str):
        with self._lock:
            if name not in self._resources:
                self._resources[name] = getattr(self._api(_RESOURCES[name]), name)()
            return self._resources[name]

    def _api(self, name: str):
        if name not in self._apis:
            from googleapiclient.discovery import build

            api, version, endpoint = _APIS[name]
            # Built over the building thread's connection, but every request is sent on its caller's.
            self._apis[name] = build(
                api,
                version,
                http=self.http(),
                static_discovery=True,
                cache_discovery=False,
                client_options={"api_endpoint": getattr(self.config, endpoint)},
            )
        return self._apis[name]

    def call(self, request, subject: str):
        """`request.execute()` (or anything with `execute(num_retries)`), retried on rate limits,
        5xx and dropped connections; what still fails is raised as SourceError or LoaderError."""
        import httplib2
        from google.auth.exceptions import GoogleAuthError, TransportError
        from googleapiclient.errors import HttpError

        attempt = 0
        while True:
            self.gate.wait()
            if hasattr(request, "http"):  # an HttpRequest: sent on this thread's connection
                request.http = self.http()
            try:
                return request.execute(num_retries=0)
            except HttpError as exc:
                refusal = read_refusal(exc)
                if refusal.kind not in ("rate_limit", "transient") or attempt >= self.config.retries:
                    raise refusal.error(subject) from exc
                delay = backoff(attempt, refusal.retry_after)
                if refusal.kind == "rate_limit":
                    self.gate.hold(delay)  # every thread waits: the quota is shared
                else:
                    time.sleep(delay)
            except TransportError as exc:  # the token could not be refreshed: no answer from sign-in
                if attempt >= self.config.retries:
                    raise SourceError(
                        unreachable(exc).replace("Google", "Google's sign-in service", 1), subject=subject
                    ) from exc
                time.sleep(backoff(attempt, None))
            except (OSError, httplib2.HttpLib2Error) as exc:  # no connection, or no DNS answer
                if attempt >= self.config.retries:
                    raise SourceError(unreachable(exc), subject=subject) from exc
                time.sleep(backoff(attempt, None))
            except GoogleAuthError as exc:  # a rejected or expired token that cannot be refreshed
                raise SourceError(f"Google refused the credentials: {exc}", subject=subject) from exc
            attempt += 1
