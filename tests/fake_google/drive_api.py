"""The Drive v3 read endpoints the fake serves: files.list/get, alt=media, export, changes."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from .docs_api import document_text
from .errors import ApiError, invalid
from .mime import EXPORTED_AS_STORED, EXPORTS, FOLDER, NO_CONTENT
from .query import parse_query
from .store import Change, StoredFile


class DriveEndpoints:
    """Mixed into FakeGoogle next to DriveStore, whose state these read."""

    _lock: threading.RLock
    _files: dict[str, StoredFile]
    _changes: list[Change]
    page: Callable[..., tuple[list, str | None]]
    _next_seq: int
    _min_token: int
    root_id: str
    _resource: Callable[[StoredFile], dict[str, Any]]
    _view: Callable[[StoredFile], dict[str, Any]]

    def _files_list(self, p: dict[str, str]) -> dict[str, Any]:
        size = page_size(p)
        pred = parse_query(p["q"]) if p.get("q", "").strip() else (lambda f: True)
        for key in ("corpora", "spaces"):
            allowed = {"corpora": {"user", "drive", "domain", "allDrives"}, "spaces": {"drive", "appDataFolder", "photos"}}[key]
            if key in p and not set(p[key].replace(" ", "").split(",")) <= allowed:
                raise invalid(key)
        with self._lock:
            hits = [f for f in self._files.values() if f.id != self.root_id and pred(self._view(f))]
            hits = _order(hits, p.get("orderBy", ""))
            sig = "\x00".join(p.get(k, "") for k in ("q", "orderBy", "corpora", "spaces"))
            page, token = self.page(p, sig, hits, size)
            out: dict[str, Any] = {"kind": "drive#fileList", "incompleteSearch": False,
                                   "files": [self._resource(f) for f in page]}
            if token:
                out["nextPageToken"] = token
            return out

    def _changes_list(self, p: dict[str, str]) -> dict[str, Any]:
        if "pageToken" not in p:
            raise ApiError(400, "Required parameter: pageToken", "required", location="pageToken")
        size = page_size(p)
        include_removed = p.get("includeRemoved", "true") != "false"
        with self._lock:
            token = p["pageToken"]
            if not token.isdigit() or not self._min_token <= int(token) <= self._next_seq:
                raise invalid("pageToken")
            latest: dict[str, Change] = {}
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
            if f.mime in NO_CONTENT:
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
            if f.mime in EXPORTED_AS_STORED:
                body = f.content or b""
            else:
                body = document_text(f.document or {}, markdown=target == "text/markdown").encode()
        return 200, {"Content-Type": target}, body

    def _file_or_404(self, file_id: str) -> StoredFile:
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


def page_size(p: dict[str, str]) -> int:
    raw = p.get("pageSize", "100")
    if not raw.isdigit() or not 1 <= int(raw) <= 1000:
        raise ApiError(400, f"Invalid value '{raw}'. Values must be within the range: [1, 1000]", "invalid",
                       location="pageSize")
    return int(raw)


def _order(files: list[StoredFile], order_by: str) -> list[StoredFile]:
    keys = {"folder": lambda f: f.mime != FOLDER, "name": lambda f: (f.name.casefold(), f.name), "name_natural": _natural,
            "modifiedTime": lambda f: f.modified, "createdTime": lambda f: f.created}
    out = list(files)  # default order: creation order
    for part in reversed([s.strip() for s in order_by.split(",") if s.strip()]):
        name, _, direction = part.partition(" ")
        if name not in keys or direction.strip() not in ("", "desc"):
            raise invalid("orderBy")
        out.sort(key=keys[name], reverse=direction.strip() == "desc")
    return out


def _natural(f: StoredFile) -> list[Any]:
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
