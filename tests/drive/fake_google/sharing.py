"""Who may see what: permissions (and permissions.list), access the fake user loses or regains,
resource keys, and the Sheets API's tab ids.

Drive behaviours mirrored (developers.google.com/workspace/drive/api/guides/manage-sharing,
reference/rest/v3/permissions, guides/resource-keys, reference/rest/v3/changes):
- A file's `permissions` field lists who may open it: its owner, what was shared on it, and what
  it inherits from its folders. Items in shared drives leave the field out ("not populated for
  items in shared drives"): permissions.list (with supportsAllDrives) gives them, the drive's
  members (shared on the drive's root) included, as inherited permissions.
- Sharing or unsharing bumps the file's version and records a change, as any metadata change.
  Sharing a folder records a change for the folder only (the fake's choice: a sync must not rely
  on per-descendant changes).
- A file the user loses access to (`revoke_access`) is 404 everywhere, drops out of listings, and
  shows in the user's change log as `removed: true` ("removed ... for example by deletion or loss
  of access"); `grant_access` brings it back with a change.
- A file with a resource key (`set_resource_key`) answers 404 unless the request carries the
  header `X-Goog-Drive-Resource-Keys: <id>/<key>`; shortcuts to it carry
  `shortcutDetails.targetResourceKey`, the file its `resourceKey`.
- Sheets v4 spreadsheets.get answers `sheets[].properties` (sheetId = the tab's gid, title, index)
  for a Google Sheet, from `add_google_sheet(tabs=...)` or the workbook's sheet names (gid 0 first).
"""

from __future__ import annotations

import hashlib
import re
import threading
import zipfile
from collections.abc import Callable
from io import BytesIO
from typing import TYPE_CHECKING, Any

from .errors import ApiError
from .mime import GOOGLE_SHEET

if TYPE_CHECKING:
    from .store import StoredFile


class Sharing:
    """Mixed into FakeGoogle next to DriveStore."""

    _lock: threading.RLock
    _files: dict[str, StoredFile]
    _shared: set[str]
    _get: Callable[[str], StoredFile]
    _touch: Callable[[StoredFile], None]
    _record: Callable[..., None]
    _log: Callable[..., None]
    _ancestors: Callable[[str], list[str]]
    _drive_of: Callable[[str], str | None]
    _headers: threading.local

    # ------------------------------------------------------------ control API

    def share(
        self,
        file_id: str,
        email: str | None = None,
        *,
        type: str = "user",
        role: str = "reader",
        domain: str | None = None,
        discoverable: bool = False,
    ) -> str:
        """Share `file_id` (a file, a folder, or a shared drive's root for its members); returns
        the permission id. `type` is user, group, domain or anyone."""
        with self._lock:
            f = self._get(file_id)
            perm: dict[str, Any] = {"kind": "drive#permission", "type": type, "role": role}
            if type in ("user", "group"):
                perm |= {"emailAddress": email, "displayName": (email or "").split("@")[0]}
            elif type == "domain":
                perm |= {"domain": domain, "allowFileDiscovery": discoverable}
            elif type == "anyone":
                perm |= {"allowFileDiscovery": discoverable}
            else:
                raise ValueError(f"unknown permission type {type!r}")
            who = email or domain or "anyone"
            perm["id"] = (
                "anyoneWithLink" if type == "anyone" else hashlib.sha1(f"{type}:{who}".encode()).hexdigest()[:20]
            )
            f.permissions = [p for p in f.permissions if p["id"] != perm["id"]] + [perm]
            self._touch(f)
            return perm["id"]

    def unshare(self, file_id: str, who: str) -> None:
        """Remove the permission with id, e-mail address or domain `who` from `file_id`."""
        with self._lock:
            f = self._get(file_id)
            kept = [p for p in f.permissions if who not in (p["id"], p.get("emailAddress"), p.get("domain"))]
            if len(kept) == len(f.permissions):
                raise KeyError(f"{file_id!r} is not shared with {who!r}")
            f.permissions = kept
            self._touch(f)

    def revoke_access(self, file_id: str) -> None:
        """The fake user can no longer open `file_id` (it was unshared from them)."""
        with self._lock:
            f = self._get(file_id)
            f.hidden = True
            self._log(self._drive_of(f.id), f.id, removed=True)

    def grant_access(self, file_id: str) -> None:
        with self._lock:
            f = self._get(file_id)
            f.hidden = False
            self._touch(f)

    def set_resource_key(self, file_id: str, key: str) -> None:
        with self._lock:
            self._get(file_id).resource_key = key

    # ------------------------------------------------------------ what the endpoints use

    def _check_access(self, f: StoredFile) -> None:
        """404 for a file the user cannot open, or whose resource key the request lacks."""
        if f.hidden or any(self._files[a].hidden for a in self._ancestors(f.id)):
            raise ApiError(404, f"File not found: {f.id}.", "notFound", location="fileId", status="NOT_FOUND")
        if f.resource_key:
            sent = getattr(self._headers, "value", {}).get("x-goog-drive-resource-keys", "")
            if f"{f.id}/{f.resource_key}" not in [k.strip() for k in sent.split(",")]:
                raise ApiError(404, f"File not found: {f.id}.", "notFound", location="fileId", status="NOT_FOUND")

    def _effective_permissions(self, f: StoredFile) -> list[dict[str, Any]]:
        """What opens `f`: its owner (My Drive), its own permissions and its folders'."""
        out: dict[str, dict[str, Any]] = {}
        if not self._drive_of(f.id):
            out["owner"] = {
                "kind": "drive#permission",
                "id": "01234567890123456789",
                "type": "user",
                "role": "owner",
                "emailAddress": "me@example.com",
                "displayName": "Fake User",
            }
        for source in [f.id, *self._ancestors(f.id)]:
            for p in self._files[source].permissions:
                inherited = source != f.id
                entry = dict(p, role="owner" if p["role"] == "owner" else p["role"])
                if self._drive_of(f.id):
                    entry["permissionDetails"] = [
                        {
                            "permissionType": "member" if source in self._shared else "file",
                            "role": p["role"],
                            "inherited": inherited,
                            **({"inheritedFrom": source} if inherited else {}),
                        }
                    ]
                out.setdefault(p["id"], entry)
        return list(out.values())

    def _permissions_list(self, file_id: str, p: dict[str, str]) -> dict[str, Any]:
        with self._lock:
            f = self._file_or_404(file_id, p)  # type: ignore[attr-defined]
            perms = self._effective_permissions(f)
            size = int(p.get("pageSize", "100") or 100)
            sig = "\x00".join(["permissions", f.id])
            page, token = self.page(p, sig, perms, max(1, min(size, 100)))  # type: ignore[attr-defined]
            out: dict[str, Any] = {"kind": "drive#permissionList", "permissions": page}
            if token:
                out["nextPageToken"] = token
            return out

    def _spreadsheet(self, sheet_id: str) -> dict[str, Any]:
        with self._lock:
            f = self._files.get(sheet_id)
            if f is None:
                raise ApiError(404, "Requested entity was not found.", status="NOT_FOUND")
            self._check_access(f)
            if f.mime != GOOGLE_SHEET:
                raise ApiError(400, "This operation is not supported for this document", status="FAILED_PRECONDITION")
            tabs = f.tabs if f.tabs is not None else _workbook_tabs(f.content or b"")
        sheets = [
            {"properties": {"sheetId": gid, "title": title, "index": i, "sheetType": "GRID"}}
            for i, (title, gid) in enumerate(tabs.items())
        ]
        return {
            "spreadsheetId": sheet_id,
            "properties": {"title": f.name},
            "sheets": sheets,
            "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{sheet_id}/edit",
        }


def _workbook_tabs(xlsx: bytes) -> dict[str, int]:
    """The workbook's sheet names; gid 0 for the first (as a new sheet's), digits of a hash after."""
    try:
        with zipfile.ZipFile(BytesIO(xlsx)) as zf:
            names = re.findall(rb'<(?:\w+:)?sheet\b[^>]*\bname="([^"]*)"', zf.read("xl/workbook.xml"))
    except (zipfile.BadZipFile, KeyError):
        return {}
    titles = [
        n.decode("utf-8").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
        for n in names
    ]
    return {t: 0 if i == 0 else int(hashlib.sha1(t.encode()).hexdigest()[:7], 16) for i, t in enumerate(titles)}
