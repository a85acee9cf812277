"""Requests to Google, made safely from many threads: one client per thread, retries with
exponential back-off and jitter, and one rate gate every thread waits at.

httplib2 objects are not thread-safe (google-api-python-client's docs: "create a new Http object
for each thread"), so every thread builds its own AuthorizedHttp and services over the shared
credentials. The client's own retries are off (`num_retries=0`): they know neither the AIP-193
rate-limit shape nor Retry-After, and each thread would back off alone.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..config import DriveSourceConfig
from ..errors import SourceError
from .drive_errors import read_refusal, unreachable

MAX_BACKOFF_S = 64.0
"""Google's advice: double the wait each time, up to about a minute."""


class RateGate:
    """Shared by every fetching thread: after a rate limit, no thread sends until the back-off
    ends, so the pool slows down together instead of each thread hammering on."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], Any] | None = None) -> None:
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
    base = retry_after if retry_after is not None else min(MAX_BACKOFF_S, 2.0 ** attempt)
    return base * (1 + random.random() / 4)


@dataclass(frozen=True, slots=True)
class _Services:
    drive: Any
    docs: Any
    sheets: Any


class GoogleCalls:
    """This thread's Drive, Docs and Sheets services, and `call`, which runs a request with
    retries. `calls` counts the requests sent (retries included)."""

    def __init__(self, config: DriveSourceConfig, credentials) -> None:
        self.config = config
        self.credentials = credentials
        self.gate = RateGate()
        self._local = threading.local()
        self._lock = threading.Lock()
        self.calls = 0

    def _services(self) -> _Services:
        services = getattr(self._local, "services", None)
        if services is None:
            import google_auth_httplib2
            import httplib2
            from googleapiclient.discovery import build

            http = google_auth_httplib2.AuthorizedHttp(self.credentials, http=httplib2.Http(timeout=self.config.timeout_s))

            def service(name: str, version: str, endpoint: str):
                return build(name, version, http=http, static_discovery=True, cache_discovery=False,
                             client_options={"api_endpoint": endpoint})

            services = _Services(service("drive", "v3", self.config.drive_endpoint),
                                 service("docs", "v1", self.config.docs_endpoint),
                                 service("sheets", "v4", self.config.sheets_endpoint))
            self._local.services = services
        return services

    def files(self):
        return self._resource("files", lambda s: s.drive.files())

    def changes(self):
        return self._resource("changes", lambda s: s.drive.changes())

    def comments(self):
        return self._resource("comments", lambda s: s.drive.comments())

    def permissions(self):
        return self._resource("permissions", lambda s: s.drive.permissions())

    def documents(self):
        return self._resource("documents", lambda s: s.docs.documents())

    def spreadsheets(self):
        return self._resource("spreadsheets", lambda s: s.sheets.spreadsheets())

    def _resource(self, name: str, make: Callable[[_Services], Any]):
        # Kept per thread: the client builds a resource's every method (docstrings included) on
        # each `drive.files()`, which costs more than the request on a fast link.
        resources = self._local.__dict__.setdefault("resources", {})
        if name not in resources:
            resources[name] = make(self._services())
        return resources[name]

    def call(self, request, subject: str):
        """`request.execute()` (or anything with `execute(num_retries)`), retried on rate limits,
        5xx and dropped connections; what still fails is raised as SourceError or LoaderError."""
        import httplib2
        from google.auth.exceptions import GoogleAuthError, TransportError
        from googleapiclient.errors import HttpError

        attempt = 0
        while True:
            self.gate.wait()
            with self._lock:
                self.calls += 1
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
                    raise SourceError(unreachable(exc).replace("Google", "Google's sign-in service", 1),
                                      subject=subject) from exc
                time.sleep(backoff(attempt, None))
            except (OSError, httplib2.HttpLib2Error) as exc:  # no connection, or no DNS answer
                if attempt >= self.config.retries:
                    raise SourceError(unreachable(exc), subject=subject) from exc
                time.sleep(backoff(attempt, None))
            except GoogleAuthError as exc:  # a rejected or expired token that cannot be refreshed
                raise SourceError(f"Google refused the credentials: {exc}", subject=subject) from exc
            attempt += 1
