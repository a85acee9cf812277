"""A Google Drive folder tree: listed whole on the first run, then followed through Drive's
changes feed.

- Binary files (PDF, Word, Excel, Markdown, text) are downloaded in ranged chunks; Google Sheets
  are exported as .xlsx and Google Slides as PDF; Google Docs are read through the Docs API,
  which keeps what an export loses (heading styles, list numbering, suggestions, tabs), with
  their comments from the Drive API added under "comments" for the loader to place. Forms, drawings and other Google types
  have no loader and are reported as skipped; shortcuts are not followed.
- The cursor stored after a run holds the changes-feed token and the tree's folders (id -> path).
  A change to a file under one of them is picked up; a file trashed, deleted, moved out or now
  excluded is removed; a folder created in or moved into the tree is listed on its own; a change
  to a folder of the tree (renamed, moved, trashed) lists the whole tree again, since every path
  below it may have changed. An expired token does the same, and says so.
- The token is taken before a full listing, so whatever changes while the tree is listed is seen
  by the next run. Requests that meet a rate limit (429, 403 rate-limit reasons), a 5xx or a
  dropped connection are retried with exponential back-off by the client library itself.
"""

from __future__ import annotations

import io
import json
from collections import deque
from pathlib import PurePosixPath
from typing import Iterator

from ..blocks import Document
from ..config import DriveSourceConfig
from ..errors import ConfigError, LoaderError, SourceError
from ..loaders import GOOGLE_DOC, mime_type_of, supports
from . import Item, Sync
from .globs import Globs

FOLDER = "application/vnd.google-apps.folder"
GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet"
GOOGLE_SLIDES = "application/vnd.google-apps.presentation"
SHORTCUT = "application/vnd.google-apps.shortcut"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SCOPES = ("https://www.googleapis.com/auth/drive.readonly", "https://www.googleapis.com/auth/documents.readonly")
_FIELDS = "id,name,mimeType,parents,trashed,version,modifiedTime,md5Checksum,size,webViewLink"
_COMMENT_FIELDS = ("id,content,author(displayName,emailAddress),createdTime,resolved,deleted,"
                   "quotedFileContent(mimeType,value),replies(id,content,author(displayName,emailAddress),createdTime,deleted)")
_EXPORTS = {GOOGLE_SHEET: XLSX, GOOGLE_SLIDES: "application/pdf"}
"""Google formats read as an export (a deck as PDF: a page a slide, read by the PDF loader);
Google Docs go through the Docs API instead."""
_CHUNK = 8 * 1024 * 1024


class DriveSource:
    def __init__(self, config: DriveSourceConfig) -> None:
        self.config = config
        self.key = f"drive:{config.shared_drive_id or 'my-drive'}:{config.folder_id}"
        self.errors: list[SourceError] = []
        self.globs = Globs.of(config.include, config.exclude)
        self._files: dict[str, dict] = {}
        """Metadata of the files this run lists, by id: `read` and `document` need it."""
        self._drive_id = config.shared_drive_id
        """The shared drive the folder lives in (None: My Drive), as configured or as Drive says."""
        self._drive, self._docs = _services(config)

    # -- what changed ----------------------------------------------------------------------

    def sync(self, cursor: str | None) -> Sync:
        self.errors.clear()
        saved = _Cursor.parse(cursor)
        if saved is None:
            return self._full("")
        self._drive_id = self._drive_id or saved.drive_id
        if saved.scope != self._scope_key():  # include/exclude changed: what belongs is new
            return self._full("include, exclude or max_file_mb changed since the last run; "
                              "the whole folder was listed again")
        try:
            changes, token = self._changes(saved.token)
        except _Expired:
            return self._full("the Drive change cursor had expired; the whole folder was listed again")
        except SourceError as exc:
            self.errors.append(exc)
            return Sync((), complete=False)
        return self._apply(changes, token, saved)

    def _apply(self, changes: dict[str, dict], token: str, saved: _Cursor) -> Sync:
        """The items and removals the changes since `saved` make, or a full listing where a folder
        of the tree itself changed."""
        folders = dict(saved.folders)
        items: dict[str, Item] = {}
        new_folders: dict[str, dict] = {}
        files: dict[str, dict] = {}
        for file_id, change in changes.items():
            meta = change.get("file") or {}
            gone = change.get("removed", False) or meta.get("trashed", False)
            if file_id in folders:
                return self._full("")  # a folder of the tree changed: every path below it may have
            if meta.get("mimeType") == FOLDER:
                if not gone:
                    new_folders[file_id] = meta  # ours if it hangs below the tree (checked below)
            else:
                files[file_id] = change
        # A folder created in (or moved into) the tree is listed on its own, parents first; its
        # files and folders need no change entries of their own, which Drive may not send.
        placed = True
        while placed:
            placed = False
            for folder_id, meta in list(new_folders.items()):
                parent = next((p for p in meta.get("parents", ()) if p in folders), None)
                if parent is None:
                    continue
                del new_folders[folder_id]
                placed = True
                path = _join(folders[parent], meta.get("name", folder_id))
                if folder_id not in folders and not self.globs.excludes_folder(path):
                    folders[folder_id] = path
                    items.update((i.doc_id, i) for i in self._walk([folder_id], folders))
        removed: list[str] = []
        for file_id, change in files.items():
            meta = change.get("file") or {}
            gone = change.get("removed", False) or meta.get("trashed", False)
            parent = next((p for p in meta.get("parents", ()) if p in folders), None)
            item = None if gone or parent is None else self._item(meta, folders[parent])
            if item is not None:
                items[file_id] = item
            elif file_id not in items:
                removed.append(file_id)  # gone, moved out, excluded, or never ours (ignored then)
        return Sync(tuple(items.values()), complete=False, removed=tuple(removed),
                    cursor=_Cursor(token, folders, saved.scope, self._drive_id).dump())

    def _full(self, note: str) -> Sync:
        try:
            root = self._call(self._drive.files().get(fileId=self.config.folder_id, supportsAllDrives=True,
                                                      fields="id,name,mimeType,trashed,driveId"),
                              f"folder {self.config.folder_id}")
            # A folder in a shared drive has its own changes feed: without its id, none would be seen.
            self._drive_id = self._drive_id or root.get("driveId")
            token = self._start_token()  # before the listing: what changes while it runs is seen next time
        except (SourceError, LoaderError) as exc:
            self.errors.append(exc if isinstance(exc, SourceError) else SourceError(str(exc)))
            return Sync((), complete=True)
        if root.get("mimeType") != FOLDER or root.get("trashed"):
            self.errors.append(SourceError("is not a folder (or is in the trash); check source.drive.folder_id",
                                           subject=self.config.folder_id))
            return Sync((), complete=True)
        folders = {root["id"]: ""}
        items = self._walk([root["id"]], folders)
        return Sync(tuple(items), complete=True, cursor=_Cursor(token, folders, self._scope_key(), self._drive_id).dump(),
                    note=note)

    def _walk(self, starts: list[str], folders: dict[str, str]) -> list[Item]:
        """The wanted files below `starts` (folders whose paths `folders` holds), which gains every
        folder found on the way."""
        items: list[Item] = []
        queue = deque(starts)  # breadth first: a folder's path is known before its children
        while queue:
            folder = queue.popleft()
            for meta in self._children(folder, folders[folder]):
                if meta.get("mimeType") == FOLDER:
                    path = _join(folders[folder], meta["name"])
                    if not self.globs.excludes_folder(path):  # an excluded folder is not listed at all
                        folders[meta["id"]] = path
                        queue.append(meta["id"])
                    continue
                item = self._item(meta, folders[folder])
                if item is not None:
                    items.append(item)
        return items

    def _children(self, folder: str, path: str) -> Iterator[dict]:
        query = f"'{folder}' in parents and trashed = false"
        page = None
        while True:
            try:
                listing = self._call(self._drive.files().list(
                    q=query, fields=f"nextPageToken,files({_FIELDS})", pageSize=1000, pageToken=page,
                    orderBy="folder,name", **self._scope()), f"folder {path or '/'}")
            except (SourceError, LoaderError) as exc:  # the folder's other files are unknown: delete nothing
                self.errors.append(exc if isinstance(exc, SourceError) else SourceError(str(exc)))
                return
            yield from listing.get("files", ())
            page = listing.get("nextPageToken")
            if not page:
                return

    def _changes(self, token: str) -> tuple[dict[str, dict], str]:
        """The last change of each file since `token`, and the token to start from next time."""
        from googleapiclient.errors import HttpError

        latest: dict[str, dict] = {}
        page = token
        while True:
            request = self._drive.changes().list(
                pageToken=page, pageSize=1000, includeRemoved=True, spaces="drive",
                fields=f"nextPageToken,newStartPageToken,changes(fileId,removed,changeType,file({_FIELDS}))",
                **self._scope(changes=True))
            try:
                listing = self._call(request, "the Drive changes feed")
            except SourceError as exc:
                if isinstance(exc.__cause__, HttpError) and exc.__cause__.resp.status in (400, 404, 410):
                    raise _Expired from exc  # Drive's answers to a token it no longer accepts
                raise
            for change in listing.get("changes", ()):
                if change.get("changeType", "file") == "file" and change.get("fileId"):
                    latest.pop(change["fileId"], None)
                    latest[change["fileId"]] = change
            if listing.get("newStartPageToken"):
                return latest, listing["newStartPageToken"]
            page = listing.get("nextPageToken")
            if not page:
                raise SourceError("the changes feed ended without a new start token", subject="the Drive changes feed")

    def _scope_key(self) -> str:
        """The settings that decide which files are read; a change lists the tree again."""
        return json.dumps([self.config.include, self.config.exclude, self.config.max_file_mb])

    def _start_token(self) -> str:
        kwargs = {"driveId": self._drive_id, "supportsAllDrives": True} if self._drive_id else {}
        return self._call(self._drive.changes().getStartPageToken(**kwargs), "the Drive changes feed")["startPageToken"]

    def _scope(self, changes: bool = False) -> dict:
        drive_id = self._drive_id
        if drive_id:
            shared = {"driveId": drive_id, "supportsAllDrives": True, "includeItemsFromAllDrives": True}
            return shared if changes else {**shared, "corpora": "drive"}
        return {} if changes else {"supportsAllDrives": True, "includeItemsFromAllDrives": True}

    def _item(self, meta: dict, folder_path: str) -> Item | None:
        path = _join(folder_path, meta.get("name", meta["id"]))
        if meta.get("mimeType") == SHORTCUT or not self.globs.wanted(path):
            return None  # a shortcut is a pointer, not a document: its target is read where it lives
        self._files[meta["id"]] = {**meta, "path": path}
        mime = _EXPORTS.get(meta.get("mimeType", ""), meta.get("mimeType", ""))
        if not supports(mime) and not mime.startswith("application/vnd.google-apps."):
            mime = mime_type_of(path)  # Drive says application/octet-stream when it cannot tell
        # version moves with every change, metadata included; the content hash then tells a
        # change of sharing or comments on a binary file from an edit, which is not chunked again.
        fingerprint = meta.get("version") or f"{meta.get('md5Checksum', '')}:{meta.get('modifiedTime', '')}"
        if self._too_large(meta):  # refused under this limit: a new limit is worth another look
            fingerprint += f"|over {self.config.max_file_mb:g} MB"
        return Item(meta["id"], path, mime, fingerprint)

    def _too_large(self, meta: dict) -> bool:
        return int(meta.get("size", 0) or 0) / 1e6 > self.config.max_file_mb

    # -- reading ---------------------------------------------------------------------------

    def read(self, item: Item) -> bytes:
        meta = self._files.get(item.doc_id, {})
        mime = meta.get("mimeType", item.mime_type)
        if self._too_large(meta):
            raise LoaderError(f"{int(meta['size']) / 1e6:.0f} MB is over source.drive.max_file_mb "
                              f"({self.config.max_file_mb:g}); not downloaded", subject=item.name)
        if mime == GOOGLE_DOC:
            doc = self._call(self._docs.documents().get(
                documentId=item.doc_id, suggestionsViewMode="SUGGESTIONS_INLINE", includeTabsContent=True), item.name)
            doc["comments"] = self._comments(item)  # the Docs API has none; the loader places them
            return json.dumps(doc, ensure_ascii=False, sort_keys=True).encode("utf-8")
        if mime in _EXPORTS:
            return self._call(self._drive.files().export_media(fileId=item.doc_id, mimeType=_EXPORTS[mime]), item.name)
        return self._download(item)

    def _comments(self, item: Item) -> list[dict]:
        comments: list[dict] = []
        page = None
        while True:
            listing = self._call(self._drive.comments().list(
                fileId=item.doc_id, fields=f"nextPageToken,comments({_COMMENT_FIELDS})", pageSize=100,
                pageToken=page, includeDeleted=False), f"{item.name} (comments)")
            comments += listing.get("comments", ())
            page = listing.get("nextPageToken")
            if not page:
                return comments

    def _download(self, item: Item) -> bytes:
        from googleapiclient.http import MediaIoBaseDownload

        buffer = io.BytesIO()
        request = self._drive.files().get_media(fileId=item.doc_id, supportsAllDrives=True)
        download = MediaIoBaseDownload(buffer, request, chunksize=_CHUNK)
        done = False
        while not done:
            _, done = self._call(_Chunk(download), item.name)
        return buffer.getvalue()

    def document(self, item: Item, data: bytes) -> Document:
        meta = self._files.get(item.doc_id, {})
        name = meta.get("name", PurePosixPath(item.name).name)
        google = meta.get("mimeType", "").startswith("application/vnd.google-apps.")
        return Document(
            id=item.doc_id,
            uri=meta.get("webViewLink") or f"https://drive.google.com/open?id={item.doc_id}",
            name=name,
            mime_type=item.mime_type,
            modified=meta.get("modifiedTime", ""),
            version=str(meta.get("version", "")),
            title=name if google else PurePosixPath(name).stem,
            meta={"drive_path": item.name, "drive_mime_type": meta.get("mimeType", item.mime_type)},
        )

    def _call(self, request, subject: str) -> dict | bytes:
        import httplib2
        from google.auth.exceptions import GoogleAuthError
        from googleapiclient.errors import HttpError

        try:
            return request.execute(num_retries=self.config.retries)
        except HttpError as exc:
            raise _source_error(exc, subject) from exc
        except (OSError, httplib2.HttpLib2Error) as exc:  # no connection (or no DNS) on every retry
            raise SourceError(f"cannot reach Google: {exc!r}", subject=subject) from exc
        except GoogleAuthError as exc:  # a rejected or expired token that cannot be refreshed
            raise SourceError(f"Google refused the credentials: {exc}", subject=subject) from exc


class _Chunk:
    """The next ranged piece of a download, asked for like any other request."""

    def __init__(self, download) -> None:
        self.download = download

    def execute(self, num_retries: int):
        return self.download.next_chunk(num_retries=num_retries)


class _Expired(Exception):
    """The stored changes token is no longer accepted."""


class _Cursor:
    """The changes-feed token, the tree's folders (id -> path), the settings they were listed
    under and the shared drive they live in, stored as JSON."""

    def __init__(self, token: str, folders: dict[str, str], scope: str, drive_id: str | None) -> None:
        self.token = token
        self.folders = folders
        self.scope = scope
        self.drive_id = drive_id

    @classmethod
    def parse(cls, text: str | None) -> _Cursor | None:
        if not text:
            return None
        try:
            raw = json.loads(text)
            return cls(str(raw["token"]), {str(k): str(v) for k, v in raw["folders"].items()}, str(raw["scope"]),
                       raw["drive"])
        except (ValueError, KeyError, TypeError, AttributeError):
            return None  # not ours (or from an older version): list everything

    def dump(self) -> str:
        return json.dumps({"token": self.token, "folders": self.folders, "scope": self.scope, "drive": self.drive_id},
                          sort_keys=True)


def _join(folder: str, name: str) -> str:
    name = name.replace("/", "\u2215")  # a slash in a Drive name is not a folder boundary
    return f"{folder}/{name}" if folder else name


def _source_error(exc, subject: str) -> SourceError | LoaderError:
    """Drive's error as ours: a file that cannot be had in this form is a verdict on the file
    (LoaderError, tried again only when it changes); anything else may pass (SourceError)."""
    status = exc.resp.status
    reason = ""
    try:
        error = json.loads(exc.content.decode("utf-8")).get("error", {})
        reason = (error.get("errors") or [{}])[0].get("reason", "") or error.get("status", "")
        message = error.get("message", "")
    except (ValueError, AttributeError):
        message = str(exc)
    text = f"Drive answered {status}{f' {reason}' if reason else ''}: {message}".rstrip(": ")
    # A file Drive will not hand over (download restricted, not exportable, no permission) is a
    # verdict on this version: retried when it changes, so it does not hold the cursor forever.
    # Rate limits, 5xx and 404 (gone since it was listed) may pass: tried again next run.
    if status == 403 and reason not in _PASSING_403:
        return LoaderError(text, subject=subject)
    return SourceError(text, subject=subject)


_PASSING_403 = frozenset({"userRateLimitExceeded", "rateLimitExceeded", "dailyLimitExceeded", "quotaExceeded",
                          "sharingRateLimitExceeded", "RESOURCE_EXHAUSTED"})


def _services(config: DriveSourceConfig):
    import google_auth_httplib2
    import httplib2
    from googleapiclient.discovery import build

    http = google_auth_httplib2.AuthorizedHttp(_credentials(config), http=httplib2.Http(timeout=config.timeout_s))
    drive = build("drive", "v3", http=http, static_discovery=True, cache_discovery=False,
                  client_options={"api_endpoint": config.drive_endpoint})
    docs = build("docs", "v1", http=http, static_discovery=True, cache_discovery=False,
                 client_options={"api_endpoint": config.docs_endpoint})
    return drive, docs


def _credentials(config: DriveSourceConfig):
    from google.oauth2 import credentials as user, service_account

    if config.token:
        return user.Credentials(token=config.token)
    if config.credentials is None:
        import google.auth
        from google.auth.exceptions import DefaultCredentialsError

        try:
            found, _ = google.auth.default(scopes=SCOPES)
        except DefaultCredentialsError as exc:
            raise ConfigError("no Google credentials: set source.drive.credentials (a key file) or "
                              "source.drive.token, or configure Application Default Credentials",
                              subject="source.drive") from exc
        return found
    path = str(config.credentials)
    try:
        info = json.loads(config.credentials.read_text(encoding="utf-8"))
        kind = info.get("type")
        if kind == "service_account":
            creds = service_account.Credentials.from_service_account_info(info, scopes=SCOPES)
            return creds.with_subject(config.subject) if config.subject else creds
        if kind == "authorized_user":
            return user.Credentials.from_authorized_user_info(info, scopes=SCOPES)
    except (OSError, ValueError, AttributeError) as exc:
        raise ConfigError(f"not a usable Google key file: {exc}", subject=path) from exc
    raise ConfigError("a key file of type service_account or authorized_user is needed", subject=path)
