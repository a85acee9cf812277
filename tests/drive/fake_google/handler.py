"""HTTP: the request handler that checks auth, applies injected faults, routes to the endpoints
and answers errors in Google's JSON."""

from __future__ import annotations

import json
import re
import socket
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from .errors import ApiError, fault_error
from .fields import DOCS_SCHEMAS, DRIVE_SCHEMAS, SHEETS_SCHEMAS, json_response

if TYPE_CHECKING:
    from .server import FakeGoogle


@dataclass(frozen=True, slots=True)
class Recorded:
    """One request as the server saw it."""

    method: str
    target: str  # path?query, as sent
    headers: dict[str, str]
    status: int | None = None  # None: dropped without an answer
    client_port: int = 0
    """The client's port on 127.0.0.1: which connection (so which process) asked."""
    sent: int = 0
    """Bytes of the answer's body."""
    began: float = 0.0
    answered: float = 0.0
    """time.monotonic() when the request arrived and when its answer was ready (latency included)."""


def make_handler(fake: FakeGoogle) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as httplib2 expects of Google

        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            pass

        def setup(self) -> None:
            super().setup()
            # Headers and body go out in two writes: without this, Nagle's algorithm and the
            # client's delayed ACK add ~40 ms to every answer, a latency Google does not have.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with fake._lock:
                fake._connections.add(self.connection)

        def finish(self) -> None:
            with fake._lock:
                fake._connections.discard(self.connection)
            super().finish()

        def do_GET(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            self._serve()

        def _serve(self) -> None:
            began = time.monotonic()
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            target = self.path
            headers = {k.lower(): v for k, v in self.headers.items()}
            docs = urlsplit(target).path.startswith(("/v1/documents", "/v4/spreadsheets"))
            if fake.latency:
                time.sleep(fake.latency)
            fake._headers.value = {k.lower(): v for k, v in self.headers.items()}
            with fake._lock:
                fake.requests.append((self.command, target))
            fault = fake._take_fault(target)
            if fault is not None and fault.drop:
                self._record(target, headers, None, began)
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)  # no status line, no bytes: the client sees the peer hang up
                return
            retry_after = fault.retry_after if fault is not None else None
            try:
                if fault is not None:
                    raise fault_error(fault)
                if headers.get("authorization") != f"Bearer {fake.token}":
                    raise ApiError(
                        401,
                        "Request had invalid authentication credentials. Expected OAuth 2 access "
                        "token, login cookie or other valid authentication credential.",
                        "authError",
                        location="Authorization",
                        status="UNAUTHENTICATED",
                    )
                status, out_headers, body = self._route(target, headers)
            except ApiError as err:
                status, body = err.code, json.dumps(err.body(docs)).encode()
                out_headers = {"Content-Type": "application/json; charset=UTF-8"}
                if err.code == 401:
                    out_headers["WWW-Authenticate"] = 'Bearer realm="https://accounts.google.com/"'
                if retry_after is not None:
                    out_headers["Retry-After"] = retry_after
            self._record(target, headers, status, began, len(body))
            self.send_response(status)
            for k, v in out_headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _record(
            self, target: str, headers: dict[str, str], status: int | None, began: float, sent: int = 0
        ) -> None:
            port = self.client_address[1]
            with fake._lock:
                fake.log.append(Recorded(self.command, target, headers, status, port, sent, began, time.monotonic()))

        def _route(self, target: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
            parts = urlsplit(target)
            path = unquote(parts.path)
            p = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
            if self.command != "GET":
                raise ApiError(405, "Method not allowed by the fake", "methodNotAllowed")
            if m := re.fullmatch(r"/v1/documents/([^/]+)", path):
                return json_response(fake._document(m.group(1), p), p, "Document", DOCS_SCHEMAS, None)
            if path == "/drive/v3/files":
                return json_response(fake._files_list(p), p, "FileList", DRIVE_SCHEMAS, "list")
            if m := re.fullmatch(r"/drive/v3/files/([^/]+)/comments", path):
                return json_response(fake._comments_list(m.group(1), p), p, "CommentList", DRIVE_SCHEMAS, None)
            if m := re.fullmatch(r"/v4/spreadsheets/([^/]+)", path):
                return json_response(fake._spreadsheet(m.group(1)), p, "Spreadsheet", SHEETS_SCHEMAS, None)
            if m := re.fullmatch(r"/drive/v3/files/([^/]+)/permissions", path):
                return json_response(fake._permissions_list(m.group(1), p), p, "PermissionList", DRIVE_SCHEMAS, None)
            if m := re.fullmatch(r"/drive/v3/files/([^/]+)/export", path):
                return fake._export(m.group(1), p)
            if m := re.fullmatch(r"/drive/v3/files/([^/]+)", path):
                if p.get("alt") == "media":
                    return fake._media(m.group(1), headers.get("range"), p)
                return json_response(fake._metadata(m.group(1), p), p, "File", DRIVE_SCHEMAS, "get")
            if path == "/drive/v3/changes/startPageToken":
                return json_response(fake._start_token(p), p, "StartPageToken", DRIVE_SCHEMAS, None)
            if path == "/drive/v3/changes":
                return json_response(fake._changes_list(p), p, "ChangeList", DRIVE_SCHEMAS, "changes")
            raise ApiError(404, "Not Found", "notFound")

    return Handler
