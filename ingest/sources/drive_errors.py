"""Google's error answers read in both of their shapes, and what each means for a sync.

Drive v3 words an error as `{"error": {"code", "message", "errors": [{"reason": ...}]}}`; the
Docs API (and newer Drive answers) use AIP-193: `{"error": {"code", "message", "status",
"details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": ...}]}}`. A rate
limit can come as 429, as 403 with a v3 reason (`userRateLimitExceeded`), or as 403
PERMISSION_DENIED whose ErrorInfo reason is RATE_LIMIT_EXCEEDED: all three pass, so all three
are retried, and none is a verdict on the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Literal

from ..errors import LoaderError, SourceError

Kind = Literal["rate_limit", "transient", "refused", "auth", "other"]

RATE_LIMIT_REASONS = frozenset(
    {
        "userRateLimitExceeded",
        "rateLimitExceeded",
        "dailyLimitExceeded",
        "quotaExceeded",
        "sharingRateLimitExceeded",
        "RATE_LIMIT_EXCEEDED",
        "RESOURCE_EXHAUSTED",
    }
)
"""v3 `errors[].reason`, AIP-193 `ErrorInfo.reason` and `status` values that mean "slow down"."""
_BACKEND_REASONS = frozenset({"backendError", "internalError"})


@dataclass(frozen=True, slots=True)
class Refusal:
    """One error answer, read."""

    status: int
    reasons: tuple[str, ...]
    """Every reason the answer gives: v3 `errors[].reason`, ErrorInfo `reason`, the `status` word."""
    message: str
    retry_after: float | None
    """Seconds the answer asks us to wait (its Retry-After header), if it says."""

    @property
    def kind(self) -> Kind:
        if self.status == 429 or RATE_LIMIT_REASONS.intersection(self.reasons):
            return "rate_limit"
        if self.status >= 500 or self.status == 408 or _BACKEND_REASONS.intersection(self.reasons):
            return "transient"
        if self.status == 401:
            return "auth"
        if self.status == 403:
            return "refused"  # download restricted, not exportable, no permission: about this file
        return "other"

    def text(self) -> str:
        reason = self.reasons[0] if self.reasons else ""
        return f"Drive answered {self.status}{f' {reason}' if reason else ''}: {self.message}".rstrip(": ")

    def error(self, subject: str) -> SourceError | LoaderError:
        """As ours: a file Drive will not hand over in this form is a verdict on this version
        (LoaderError, tried again when it changes, so it does not hold the cursor forever);
        anything else may pass (SourceError: tried again next run)."""
        if self.kind == "refused":
            return LoaderError(self.text(), subject=subject)
        return SourceError(self.text(), subject=subject)


def read_refusal(exc) -> Refusal:
    """The `googleapiclient.errors.HttpError` `exc`, read."""
    status = int(exc.resp.status)
    reasons: list[str] = []
    message = ""
    try:
        error = json.loads(exc.content.decode("utf-8")).get("error", {})
        if isinstance(error, dict):
            message = str(error.get("message", ""))
            reasons += [e.get("reason", "") for e in error.get("errors") or () if isinstance(e, dict)]
            reasons += [
                d.get("reason", "")
                for d in error.get("details") or ()
                if isinstance(d, dict) and str(d.get("@type", "")).endswith("google.rpc.ErrorInfo")
            ]
            reasons.append(str(error.get("status", "")))
        else:  # some proxies answer {"error": "text"}
            message = str(error)
    except (ValueError, AttributeError, UnicodeDecodeError):
        message = str(exc)
    return Refusal(
        status, tuple(dict.fromkeys(r for r in reasons if r)), message, retry_after(exc.resp.get("retry-after"))
    )


def status_of(exc: BaseException) -> int | None:
    """The HTTP status of the answer behind one of our errors (None: there was no answer)."""
    resp = getattr(exc.__cause__, "resp", None)
    return int(resp.status) if resp is not None else None


def retry_after(value: str | None) -> float | None:
    """A Retry-After header (seconds, or an HTTP date) as seconds from now."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def unreachable(exc: BaseException) -> str:
    """Why a request got no answer at all, in words: a failed DNS lookup is said as one."""
    import socket

    import httplib2

    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, httplib2.ServerNotFoundError) or isinstance(cause, socket.gaierror):
            return f"cannot reach Google: DNS lookup failed ({cause}); check the network, DNS or proxy settings"
        cause = (
            cause.__cause__
            or cause.__context__
            or (cause.args[0] if cause.args and isinstance(cause.args[0], BaseException) else None)
        )
    return f"cannot reach Google: {exc!r}"
