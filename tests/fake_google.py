"""A fake Google Drive v3 + Docs v1 HTTP server for tests that drive the real google-api-python-client.

Start one (`with FakeGoogle() as g:` or the `fake_google` fixture), fill it through the control API
(`add_folder`, `add_file`, `add_google_doc`, ... then `update`, `move`, `trash`, `delete`), and point
the client at it:

    creds = google.oauth2.credentials.Credentials(token=g.token)
    drive = build("drive", "v3", credentials=creds, static_discovery=True,
                  client_options={"api_endpoint": g.drive_endpoint})
    docs = build("docs", "v1", credentials=creds, static_discovery=True,
                 client_options={"api_endpoint": g.docs_endpoint})

Drive behaviours mirrored (each documented by Google; see the module's report for sources):
- `fields` is applied, and validated against the client's own discovery schemas (an unknown name is
  400 "Invalid field selection"). Without `fields` Drive answers its default set: files carry only
  kind, id, name, mimeType -- ask for `parents`, `md5Checksum`, `modifiedTime`... explicitly.
- `trashed` is true when the file or any ancestor folder is trashed (`explicitlyTrashed` only for
  the former); `files.list` includes trashed files unless `q` says `trashed = false`.
- `changes.list` reports each file once, at its latest change since the token, with its current
  state (Drive coalesces the same way); permanently deleted files come as `removed: true` without
  `file`. Trashing or moving a folder records one change, for the folder only: its descendants get no
  change entries (set `cascade_trash_changes=True` to also record them for trash/untrash). Deleting a
  folder deletes its descendants and records a removal for each.
- A rejected changes page token (expired via `expire_page_tokens`, bogus, or from the future) is
  400 "Invalid Value" on parameter pageToken, as Drive answers an invalid token.
- Binary files have md5Checksum, size and headRevisionId, which change only with their content;
  Google Docs/Sheets/folders/shortcuts have none of them. Every mutation bumps `version` and
  `modifiedTime` (a fake clock from 2024-01-02, +1 ms per mutation: deterministic and increasing).
- `alt=media` honours `Range` (206 + Content-Range; 416 `bytes */N` past the end, which is how the
  client finishes an empty file); Docs/Sheets there are 403 fileNotDownloadable. `files.export`
  ignores Range and answers 200 whole (the client accepts that); a binary file is 403
  fileNotExportable, an unsupported target 400 "The requested conversion is not supported.".
- Errors: Drive's `{"error": {"code", "message", "errors": [{domain, reason, message, location?}]}}`,
  the Docs API's `{"error": {"code", "message", "status"}}`; 401 without `Bearer <token>`.

Sources: developers.google.com/workspace/drive/api/guides/handle-errors (error JSON and reasons),
guides/fields-parameter and guides/delete (default fields; trash), reference/rest/v3/files
(`trashed`, `explicitlyTrashed`, `headRevisionId`, `version`), reference/rest/v3/changes and
guides/manage-changes (ChangeList tokens, "current state of each file"). Choices not checked
against a documented source: `name contains` as a word-prefix match (as remembered from
guides/search-files), case-insensitive name order (the Drive UI's), creation order by default.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qs, unquote, urlsplit

import googleapiclient

FOLDER = "application/vnd.google-apps.folder"
GOOGLE_DOC = "application/vnd.google-apps.document"
GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet"
SHORTCUT = "application/vnd.google-apps.shortcut"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
EXPORTS = {GOOGLE_DOC: ("text/plain", "text/markdown"), GOOGLE_SHEET: (XLSX,)}
_NO_CONTENT = (FOLDER, GOOGLE_DOC, GOOGLE_SHEET, SHORTCUT)

_DISCOVERY = Path(googleapiclient.__file__).parent / "discovery_cache" / "documents"
_DRIVE_SCHEMAS = json.loads((_DISCOVERY / "drive.v3.json").read_text())["schemas"]
_DOCS_SCHEMAS = json.loads((_DISCOVERY / "docs.v1.json").read_text())["schemas"]
_DOCUMENT_TAB_KEYS = tuple(_DOCS_SCHEMAS["DocumentTab"]["properties"])

# Drive's default partial response when a request names no `fields`.
_DEFAULT_FILE = "kind,id,name,mimeType"
_DEFAULT_FIELDS = {
    "get": _DEFAULT_FILE,
    "list": f"kind,incompleteSearch,nextPageToken,files({_DEFAULT_FILE})",
    "changes": f"kind,nextPageToken,newStartPageToken,changes(kind,changeType,type,time,removed,fileId,file({_DEFAULT_FILE}))",
}


class ApiError(Exception):
    """An error answer in Google's JSON shape (Drive's `errors` list, or the Docs API's `status`)."""

    def __init__(self, code: int, message: str, reason: str = "", *, domain: str = "global",
                 location: str | None = None, status: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.reason, self.domain = code, message, reason, domain
        self.location, self.status = location, status

    def body(self, docs: bool) -> dict[str, Any]:
        if docs:  # Docs v1 speaks the google.rpc.Status shape: no `errors` list
            return {"error": {"code": self.code, "message": self.message, "status": self.status or _STATUS.get(self.code, "UNKNOWN")}}
        detail: dict[str, Any] = {"message": self.message, "domain": self.domain, "reason": self.reason}
        if self.location:
            detail |= {"location": self.location, "locationType": "header" if self.location == "Authorization" else "parameter"}
        err: dict[str, Any] = {"code": self.code, "message": self.message, "errors": [detail]}
        if self.status:
            err["status"] = self.status
        return {"error": err}


_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
           429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 502: "UNAVAILABLE", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}
_FAULT_DEFAULTS = {  # status -> (reason, domain, message) as Drive words them
    400: ("badRequest", "global", "Bad Request"),
    401: ("authError", "global", "Invalid Credentials"),
    403: ("forbidden", "global", "Forbidden"),
    404: ("notFound", "global", "Not Found"),
    429: ("rateLimitExceeded", "usageLimits", "Rate Limit Exceeded"),
    500: ("backendError", "global", "Backend Error"),
}
_REASON_TEXT = {"userRateLimitExceeded": ("usageLimits", "User Rate Limit Exceeded"),
                "rateLimitExceeded": ("usageLimits", "Rate Limit Exceeded"),
                "backendError": ("global", "Backend Error"),
                "internalError": ("global", "Internal Error")}


def _invalid(location: str, message: str = "Invalid Value") -> ApiError:
    return ApiError(400, message, "invalid", location=location)


# ---------------------------------------------------------------- partial responses (`fields`)

def parse_fields(text: str) -> dict[str, Any]:
    """`a,b(c,d/e),f/g` -> {"a": {}, "b": {"c": {}, "d": {"e": {}}}, "f": {"g": {}}}; {} = whole value."""
    pos = 0

    def parse_list(end: str | None) -> dict[str, Any]:
        nonlocal pos
        tree: dict[str, Any] = {}
        while True:
            m = re.compile(r"\s*([A-Za-z_*][\w*]*(?:/[A-Za-z_*][\w*]*)*)\s*").match(text, pos)
            if not m:
                raise _invalid("fields", f"Invalid field selection {text[pos:] or text}")
            pos = m.end()
            node = tree
            for part in m.group(1).split("/"):
                node = node.setdefault(part, {})
            if pos < len(text) and text[pos] == "(":
                pos += 1
                node.update(parse_list(")"))
            if pos < len(text) and text[pos] == ",":
                pos += 1
                continue
            if end and pos < len(text) and text[pos] == end:
                pos += 1
                return tree
            if end is None and pos == len(text):
                return tree
            raise _invalid("fields", f"Invalid field selection {text}")

    return parse_list(None)


def _check_fields(tree: dict[str, Any], schema: dict[str, Any], schemas: dict[str, Any]) -> None:
    while "$ref" in schema or "items" in schema:
        schema = schemas[schema["$ref"]] if "$ref" in schema else schema["items"]
    props = schema.get("properties")
    if props is None:
        if tree and "additionalProperties" in schema:
            for sub in tree.values():
                _check_fields(sub, schema["additionalProperties"], schemas)
        return
    for name, sub in tree.items():
        if name == "*":
            continue
        if name not in props:
            raise ApiError(400, f"Invalid field selection {name}", "invalidParameter", location="fields")
        if sub:
            _check_fields(sub, props[name], schemas)


def select(value: Any, tree: dict[str, Any]) -> Any:
    if not tree or "*" in tree:
        return value
    if isinstance(value, list):
        return [select(v, tree) for v in value]
    if isinstance(value, dict):
        return {k: select(value[k], sub) for k, sub in tree.items() if k in value}
    return value


# ---------------------------------------------------------------- the `q` grammar of files.list

_TOKEN = re.compile(r"""\s*(?:(?P<str>'(?:[^'\\]|\\.)*')|(?P<op><=|>=|!=|=|<|>)|(?P<paren>[()])|(?P<word>[A-Za-z_]\w*))""")
_Pred = Callable[[dict[str, Any]], bool]


def _tokens(q: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(q.rstrip()):
        m = _TOKEN.match(q, pos)
        if not m:
            raise _invalid("q")
        pos = m.end()
        kind = m.lastgroup or ""
        val = m.group(kind)
        if kind == "str":
            val = re.sub(r"\\(.)", r"\1", val[1:-1])
        out.append((kind, val))
    return out


def parse_query(q: str) -> _Pred:
    """Drive's search grammar, the part a folder sync uses: `'<id>' in parents`, `trashed = bool`,
    `mimeType`/`name` with = and != (name also `contains`, a prefix match as in Drive), `modifiedTime`
    /`createdTime` compared with RFC 3339 strings; `and`, `or`, `not`, parentheses. Anything else is 400."""
    toks = _tokens(q)
    pos = 0

    def peek(kind: str, val: str | None = None) -> bool:
        return pos < len(toks) and toks[pos][0] == kind and (val is None or toks[pos][1].lower() == val)

    def take(kind: str, val: str | None = None) -> str:
        nonlocal pos
        if not peek(kind, val):
            raise _invalid("q")
        pos += 1
        return toks[pos - 1][1]

    def expr() -> _Pred:
        parts = [conj()]
        while peek("word", "or"):
            take("word")
            parts.append(conj())
        return parts[0] if len(parts) == 1 else (lambda f, ps=tuple(parts): any(p(f) for p in ps))

    def conj() -> _Pred:
        parts = [unary()]
        while peek("word", "and"):
            take("word")
            parts.append(unary())
        return parts[0] if len(parts) == 1 else (lambda f, ps=tuple(parts): all(p(f) for p in ps))

    def unary() -> _Pred:
        if peek("word", "not"):
            take("word")
            inner = unary()
            return lambda f: not inner(f)
        if peek("paren", "("):
            take("paren")
            inner = expr()
            take("paren", ")")
            return inner
        return term()

    def term() -> _Pred:
        if peek("str"):
            value = take("str")
            take("word", "in")
            collection = take("word")
            if collection != "parents":
                raise _invalid("q")
            return lambda f: value in f["parents"] or (value == "root" and f["_in_root"])
        name = take("word")
        if peek("word", "contains"):
            take("word")
            op = "contains"
        else:
            op = take("op")
        if name == "trashed":
            want = take("word").lower()
            if want not in ("true", "false") or op not in ("=", "!="):
                raise _invalid("q")
            return lambda f: (f["trashed"] == (want == "true")) == (op == "=")
        value = take("str")
        if name in ("mimeType", "name") and op in ("=", "!="):
            return lambda f: (f[name] == value) == (op == "=")
        if name == "name" and op == "contains":
            return lambda f: any(w.lower().startswith(value.lower()) for w in [f["name"], *f["name"].split()])
        if name in ("modifiedTime", "createdTime") and op != "contains":
            when = _parse_time(value)
            cmp = {"=": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}[op]
            return lambda f: getattr(_parse_time(f[name]), cmp)(when)
        raise _invalid("q")

    pred = expr()
    if pos != len(toks):
        raise _invalid("q")
    return pred


def _parse_time(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise _invalid("q") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


# ---------------------------------------------------------------- stored files

@dataclass(slots=True)
class _File:
    id: str
    name: str
    mime: str
    parent: str
    created: str
    modified: str
    content: bytes | None = None          # binary files' bytes; a sheet's xlsx export
    document: dict[str, Any] | None = None  # a Google Doc's documents.get JSON
    target: str | None = None             # a shortcut's target id
    explicitly_trashed: bool = False
    version: int = 1
    head_revision: int = 1
    doc_revision: int = 1


@dataclass(frozen=True, slots=True)
class Recorded:
    """One request as the server saw it."""
    method: str
    target: str                 # path?query, as sent
    headers: dict[str, str]
    status: int | None = None   # None: dropped without an answer


@dataclass(slots=True)
class _Fault:
    pattern: re.Pattern[str]
    status: int | None
    times: int
    reason: str | None
    drop: bool


@dataclass(slots=True)
class _Change:
    seq: int
    file_id: str
    time: str
    removed: bool


class FakeGoogle:
    """The fake's state and control API; `start()` serves it on 127.0.0.1 (a free port)."""

    def __init__(self, *, token: str = "test-token", cascade_trash_changes: bool = False) -> None:
        self.token = token
        self.cascade_trash_changes = cascade_trash_changes
        self.requests: list[tuple[str, str]] = []
        self.log: list[Recorded] = []
        self.root_id = "0AFakeRootFolderMyDrivePVA"
        self._lock = threading.RLock()
        self._clock = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
        self._files: dict[str, _File] = {}
        self._counter = 0
        self._changes: list[_Change] = []
        self._next_seq = 1000
        self._min_token = 1000
        self._list_tokens: dict[str, tuple[str, int]] = {}
        self._faults: list[_Fault] = []
        self._connections: set[socket.socket] = set()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        now = self._tick()
        self._files[self.root_id] = _File(self.root_id, "My Drive", FOLDER, "", now, now)
        self.base_url = self.drive_endpoint = self.docs_endpoint = ""

    # ------------------------------------------------------------ lifecycle

    def start(self) -> FakeGoogle:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.drive_endpoint = self.base_url + "/drive/v3/"
        self.docs_endpoint = self.base_url + "/"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), name="fake-google", daemon=True)
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

    # ------------------------------------------------------------ building the drive

    def add_folder(self, name: str, parent: str | None = None) -> str:
        return self._add(name, parent, FOLDER)

    def add_file(self, name: str, parent: str, content: bytes, mime_type: str) -> str:
        if mime_type.startswith("application/vnd.google-apps."):
            raise ValueError(f"{mime_type} is a Google type: use add_folder/add_google_doc/add_google_sheet/add_shortcut")
        return self._add(name, parent, mime_type, content=bytes(content))

    def add_google_doc(self, name: str, parent: str, document: dict[str, Any]) -> str:
        return self._add(name, parent, GOOGLE_DOC, document=json.loads(json.dumps(document)))

    def add_google_sheet(self, name: str, parent: str, xlsx: bytes) -> str:
        return self._add(name, parent, GOOGLE_SHEET, content=bytes(xlsx))

    def add_shortcut(self, name: str, parent: str, target: str) -> str:
        with self._lock:
            self._get(target)
            return self._add(name, parent, SHORTCUT, target=target)

    def _add(self, name: str, parent: str | None, mime: str, **data: Any) -> str:
        with self._lock:
            parent_id = self._folder(parent)
            self._counter += 1
            digest = hashlib.sha256(f"fake-file-{self._counter}".encode()).digest()
            file_id = "1" + base64.urlsafe_b64encode(digest).decode()[:32]
            now = self._tick()
            self._files[file_id] = _File(file_id, name, mime, parent_id, now, now, **data)
            self._record(file_id)
            return file_id

    # ------------------------------------------------------------ mutations (one change each)

    def update(self, file_id: str, *, content: bytes | None = None, document: dict[str, Any] | None = None,
               name: str | None = None) -> None:
        with self._lock:
            f = self._get(file_id)
            if content is not None:
                if f.mime in (FOLDER, GOOGLE_DOC, SHORTCUT):
                    raise ValueError(f"{f.mime} has no content bytes")
                f.content = bytes(content)
                f.head_revision += 1
            if document is not None:
                if f.mime != GOOGLE_DOC:
                    raise ValueError("document= is for Google Docs")
                f.document = json.loads(json.dumps(document))
                f.doc_revision += 1
            if name is not None:
                f.name = name
            self._touch(f)

    def move(self, file_id: str, new_parent: str) -> None:
        with self._lock:
            f = self._get(file_id)
            parent = self._folder(new_parent)
            if parent == file_id or file_id in self._ancestors(parent):
                raise ValueError("a folder cannot move into itself")
            f.parent = parent
            self._touch(f)

    def trash(self, file_id: str) -> None:
        self._set_trashed(file_id, True)

    def untrash(self, file_id: str) -> None:
        self._set_trashed(file_id, False)

    def _set_trashed(self, file_id: str, value: bool) -> None:
        with self._lock:
            f = self._get(file_id)
            f.explicitly_trashed = value
            self._touch(f)
            if self.cascade_trash_changes:
                for d in self._descendants(file_id):
                    self._record(d)

    def delete(self, file_id: str) -> None:
        with self._lock:
            self._get(file_id)
            for gone in [*self._descendants(file_id), file_id]:
                del self._files[gone]
                self._record(gone, removed=True)

    def expire_page_tokens(self) -> None:
        """Every changes page token issued so far (start tokens and next-page tokens) becomes invalid."""
        with self._lock:
            self._next_seq += 1000
            self._min_token = self._next_seq

    def fail(self, path_pattern: str, status: int | None = 500, *, times: int = 1, reason: str | None = None,
             drop: bool = False) -> None:
        """The next `times` requests whose `path?query` matches the regex (re.search) get `status` with
        Google's error JSON, or, with drop=True, a closed connection and no answer at all."""
        with self._lock:
            self._faults.append(_Fault(re.compile(path_pattern), status, times, reason, drop))

    # ------------------------------------------------------------ inspection helpers for tests

    def file(self, file_id: str) -> dict[str, Any]:
        """The full metadata Drive would report for `file_id` (all fields)."""
        with self._lock:
            return self._resource(self._get(file_id))

    def changes_since(self, token: str) -> int:
        """How many change records (before coalescing) were logged at or after `token`."""
        with self._lock:
            return sum(1 for c in self._changes if c.seq >= int(token))

    # ------------------------------------------------------------ internals

    def _tick(self) -> str:
        self._clock += timedelta(milliseconds=1)
        return self._clock.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def _touch(self, f: _File) -> None:
        f.version += 1
        f.modified = self._tick()
        self._record(f.id)

    def _record(self, file_id: str, removed: bool = False) -> None:
        self._changes.append(_Change(self._next_seq, file_id, self._clock.isoformat(timespec="milliseconds").replace("+00:00", "Z"), removed))
        self._next_seq += 1

    def _get(self, file_id: str) -> _File:
        if file_id == "root":
            file_id = self.root_id
        f = self._files.get(file_id)
        if f is None:
            raise KeyError(f"no file {file_id!r} in the fake drive")
        return f

    def _folder(self, parent: str | None) -> str:
        f = self._get(parent or "root")
        if f.mime != FOLDER:
            raise ValueError(f"parent {parent!r} is not a folder")
        return f.id

    def _ancestors(self, file_id: str) -> list[str]:
        out, cur = [], self._files[file_id].parent
        while cur:
            out.append(cur)
            cur = self._files[cur].parent
        return out

    def _descendants(self, folder_id: str) -> list[str]:
        out = []
        for f in self._files.values():
            if folder_id in self._ancestors(f.id):
                out.append(f.id)
        return out

    def _trashed(self, f: _File) -> bool:
        return f.explicitly_trashed or any(self._files[a].explicitly_trashed for a in self._ancestors(f.id))

    def _resource(self, f: _File) -> dict[str, Any]:
        r: dict[str, Any] = {
            "kind": "drive#file", "id": f.id, "name": f.name, "mimeType": f.mime,
            "starred": False, "trashed": self._trashed(f), "explicitlyTrashed": f.explicitly_trashed,
            "parents": [f.parent] if f.parent else [], "spaces": ["drive"], "version": str(f.version),
            "webViewLink": f"https://drive.google.com/file/d/{f.id}/view", "createdTime": f.created,
            "modifiedTime": f.modified, "ownedByMe": True, "shared": False,
        }
        if f.id == self.root_id:
            r["parents"] = []
        if f.mime not in _NO_CONTENT:
            data = f.content or b""
            r |= {"md5Checksum": hashlib.md5(data).hexdigest(), "sha256Checksum": hashlib.sha256(data).hexdigest(),
                  "size": str(len(data)), "quotaBytesUsed": str(len(data)),
                  "headRevisionId": f"0B{hashlib.sha1(f'{f.id}/{f.head_revision}'.encode()).hexdigest()[:30]}",
                  "originalFilename": f.name, "webContentLink": f"https://drive.google.com/uc?id={f.id}&export=download"}
            if "." in f.name:
                r["fileExtension"] = r["fullFileExtension"] = f.name.rsplit(".", 1)[1]
        else:
            r["quotaBytesUsed"] = "0"
        if f.mime in EXPORTS:
            r["exportLinks"] = {m: f"{self.drive_endpoint}files/{f.id}/export?mimeType={m}" for m in EXPORTS[f.mime]}
        if f.mime == SHORTCUT and f.target:
            target = self._files.get(f.target)
            r["shortcutDetails"] = {"targetId": f.target, "targetMimeType": target.mime if target else ""}
        return r

    def _view(self, f: _File) -> dict[str, Any]:
        # what the q grammar matches against
        return {"parents": [f.parent], "_in_root": f.parent == self.root_id, "trashed": self._trashed(f),
                "mimeType": f.mime, "name": f.name, "modifiedTime": f.modified, "createdTime": f.created}

    def _take_fault(self, target: str) -> _Fault | None:
        with self._lock:
            for fault in self._faults:
                if fault.times > 0 and fault.pattern.search(target):
                    fault.times -= 1
                    return fault
        return None

    # ------------------------------------------------------------ endpoints

    def _files_list(self, p: dict[str, str]) -> dict[str, Any]:
        size = _page_size(p)
        pred = parse_query(p["q"]) if p.get("q", "").strip() else (lambda f: True)
        for key in ("corpora", "spaces"):
            allowed = {"corpora": {"user", "drive", "domain", "allDrives"}, "spaces": {"drive", "appDataFolder", "photos"}}[key]
            if key in p and not set(p[key].replace(" ", "").split(",")) <= allowed:
                raise _invalid(key)
        with self._lock:
            hits = [f for f in self._files.values() if f.id != self.root_id and pred(self._view(f))]
            hits = _order(hits, p.get("orderBy", ""))
            sig = "\x00".join(p.get(k, "") for k in ("q", "orderBy", "corpora", "spaces"))
            start = 0
            if p.get("pageToken"):
                known = self._list_tokens.get(p["pageToken"])
                if known is None or known[0] != sig:
                    raise _invalid("pageToken")
                start = known[1]
            page = hits[start:start + size]
            out: dict[str, Any] = {"kind": "drive#fileList", "incompleteSearch": False,
                                   "files": [self._resource(f) for f in page]}
            if start + size < len(hits):
                token = base64.urlsafe_b64encode(hashlib.sha256(f"{sig}/{start + size}".encode()).digest()[:24]).decode()
                self._list_tokens[token] = (sig, start + size)
                out["nextPageToken"] = token
            return out

    def _changes_list(self, p: dict[str, str]) -> dict[str, Any]:
        if "pageToken" not in p:
            raise ApiError(400, "Required parameter: pageToken", "required", location="pageToken")
        size = _page_size(p)
        include_removed = p.get("includeRemoved", "true") != "false"
        with self._lock:
            token = p["pageToken"]
            if not token.isdigit() or not self._min_token <= int(token) <= self._next_seq:
                raise _invalid("pageToken")
            latest: dict[str, _Change] = {}
            for c in self._changes:
                if c.seq >= int(token):
                    latest[c.file_id] = c  # coalesce: a file appears once, at its latest change
            pending = sorted(latest.values(), key=lambda c: c.seq)
            changes: list[dict[str, Any]] = []
            last_seq = None
            for c in pending:
                if len(changes) == size:
                    break
                last_seq = c.seq
                f = self._files.get(c.file_id)
                if c.removed or f is None:
                    if include_removed:
                        changes.append({"kind": "drive#change", "changeType": "file", "type": "file", "time": c.time,
                                        "removed": True, "fileId": c.file_id})
                    continue
                changes.append({"kind": "drive#change", "changeType": "file", "type": "file", "time": c.time,
                                "removed": False, "fileId": c.file_id, "file": self._resource(f)})
            out: dict[str, Any] = {"kind": "drive#changeList", "changes": changes}
            rest = [c for c in pending if last_seq is not None and c.seq > last_seq]
            if rest:
                out["nextPageToken"] = str(last_seq + 1)  # type: ignore[operator]
            else:
                out["newStartPageToken"] = str(self._next_seq)
            return out

    def _media(self, file_id: str, range_header: str | None) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            f = self._file_or_404(file_id)
            if f.mime in _NO_CONTENT:
                raise ApiError(403, "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
                               "fileNotDownloadable", location="alt")
            data = f.content or b""
            headers = {"Content-Type": f.mime, "ETag": f'"{f.head_revision}"', "Accept-Ranges": "bytes"}
        span = _parse_range(range_header, len(data)) if range_header else None
        if span == "unsatisfiable":
            return 416, {"Content-Range": f"bytes */{len(data)}"}, b""
        if span is None:
            return 200, headers, data
        lo, hi = span
        return 206, headers | {"Content-Range": f"bytes {lo}-{hi}/{len(data)}"}, data[lo:hi + 1]

    def _export(self, file_id: str, p: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        if "mimeType" not in p:
            raise ApiError(400, "Required parameter: mimeType", "required", location="mimeType")
        with self._lock:
            f = self._file_or_404(file_id)
            if f.mime not in EXPORTS:
                raise ApiError(403, "Export only supports Docs Editors files.", "fileNotExportable")
            target = p["mimeType"]
            if target not in EXPORTS[f.mime]:
                raise ApiError(400, "The requested conversion is not supported.", "badRequest", location="convertTo")
            if f.mime == GOOGLE_SHEET:
                body = f.content or b""
            else:
                body = document_text(f.document or {}, markdown=target == "text/markdown").encode()
        return 200, {"Content-Type": target}, body

    def _document(self, doc_id: str, p: dict[str, str]) -> dict[str, Any]:
        with self._lock:
            f = self._files.get(doc_id)
            if f is None:
                raise ApiError(404, "Requested entity was not found.", status="NOT_FOUND")
            if f.mime != GOOGLE_DOC:
                raise ApiError(400, "This operation is not supported for this document", status="FAILED_PRECONDITION")
            doc = json.loads(json.dumps(f.document or {}))
            revision = f"{f.id[:8]}-rev{f.doc_revision}"
            doc |= {"documentId": f.id, "title": f.name, "revisionId": revision}
        doc.setdefault("suggestionsViewMode", p.get("suggestionsViewMode", "SUGGESTIONS_INLINE"))
        return _tabs_view(doc, p.get("includeTabsContent") == "true")

    def _file_or_404(self, file_id: str) -> _File:
        f = self._files.get(self.root_id if file_id == "root" else file_id)
        if f is None:
            raise ApiError(404, f"File not found: {file_id}.", "notFound", location="fileId")
        return f

    def _metadata(self, file_id: str) -> dict[str, Any]:
        with self._lock:
            return self._resource(self._file_or_404(file_id))

    def _start_token(self) -> dict[str, Any]:
        with self._lock:
            return {"kind": "drive#startPageToken", "startPageToken": str(self._next_seq)}


def _page_size(p: dict[str, str]) -> int:
    raw = p.get("pageSize", "100")
    if not raw.isdigit() or not 1 <= int(raw) <= 1000:
        raise ApiError(400, f"Invalid value '{raw}'. Values must be within the range: [1, 1000]", "invalid",
                       location="pageSize")
    return int(raw)


def _order(files: list[_File], order_by: str) -> list[_File]:
    keys = {"folder": lambda f: f.mime != FOLDER, "name": lambda f: (f.name.casefold(), f.name), "name_natural": _natural,
            "modifiedTime": lambda f: f.modified, "createdTime": lambda f: f.created}
    out = list(files)  # default order: creation order
    for part in reversed([s.strip() for s in order_by.split(",") if s.strip()]):
        name, _, direction = part.partition(" ")
        if name not in keys or direction.strip() not in ("", "desc"):
            raise _invalid("orderBy")
        out.sort(key=keys[name], reverse=direction.strip() == "desc")
    return out


def _natural(f: _File) -> list[Any]:
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", f.name)]


def _parse_range(header: str, size: int) -> tuple[int, int] | str | None:
    m = re.fullmatch(r"\s*bytes=(\d*)-(\d*)\s*", header)
    if not m or m.group(1) == m.group(2) == "":
        return None  # a malformed Range is ignored, as HTTP allows
    if m.group(1) == "":
        n = int(m.group(2))
        return (max(size - n, 0), size - 1) if size and n else "unsatisfiable"
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else size - 1
    if lo >= size or hi < lo:
        return "unsatisfiable"
    return lo, min(hi, size - 1)


def _tabs_view(doc: dict[str, Any], include_tabs: bool) -> dict[str, Any]:
    """Docs answers tabs[] only with includeTabsContent=true; otherwise the first tab fills the body."""
    if include_tabs and "tabs" not in doc:
        tab = {k: doc.pop(k) for k in _DOCUMENT_TAB_KEYS if k in doc}
        doc["tabs"] = [{"tabProperties": {"tabId": "t.0", "title": "Tab 1", "index": 0}, "documentTab": tab}]
    elif not include_tabs and "tabs" in doc:
        tabs = doc.pop("tabs")
        if tabs:
            doc |= tabs[0].get("documentTab", {})
    return doc


def document_text(doc: dict[str, Any], *, markdown: bool = False) -> str:
    """The text Drive exports for a Google Doc: paragraphs of every tab in order, tables cell by cell
    (tab separated, a row a line). Markdown marks headings (HEADING_n, TITLE) with #s."""
    lines: list[str] = []

    def walk(content: list[dict[str, Any]]) -> None:
        for el in content:
            if "paragraph" in el:
                para = el["paragraph"]
                text = "".join(e.get("textRun", {}).get("content", "") for e in para.get("elements", []))
                text = text.rstrip("\n")
                style = para.get("paragraphStyle", {}).get("namedStyleType", "")
                if markdown and text and (style.startswith("HEADING_") or style == "TITLE"):
                    text = "#" * (int(style[-1]) if style[-1].isdigit() else 1) + " " + text
                lines.append(text)
            elif "table" in el:
                for row in el["table"].get("tableRows", []):
                    cells = []
                    for cell in row.get("tableCells", []):
                        before = len(lines)
                        walk(cell.get("content", []))
                        cells.append(" ".join(t for t in lines[before:] if t))
                        del lines[before:]
                    lines.append(("| " + " | ".join(cells) + " |") if markdown else "\t".join(cells))
            elif "tableOfContents" in el:
                walk(el["tableOfContents"].get("content", []))

    def tabs(ts: list[dict[str, Any]]) -> None:
        for t in ts:
            walk(t.get("documentTab", {}).get("body", {}).get("content", []))
            tabs(t.get("childTabs", []))

    if doc.get("tabs"):
        tabs(doc["tabs"])
    else:
        walk(doc.get("body", {}).get("content", []))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- HTTP

def _make_handler(fake: FakeGoogle) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as httplib2 expects of Google

        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            pass

        def setup(self) -> None:
            super().setup()
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
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            target = self.path
            headers = {k.lower(): v for k, v in self.headers.items()}
            docs = urlsplit(target).path.startswith("/v1/documents")
            with fake._lock:
                fake.requests.append((self.command, target))
            fault = fake._take_fault(target)
            if fault is not None and fault.drop:
                self._record(target, headers, None)
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)  # no status line, no bytes: the client sees the peer hang up
                return
            try:
                if fault is not None:
                    raise _fault_error(fault)
                if headers.get("authorization") != f"Bearer {fake.token}":
                    raise ApiError(401, "Request had invalid authentication credentials. Expected OAuth 2 access "
                                   "token, login cookie or other valid authentication credential.", "authError",
                                   location="Authorization", status="UNAUTHENTICATED")
                status, out_headers, body = self._route(target, headers)
            except ApiError as err:
                status, body = err.code, json.dumps(err.body(docs)).encode()
                out_headers = {"Content-Type": "application/json; charset=UTF-8"}
                if err.code == 401:
                    out_headers["WWW-Authenticate"] = 'Bearer realm="https://accounts.google.com/"'
            self._record(target, headers, status)
            self.send_response(status)
            for k, v in out_headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _record(self, target: str, headers: dict[str, str], status: int | None) -> None:
            with fake._lock:
                fake.log.append(Recorded(self.command, target, headers, status))

        def _route(self, target: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
            parts = urlsplit(target)
            path = unquote(parts.path)
            p = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
            if self.command != "GET":
                raise ApiError(405, "Method not allowed by the fake", "methodNotAllowed")
            if m := re.fullmatch(r"/v1/documents/([^/]+)", path):
                return _json(fake._document(m.group(1), p), p, "Document", _DOCS_SCHEMAS, None)
            if path == "/drive/v3/files":
                return _json(fake._files_list(p), p, "FileList", _DRIVE_SCHEMAS, "list")
            if m := re.fullmatch(r"/drive/v3/files/([^/]+)/export", path):
                return fake._export(m.group(1), p)
            if m := re.fullmatch(r"/drive/v3/files/([^/]+)", path):
                if p.get("alt") == "media":
                    return fake._media(m.group(1), headers.get("range"))
                return _json(fake._metadata(m.group(1)), p, "File", _DRIVE_SCHEMAS, "get")
            if path == "/drive/v3/changes/startPageToken":
                return _json(fake._start_token(), p, "StartPageToken", _DRIVE_SCHEMAS, None)
            if path == "/drive/v3/changes":
                return _json(fake._changes_list(p), p, "ChangeList", _DRIVE_SCHEMAS, "changes")
            raise ApiError(404, "Not Found", "notFound")

    return Handler


def _json(value: dict[str, Any], p: dict[str, str], schema: str, schemas: dict[str, Any],
          default: str | None) -> tuple[int, dict[str, str], bytes]:
    spec = p["fields"] if "fields" in p else _DEFAULT_FIELDS.get(default or "")
    if spec is not None:
        if spec.strip() == "":
            value = {}
        else:
            tree = parse_fields(spec)
            _check_fields(tree, schemas[schema], schemas)
            value = select(value, tree)
    return 200, {"Content-Type": "application/json; charset=UTF-8"}, json.dumps(value).encode()


def _fault_error(fault: _Fault) -> ApiError:
    status = fault.status or 500
    reason = fault.reason
    if reason is None:
        reason, domain, message = _FAULT_DEFAULTS.get(status, _FAULT_DEFAULTS[500] if status >= 500 else _FAULT_DEFAULTS[400])
    else:
        domain, message = _REASON_TEXT.get(reason, ("global", reason))
    return ApiError(status, message, reason, domain=domain)


# ---------------------------------------------------------------- pytest

def fake_google_server(**options: Any) -> Iterator[FakeGoogle]:
    """A fixture body: `yield from fake_google_server()` serves a fresh fake for one test."""
    fake = FakeGoogle(**options).start()
    try:
        yield fake
    finally:
        fake.stop()
