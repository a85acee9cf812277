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
    _next_seq: dict[str | None, int]
    _min_token: dict[str | None, int]
    _shared: set[str]
    root_id: str
    _drive_of: Callable[[str], str | None]
    _resource: Callable[[StoredFile], dict[str, Any]]
    _view: Callable[[StoredFile], dict[str, Any]]
    _check_access: Callable[[StoredFile], None]
    _ancestors: Callable[[str], list[str]]

    def _files_list(self, p: dict[str, str]) -> dict[str, Any]:
        size = page_size(p)
        pred = parse_query(p["q"]) if p.get("q", "").strip() else (lambda f: True)
        for key in ("corpora", "spaces"):
            allowed = {
                "corpora": {"user", "drive", "domain", "allDrives"},
                "spaces": {"drive", "appDataFolder", "photos"},
            }[key]
            if key in p and not set(p[key].replace(" ", "").split(",")) <= allowed:
                raise invalid(key)
        corpora = set(p.get("corpora", "user").replace(" ", "").split(","))
        drive_id = p.get("driveId", "")
        if ("drive" in corpora) != bool(drive_id):
            raise ApiError(
                400,
                "The driveId parameter must be specified if and only if corpora is set to drive.",
                "teamDriveIdRequiresTeamDriveCorpora",
            )
        if (drive_id or corpora & {"drive", "allDrives"}) and not _true(p, "includeItemsFromAllDrives"):
            raise ApiError(
                403,
                "The includeItemsFromAllDrives parameter must be set to true when driveId is "
                "specified or corpora contains drive or allDrives.",
                "forbidden",
            )
        # Shared drive items only for an app that says it handles them and asks for them.
        shared_too = _true(p, "supportsAllDrives") and _true(p, "includeItemsFromAllDrives")
        with self._lock:
            if drive_id:
                self._drive_or_404(drive_id)
            roots = {self.root_id, *self._shared}
            hits = [
                f
                for f in self._files.values()
                if f.id not in roots
                and not self._hidden(f)
                and pred(view := self._view(f))
                and (view["_drive"] == drive_id if drive_id else view["_drive"] is None or shared_too)
            ]
            hits = _order(hits, p.get("orderBy", ""))
            sig = "\x00".join(
                p.get(k, "")
                for k in (
                    "q",
                    "orderBy",
                    "corpora",
                    "spaces",
                    "driveId",
                    "supportsAllDrives",
                    "includeItemsFromAllDrives",
                )
            )
            page, token = self.page(p, sig, hits, size)
            out: dict[str, Any] = {
                "kind": "drive#fileList",
                "incompleteSearch": False,
                "files": [self._resource(f) for f in page],
            }
            if token:
                out["nextPageToken"] = token
            return out

    def _changes_list(self, p: dict[str, str]) -> dict[str, Any]:
        if "pageToken" not in p:
            raise ApiError(400, "Required parameter: pageToken", "required", location="pageToken")
        size = page_size(p)
        include_removed = p.get("includeRemoved", "true") != "false"
        with self._lock:
            log = self._change_log(p)
            if log:
                self._require_all_drives(p)
            token = p["pageToken"]
            if not token.isdigit() or not self._min_token[log] <= int(token) <= self._next_seq[log]:
                raise invalid("pageToken")
            # The user's log has no changes to the items of a shared drive (Drive's guide: an app must
            # not rely on them there, but read the drive's own log), only changes to the drives.
            latest: dict[tuple[str, str], Change] = {}
            for c in self._changes:
                if c.log == log and c.seq >= int(token):
                    latest[(c.kind, c.file_id)] = c  # coalesce: an item appears once, at its latest change
            pending = sorted(latest.values(), key=lambda c: c.seq)
            changes: list[dict[str, Any]] = []
            last_seq = None
            for c in pending:
                if len(changes) == size:
                    break
                last_seq = c.seq
                if c.kind == "drive":
                    root = self._files[c.file_id]
                    changes.append(
                        {
                            "kind": "drive#change",
                            "changeType": "drive",
                            "type": "drive",
                            "time": c.time,
                            "removed": False,
                            "driveId": c.file_id,
                            "drive": {"kind": "drive#drive", "id": c.file_id, "name": root.name},
                        }
                    )
                    continue
                shared = {"driveId": log, "teamDriveId": log} if log else {}
                f = self._files.get(c.file_id)
                if c.removed or f is None or self._hidden(f):
                    if include_removed:
                        changes.append(
                            {
                                "kind": "drive#change",
                                "changeType": "file",
                                "type": "file",
                                "time": c.time,
                                "removed": True,
                                "fileId": c.file_id,
                                **shared,
                            }
                        )
                    continue
                changes.append(
                    {
                        "kind": "drive#change",
                        "changeType": "file",
                        "type": "file",
                        "time": c.time,
                        "removed": False,
                        "fileId": c.file_id,
                        "file": self._resource(f),
                        **shared,
                    }
                )
            out: dict[str, Any] = {"kind": "drive#changeList", "changes": changes}
            rest = [c for c in pending if last_seq is not None and c.seq > last_seq]
            if rest:
                out["nextPageToken"] = str(last_seq + 1)  # type: ignore[operator]
            else:
                out["newStartPageToken"] = str(self._next_seq[log])
            return out

    def _media(self, file_id: str, range_header: str | None, p: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            f = self._file_or_404(file_id, p)
            if f.mime in NO_CONTENT:
                raise ApiError(
                    403,
                    "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
                    "fileNotDownloadable",
                    location="alt",
                )
            data = f.content or b""
            headers = {"Content-Type": f.mime, "ETag": f'"{f.head_revision}"', "Accept-Ranges": "bytes"}
        span = _parse_range(range_header, len(data)) if range_header else None
        if span == "unsatisfiable":
            return 416, {"Content-Range": f"bytes */{len(data)}"}, b""
        if span is None:
            return 200, headers, data
        lo, hi = span
        return 206, headers | {"Content-Range": f"bytes {lo}-{hi}/{len(data)}"}, data[lo : hi + 1]

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

    def _file_or_404(self, file_id: str, p: dict[str, str] | None = None) -> StoredFile:
        """The file; with `p` (a method that takes supportsAllDrives), a shared drive's file is 404
        unless the request says supportsAllDrives=true, as Drive answers an app that does not."""
        f = self._files.get(self.root_id if file_id == "root" else file_id)
        if f is None or (p is not None and self._drive_of(f.id) and not _true(p, "supportsAllDrives")):
            raise ApiError(404, f"File not found: {file_id}.", "notFound", location="fileId")
        self._check_access(f)
        return f

    def _hidden(self, f: StoredFile) -> bool:
        return f.hidden or any(self._files[a].hidden for a in self._ancestors(f.id))

    def _metadata(self, file_id: str, p: dict[str, str]) -> dict[str, Any]:
        with self._lock:
            return self._resource(self._file_or_404(file_id, p))

    def _start_token(self, p: dict[str, str]) -> dict[str, Any]:
        with self._lock:
            log = self._change_log(p)
            if log and not _true(p, "supportsAllDrives"):
                raise _all_drives_required("supportsAllDrives")
            return {"kind": "drive#startPageToken", "startPageToken": str(self._next_seq[log])}

    def _change_log(self, p: dict[str, str]) -> str | None:
        """The change log a changes request reads: the shared drive `driveId` names (404 if none is
        known), else the user's."""
        drive_id = p.get("driveId") or None
        if drive_id:
            self._drive_or_404(drive_id)
        return drive_id

    def _drive_or_404(self, drive_id: str) -> None:
        if drive_id not in self._shared:
            raise ApiError(404, f"Shared drive not found: {drive_id}", "notFound", location="driveId")

    @staticmethod
    def _require_all_drives(p: dict[str, str]) -> None:
        for name in ("supportsAllDrives", "includeItemsFromAllDrives"):
            if not _true(p, name):
                raise _all_drives_required(name)


def _true(p: dict[str, str], name: str) -> bool:
    return p.get(name, "false").lower() == "true"


def _all_drives_required(name: str) -> ApiError:
    # Drive's wording for includeItemsFromAllDrives (as users report it); the same rule for
    # supportsAllDrives, which Drive's shared drive guide requires on these methods.
    return ApiError(403, f"The {name} parameter must be set to true when driveId is specified.", "forbidden")


def page_size(p: dict[str, str]) -> int:
    raw = p.get("pageSize", "100")
    if not raw.isdigit() or not 1 <= int(raw) <= 1000:
        raise ApiError(
            400, f"Invalid value '{raw}'. Values must be within the range: [1, 1000]", "invalid", location="pageSize"
        )
    return int(raw)


def _order(files: list[StoredFile], order_by: str) -> list[StoredFile]:
    keys = {
        "folder": lambda f: f.mime != FOLDER,
        "name": lambda f: (f.name.casefold(), f.name),
        "name_natural": _natural,
        "modifiedTime": lambda f: f.modified,
        "createdTime": lambda f: f.created,
    }
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
