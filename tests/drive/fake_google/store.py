"""The fake drive's state: files (in My Drive or a shared drive), the change logs and page tokens,
and the control API that builds and mutates it (each mutation records one change)."""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from .errors import invalid
from .mime import EXPORTS, FOLDER, GOOGLE_DOC, GOOGLE_SHEET, GOOGLE_SLIDES, NO_CONTENT, SHORTCUT

if TYPE_CHECKING:
    from .comments import StoredComment


@dataclass(slots=True)
class StoredFile:
    id: str
    name: str
    mime: str
    parent: str
    created: str
    modified: str
    content: bytes | None = None  # binary files' bytes; a sheet's xlsx export
    document: dict[str, Any] | None = None  # a Google Doc's documents.get JSON
    target: str | None = None  # a shortcut's target id
    explicitly_trashed: bool = False
    version: int = 1
    head_revision: int = 1
    doc_revision: int = 1
    comments: list[StoredComment] = field(default_factory=list)
    permissions: list[dict[str, Any]] = field(default_factory=list)  # shared on this item itself
    hidden: bool = False  # the fake user lost access (see sharing)
    resource_key: str | None = None  # needs X-Goog-Drive-Resource-Keys (see sharing)
    tabs: dict[str, int] | None = None  # a Google Sheet's tab title -> gid (Sheets API)


@dataclass(slots=True)
class Change:
    seq: int
    file_id: str  # a drive change: the shared drive's id
    time: str
    removed: bool
    log: str | None = None  # the change log it is in: None for the user's, else a shared drive's id
    kind: str = "file"  # "file", or "drive" (a shared drive itself, in the user's log)


class DriveStore:
    """The fake drive's files and change log, and the control API tests fill and change it with."""

    def __init__(self, *, cascade_trash_changes: bool = False, comment_changes: bool = True) -> None:
        self.cascade_trash_changes = cascade_trash_changes
        self.comment_changes = comment_changes
        self.root_id = "0AFakeRootFolderMyDrivePVA"
        self._lock = threading.RLock()
        self._clock = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
        self._files: dict[str, StoredFile] = {}
        self._counter = 0
        self._changes: list[Change] = []
        # One change log per corpus, as in Drive: the user's (None) and one per shared drive, each
        # with its own tokens. The user's count from 1000, a shared drive's from 1, so a token used
        # with the wrong log is out of range there (400), as Drive rejects it.
        self._next_seq: dict[str | None, int] = {None: 1000}
        self._min_token: dict[str | None, int] = {None: 1000}
        self._shared: set[str] = set()
        self._list_tokens: dict[str, tuple[str, int]] = {}
        now = self._tick()
        self._files[self.root_id] = StoredFile(self.root_id, "My Drive", FOLDER, "", now, now)
        self.base_url = self.drive_endpoint = self.docs_endpoint = ""

    # ------------------------------------------------------------ paging, shared by the list endpoints

    def page(self, p: dict[str, str], sig: str, hits: list, size: int) -> tuple[list, str | None]:
        """The page of `hits` that `p["pageToken"]` points at (the first without one), and the token
        of the next page (None on the last). A token from another query is a 400, as in Drive."""
        start = 0
        if p.get("pageToken"):
            known = self._list_tokens.get(p["pageToken"])
            if known is None or known[0] != sig:
                raise invalid("pageToken")
            start = known[1]
        token = None
        if start + size < len(hits):
            token = base64.urlsafe_b64encode(hashlib.sha256(f"{sig}/{start + size}".encode()).digest()[:24]).decode()
            self._list_tokens[token] = (sig, start + size)
        return hits[start : start + size], token

    # ------------------------------------------------------------ building the drive

    def add_shared_drive(self, name: str) -> str:
        """A shared drive; its id is also the id of its root folder (add files with it as parent).
        The user's change log gets one drive change for it, as when a user joins a shared drive."""
        with self._lock:
            self._counter += 1
            digest = hashlib.sha256(f"fake-drive-{self._counter}".encode()).digest()
            drive_id = (
                "0A" + base64.urlsafe_b64encode(digest).decode()[:11].replace("-", "x").replace("_", "y") + "Uk9PVA"
            )
            now = self._tick()
            self._files[drive_id] = StoredFile(drive_id, name, FOLDER, "", now, now)
            self._shared.add(drive_id)
            self._next_seq[drive_id] = self._min_token[drive_id] = 1
            self._record(drive_id, kind="drive")
            return drive_id

    def add_folder(self, name: str, parent: str | None = None) -> str:
        return self._add(name, parent, FOLDER)

    def add_file(self, name: str, parent: str, content: bytes, mime_type: str) -> str:
        if mime_type.startswith("application/vnd.google-apps."):
            raise ValueError(
                f"{mime_type} is a Google type: use add_folder/add_google_doc/add_google_sheet/add_shortcut"
            )
        return self._add(name, parent, mime_type, content=bytes(content))

    def add_google_doc(self, name: str, parent: str, document: dict[str, Any]) -> str:
        return self._add(name, parent, GOOGLE_DOC, document=json.loads(json.dumps(document)))

    def add_google_sheet(self, name: str, parent: str, xlsx: bytes, tabs: dict[str, int] | None = None) -> str:
        """A spreadsheet exported as `xlsx`; `tabs` (title -> gid) is what the Sheets API reports
        (by default the workbook's sheet names, the first with gid 0)."""
        return self._add(name, parent, GOOGLE_SHEET, content=bytes(xlsx), tabs=dict(tabs) if tabs is not None else None)

    def add_google_slides(self, name: str, parent: str, pptx: bytes) -> str:
        """A presentation; files.export to .pptx returns `pptx` (a real Google export, as the
        corpus holds, names its notes pages after the slides' ids)."""
        return self._add(name, parent, GOOGLE_SLIDES, content=bytes(pptx))

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
            self._files[file_id] = StoredFile(file_id, name, mime, parent_id, now, now, **data)
            self._record(file_id)
            return file_id

    # ------------------------------------------------------------ mutations (one change each)

    def update(
        self,
        file_id: str,
        *,
        content: bytes | None = None,
        document: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> None:
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
            if self._drive_of(parent) != self._drive_of(file_id):
                raise ValueError(
                    "moves between My Drive and a shared drive (or between shared drives) are not modelled"
                )
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
            if file_id == self.root_id or file_id in self._shared:
                raise ValueError("a drive's root folder cannot be deleted")
            log = self._drive_of(file_id)  # the removals go to the log of the drive they were in
            for gone in [*self._descendants(file_id), file_id]:
                del self._files[gone]
                self._log(log, gone, removed=True)

    def expire_page_tokens(self) -> None:
        """Every changes page token issued so far (start tokens and next-page tokens) becomes invalid."""
        with self._lock:
            for log in self._next_seq:
                self._next_seq[log] += 1000
                self._min_token[log] = self._next_seq[log]

    # ------------------------------------------------------------ inspection helpers for tests

    def file(self, file_id: str) -> dict[str, Any]:
        """The full metadata Drive would report for `file_id` (all fields)."""
        with self._lock:
            return self._resource(self._get(file_id))

    def changes_since(self, token: str, drive_id: str | None = None) -> int:
        """How many change records (before coalescing) were logged at or after `token` in the user's
        change log, or in the shared drive `drive_id`'s."""
        with self._lock:
            return sum(1 for c in self._changes if c.log == drive_id and c.seq >= int(token))

    # ------------------------------------------------------------ internals

    def _tick(self) -> str:
        self._clock += timedelta(milliseconds=1)
        return self._clock.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def _touch(self, f: StoredFile) -> None:
        f.version += 1
        f.modified = self._tick()
        self._record(f.id)

    def _record(self, file_id: str, removed: bool = False, kind: str = "file") -> None:
        self._log(self._drive_of(file_id) if kind == "file" else None, file_id, removed, kind)

    def _log(self, log: str | None, file_id: str, removed: bool = False, kind: str = "file") -> None:
        time = self._clock.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        self._changes.append(Change(self._next_seq[log], file_id, time, removed, log, kind))
        self._next_seq[log] += 1

    def _get(self, file_id: str) -> StoredFile:
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

    def _drive_of(self, file_id: str) -> str | None:
        """The shared drive a file is in (its topmost folder is that drive's root), None for My Drive."""
        top = ([file_id, *self._ancestors(file_id)])[-1]
        return top if top in self._shared else None

    def _descendants(self, folder_id: str) -> list[str]:
        out = []
        for f in self._files.values():
            if folder_id in self._ancestors(f.id):
                out.append(f.id)
        return out

    def _trashed(self, f: StoredFile) -> bool:
        return f.explicitly_trashed or any(self._files[a].explicitly_trashed for a in self._ancestors(f.id))

    def _resource(self, f: StoredFile) -> dict[str, Any]:
        r: dict[str, Any] = {
            "kind": "drive#file",
            "id": f.id,
            "name": f.name,
            "mimeType": f.mime,
            "starred": False,
            "trashed": self._trashed(f),
            "explicitlyTrashed": f.explicitly_trashed,
            "parents": [f.parent] if f.parent else [],
            "spaces": ["drive"],
            "version": str(f.version),
            "webViewLink": f"https://drive.google.com/file/d/{f.id}/view",
            "createdTime": f.created,
            "modifiedTime": f.modified,
        }
        drive = self._drive_of(f.id)
        if drive:  # a shared drive's items have driveId and no owner (the organisation owns them)
            r |= {"driveId": drive, "teamDriveId": drive}
        else:
            r |= {"ownedByMe": True, "owners": [_ME]}
        if f.id == self.root_id:
            r["parents"] = []
        if f.mime not in NO_CONTENT:
            data = f.content or b""
            r |= {
                "md5Checksum": hashlib.md5(data).hexdigest(),
                "sha256Checksum": hashlib.sha256(data).hexdigest(),
                "size": str(len(data)),
                "quotaBytesUsed": str(len(data)),
                "headRevisionId": f"0B{hashlib.sha1(f'{f.id}/{f.head_revision}'.encode()).hexdigest()[:30]}",
                "originalFilename": f.name,
                "webContentLink": f"https://drive.google.com/uc?id={f.id}&export=download",
            }
            if "." in f.name:
                r["fileExtension"] = r["fullFileExtension"] = f.name.rsplit(".", 1)[1]
        else:
            r["quotaBytesUsed"] = "0"
        if f.mime in EXPORTS:
            r["exportLinks"] = {m: f"{self.drive_endpoint}files/{f.id}/export?mimeType={m}" for m in EXPORTS[f.mime]}
        if f.mime == SHORTCUT and f.target:
            target = self._files.get(f.target)
            r["shortcutDetails"] = {"targetId": f.target, "targetMimeType": target.mime if target else ""}
            if target is not None and target.resource_key:
                r["shortcutDetails"]["targetResourceKey"] = target.resource_key
        if f.resource_key:
            r["resourceKey"] = f.resource_key
        perms = self._effective_permissions(f)  # type: ignore[attr-defined]
        r["permissionIds"] = [p["id"] for p in perms]
        if not drive:  # not populated for items in shared drives: permissions.list has them
            r["permissions"] = perms
        r["shared"] = any(p["role"] != "owner" for p in perms)
        return r

    def _view(self, f: StoredFile) -> dict[str, Any]:
        # what the q grammar matches against
        return {
            "parents": [f.parent],
            "_in_root": f.parent == self.root_id,
            "trashed": self._trashed(f),
            "_drive": self._drive_of(f.id),
            "mimeType": f.mime,
            "name": f.name,
            "modifiedTime": f.modified,
            "createdTime": f.created,
        }


_ME = {
    "kind": "drive#user",
    "displayName": "Fake User",
    "emailAddress": "me@example.com",
    "me": True,
    "permissionId": "01234567890123456789",
}
