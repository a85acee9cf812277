"""Google's error answers: Drive's `errors` list shape, the Docs API's `status` shape, injected faults."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


class ApiError(Exception):
    """An error answer in Google's JSON shape (Drive's `errors` list, or the Docs API's `status`)."""

    def __init__(
        self,
        code: int,
        message: str,
        reason: str = "",
        *,
        domain: str = "global",
        location: str | None = None,
        status: str | None = None,
        error_info: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code, self.message, self.reason, self.domain = code, message, reason, domain
        self.location, self.status, self.error_info = location, status, error_info

    def body(self, docs: bool) -> dict[str, Any]:
        if self.error_info is not None:  # AIP-193 (google.rpc.Status with an ErrorInfo detail), on any API
            return {
                "error": {
                    "code": self.code,
                    "message": self.message,
                    "status": self.status,
                    "details": [
                        {
                            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                            "reason": self.error_info,
                            "domain": "googleapis.com",
                            "metadata": {
                                "quota_metric": "docs.googleapis.com/read_requests",
                                "quota_limit": "ReadRequestsPerMinutePerUser",
                                "service": "docs.googleapis.com",
                                "consumer": "projects/000000000000",
                            },
                        }
                    ],
                }
            }
        if docs:  # Docs v1 speaks the google.rpc.Status shape: no `errors` list
            return {
                "error": {
                    "code": self.code,
                    "message": self.message,
                    "status": self.status or _STATUS.get(self.code, "UNKNOWN"),
                }
            }
        detail: dict[str, Any] = {"message": self.message, "domain": self.domain, "reason": self.reason}
        if self.location:
            detail |= {
                "location": self.location,
                "locationType": "header" if self.location == "Authorization" else "parameter",
            }
        err: dict[str, Any] = {"code": self.code, "message": self.message, "errors": [detail]}
        if self.status:
            err["status"] = self.status
        return {"error": err}


_QUOTA_MESSAGE = (
    "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' "
    "of service 'docs.googleapis.com' for consumer 'project_number:000000000000'."
)
"""How the Docs API words a per-user rate limit (AIP-193: developers.google.com/workspace/docs/api/limits,
google.aip.dev/193); the same answer comes as 429 RESOURCE_EXHAUSTED or 403 PERMISSION_DENIED."""
_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
_FAULT_DEFAULTS = {  # status -> (reason, domain, message) as Drive words them
    400: ("badRequest", "global", "Bad Request"),
    401: ("authError", "global", "Invalid Credentials"),
    403: ("forbidden", "global", "Forbidden"),
    404: ("notFound", "global", "Not Found"),
    429: ("rateLimitExceeded", "usageLimits", "Rate Limit Exceeded"),
    500: ("backendError", "global", "Backend Error"),
}
_REASON_TEXT = {
    "userRateLimitExceeded": ("usageLimits", "User Rate Limit Exceeded"),
    "rateLimitExceeded": ("usageLimits", "Rate Limit Exceeded"),
    "backendError": ("global", "Backend Error"),
    "internalError": ("global", "Internal Error"),
}


def invalid(location: str, message: str = "Invalid Value") -> ApiError:
    return ApiError(400, message, "invalid", location=location)


@dataclass(slots=True)
class Fault:
    pattern: re.Pattern[str]
    status: int | None
    times: int
    reason: str | None
    drop: bool
    retry_after: str | None = None
    error_info: str | None = None  # answer in the AIP-193 shape, with an ErrorInfo of this reason


def fault_error(fault: Fault) -> ApiError:
    status = fault.status or 500
    if fault.error_info is not None:
        return ApiError(
            status,
            _QUOTA_MESSAGE if "RATE" in fault.error_info else fault.error_info,
            status=_STATUS.get(status, "UNKNOWN"),
            error_info=fault.error_info,
        )
    reason = fault.reason
    if reason is None:
        reason, domain, message = _FAULT_DEFAULTS.get(
            status, _FAULT_DEFAULTS[500] if status >= 500 else _FAULT_DEFAULTS[400]
        )
    else:
        domain, message = _REASON_TEXT.get(reason, ("global", reason))
    return ApiError(status, message, reason, domain=domain)
