"""Google Drive folder trees: listed whole on the first run, then followed through Drive's
changes feed.

- One or more folders (`folder_id`, `folder_ids`), each rooting its own paths; a changes token
  per change log involved (the user's for My Drive and files shared with them, one per shared
  drive), all stored in one cursor (`drive_cursor`).
- Shortcuts are followed (`follow_shortcuts`): a shortcut to a file indexes the target (once,
  however many shortcuts point at it, and not at all when the tree holds it itself), under the
  shortcut's folder; a shortcut to a folder walks that folder as if it were there. A folder
  already walked is not walked again, which ends shortcut cycles. The cursor remembers targets,
  so their edits, trash and loss of access (Drive's `removed`) and the shortcut's own deletion
  are followed.
- A change to a file under a folder of the tree is picked up; a file trashed, deleted, moved out
  or now excluded is removed; a folder created in or moved into the tree is listed on its own; a
  change to a folder of the tree (renamed, moved, trashed) lists the whole tree again, since
  every path below it may have changed. An expired token does the same, and says so.
- Tokens are taken before a full listing, so whatever changes while the tree is listed is seen by
  the next run. The feed is read by `drive_changes`, content by `drive_fetch` (thread-safe: the
  pipeline reads `concurrency` files at once), readers by `drive_permissions`, a sheet's tabs by
  `drive_links`; every request goes through `drive_calls` (retries, the shared rate gate).
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from ..blocks import Document, readers_tag
from ..errors import LoaderError, SourceError
from ..loaders import mime_type_of, supports
from . import Item, Sync
from .drive_auth import DriveKey, credentials
from .drive_calls import GoogleCalls
from .drive_changes import Expired, read_changes, start_token
from .drive_cursor import DriveCursor
from .drive_errors import status_of
from .drive_fetch import EXPORTS, resource_key_header
from .drive_options import DriveSourceConfig
from .drive_permissions import PERMISSION_FIELDS, listed_readers
from .drive_read import DriveFetch, Extras, document_of, read_file, too_large
from .globs import Globs

FOLDER = "application/vnd.google-apps.folder"
SHORTCUT = "application/vnd.google-apps.shortcut"
_FIELDS = (
    "id,name,mimeType,parents,trashed,version,modifiedTime,md5Checksum,size,webViewLink,driveId,resourceKey,"
    f"shortcutDetails(targetId,targetMimeType,targetResourceKey),permissions({PERMISSION_FIELDS})"
)


@dataclass(slots=True)
class _Tree:
    """What a listing found, grown as it goes (the cursor's content, plus the items)."""

    tokens: dict[str, str]
    folders: dict[str, str]
    shortcuts: dict[str, str] = field(default_factory=dict)
    targets: dict[str, str] = field(default_factory=dict)
    """File target -> the folder path of the shortcut that reached it."""
    items: dict[str, Item] = field(default_factory=dict)


class DriveSource:
    def __init__(self, config: DriveSourceConfig) -> None:
        self.config = config
        self.roots = config.roots()
        # Named by its first folder, so adding or removing others keeps its documents (and deletes
        # what a removed folder held) rather than starting a new source beside the old one.
        self.key = f"drive:{config.shared_drive_id or 'my-drive'}:{self.roots[0]}"
        self.concurrency = config.concurrency
        """How many files the pipeline may read at once (each in its own thread and client)."""
        self.errors: list[SourceError] = []
        self.globs = Globs.of(config.include, config.exclude)
        self._files: dict[str, dict] = {}
        """Metadata of the files this run lists, by id: `read` and `document` need it."""
        self._extras: dict[str, Extras] = {}
        """What `read` learnt beside the bytes (readers, sheet tabs), for `document`."""
        self._key: DriveKey | None = None
        self.calls = GoogleCalls(config, credentials(config))

    # -- what changed ----------------------------------------------------------------------

    def sync(self, cursor: str | None) -> Sync:
        self.errors.clear()
        saved = DriveCursor.parse(cursor)
        if saved is None:
            return self._full("")
        if saved.scope != self.scope_key():  # include/exclude changed: what belongs is new
            return self._full(
                "the folders, include, exclude, follow_shortcuts or max_file_mb changed since "
                "the last run; the whole tree was listed again"
            )
        try:
            changes, tokens = read_changes(self.calls, saved.tokens, _FIELDS)
        except Expired:
            return self._full("the Drive change cursor had expired; the whole folder was listed again")
        except SourceError as exc:
            self.errors.append(exc)
            return Sync((), complete=False)
        tree = _Tree(tokens, dict(saved.folders), dict(saved.shortcuts), dict(saved.targets))
        return self._apply(changes, tree)

    def _apply(self, changes: dict[str, dict], tree: _Tree) -> Sync:
        """The items and removals the changes make, or a full listing where a folder of the tree
        itself changed (or a shortcut to one)."""
        new_folders: dict[str, dict] = {}
        shortcuts: dict[str, dict] = {}
        files: dict[str, dict] = {}
        for file_id, change in changes.items():
            meta = change.get("file") or {}
            if file_id in tree.folders:
                return self._full("")  # a folder of the tree changed: every path below it may have
            if meta.get("mimeType") == FOLDER:
                if not _gone(change):
                    new_folders[file_id] = meta  # ours if it hangs below the tree (checked below)
            elif file_id in tree.shortcuts or meta.get("mimeType") == SHORTCUT:
                shortcuts[file_id] = change
            else:
                files[file_id] = change
        self._place_new_folders(new_folders, tree)
        lost: set[str] = set()
        for shortcut_id, change in shortcuts.items():
            old = tree.shortcuts.pop(shortcut_id, None)
            if old in tree.folders:
                return self._full("")  # a followed folder's shortcut changed: its tree may be gone
            if old is not None and old not in tree.shortcuts.values():
                lost.add(old)
            meta = change.get("file") or {}
            parent = _parent_in(meta, tree.folders)
            if not _gone(change) and parent is not None:
                self._walk(self._follow(meta, tree.folders[parent], tree), tree)
        for target in lost - set(tree.shortcuts.values()):
            tree.targets.pop(target, None)
        removed: list[str] = [t for t in lost if t not in tree.items]
        for file_id, change in files.items():
            meta = change.get("file") or {}
            parent = _parent_in(meta, tree.folders)
            item = None
            if not _gone(change):
                if parent is not None:
                    item = self._item(meta, tree.folders[parent])
                elif file_id in tree.targets:  # reached through a shortcut: indexed where that lives
                    item = self._item(meta, tree.targets[file_id])
            if item is not None:
                tree.items[file_id] = item
            elif file_id not in tree.items:
                removed.append(file_id)  # gone, moved out, unshared, excluded, or never ours (ignored then)
        return Sync(tuple(tree.items.values()), complete=False, removed=tuple(removed), cursor=self._cursor(tree))

    def _place_new_folders(self, new_folders: dict[str, dict], tree: _Tree) -> None:
        """A folder created in (or moved into) the tree is listed on its own, parents first; its
        files and folders need no change entries of their own, which Drive may not send."""
        placed = True
        while placed:
            placed = False
            for folder_id, meta in list(new_folders.items()):
                parent = _parent_in(meta, tree.folders)
                if parent is None:
                    continue
                del new_folders[folder_id]
                placed = True
                path = _join(tree.folders[parent], meta.get("name", folder_id))
                if folder_id not in tree.folders and not self.globs.excludes_folder(path):
                    tree.folders[folder_id] = path
                    self._walk([(folder_id, meta.get("driveId") or "")], tree)

    def _full(self, note: str) -> Sync:
        tree = _Tree({}, {})
        starts: list[tuple[str, str]] = []
        for root_id in self.roots:
            try:
                root = self.calls.call(
                    self.calls.files().get(
                        fileId=root_id, supportsAllDrives=True, fields="id,name,mimeType,trashed,driveId"
                    ),
                    f"folder {root_id}",
                )
                if root.get("mimeType") != FOLDER or root.get("trashed"):
                    raise SourceError(
                        "is not a folder (or is in the trash); check source.drive.folder_id and folder_ids",
                        subject=root_id,
                    )
                # A folder in a shared drive has its own changes feed: without its id, none would be seen.
                drive = (
                    (self.config.shared_drive_id if root_id == self.config.folder_id else None)
                    or root.get("driveId")
                    or ""
                )
                self._follow_log(drive, tree)  # before the listing: what changes while it runs is seen next time
            except (SourceError, LoaderError) as exc:
                self.errors.append(exc if isinstance(exc, SourceError) else SourceError(str(exc)))
                continue
            if root["id"] not in tree.folders:
                tree.folders[root["id"]] = ""
                starts.append((root["id"], drive))
        if not starts:
            return Sync((), complete=True)
        self._walk(starts, tree)
        return Sync(tuple(tree.items.values()), complete=True, cursor=self._cursor(tree), note=note)

    def _walk(self, starts: list[tuple[str, str]], tree: _Tree) -> None:
        """Every wanted file below `starts` ((folder, change log) pairs whose paths `tree.folders`
        holds) into `tree.items`; `tree` gains every folder, shortcut and target on the way.

        Breadth first, a level at a time: the folders of one level are listed `concurrency` at
        once, then their children taken in order, so the result is what a serial walk finds."""
        level = list(starts)
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="list") as pool:
            while level:
                level = self._walk_level(level, tree, pool)

    def _walk_level(self, level: list[tuple[str, str]], tree: _Tree, pool: ThreadPoolExecutor) -> list[tuple[str, str]]:
        """List the folders of `level` (at once), take their children in order; the next level."""
        if len(level) > 1 and self.concurrency > 1:
            listings = list(pool.map(lambda entry: self._children(entry[0], tree.folders[entry[0]], entry[1]), level))
        else:
            listings = [self._children(folder, tree.folders[folder], drive) for folder, drive in level]
        next_level: list[tuple[str, str]] = []
        for (folder, drive), children in zip(level, listings):
            for meta in children:
                if meta.get("mimeType") == FOLDER:
                    path = _join(tree.folders[folder], meta["name"])
                    # An excluded folder is not listed at all; one seen already (through a shortcut) not twice.
                    if not self.globs.excludes_folder(path) and meta["id"] not in tree.folders:
                        tree.folders[meta["id"]] = path
                        next_level.append((meta["id"], meta.get("driveId") or drive))
                elif meta.get("mimeType") == SHORTCUT:
                    next_level.extend(self._follow(meta, tree.folders[folder], tree))
                elif (item := self._item(meta, tree.folders[folder])) is not None:
                    tree.items[meta["id"]] = item
                    tree.targets.pop(meta["id"], None)  # where it lives beats where a shortcut points from
        return next_level

    def _follow(self, shortcut: dict, folder_path: str, tree: _Tree) -> list[tuple[str, str]]:
        """Follow `shortcut` (in the tree at `folder_path`): a file target becomes an item, a
        folder target is returned to be walked. Nothing happens twice for one target."""
        details = shortcut.get("shortcutDetails") or {}
        target_id = details.get("targetId")
        if not self.config.follow_shortcuts or not target_id:
            return []
        tree.shortcuts[shortcut["id"]] = target_id
        is_folder = details.get("targetMimeType") == FOLDER
        path = _join(folder_path, shortcut.get("name", target_id))
        if target_id in tree.folders or target_id in tree.items or (is_folder and self.globs.excludes_folder(path)):
            return []  # walked already (a cycle, or two shortcuts), or indexed where it lives
        if not is_folder:
            tree.targets[target_id] = folder_path  # remembered even if unreachable now: it may be shared later
        key = {"id": target_id, "resourceKey": details.get("targetResourceKey")}
        request = self.calls.files().get(fileId=target_id, supportsAllDrives=True, fields=_FIELDS)
        request.headers.update(resource_key_header(key))
        try:
            target = self.calls.call(request, f"shortcut {path}")
        except (SourceError, LoaderError) as exc:
            if status_of(exc) != 404:  # 404: deleted or not shared with us: nothing to index
                self.errors.append(exc if isinstance(exc, SourceError) else SourceError(str(exc)))
            return []
        if target.get("trashed"):
            return []
        self._follow_log(target.get("driveId") or "", tree)
        if key["resourceKey"] and not target.get("resourceKey"):
            target["resourceKey"] = key["resourceKey"]
        if target.get("mimeType") == FOLDER:
            tree.folders[target_id] = path
            return [(target_id, target.get("driveId") or "")]
        item = self._item(target, folder_path)
        if item is not None:
            tree.items[target_id] = item
        return []

    def _children(self, folder: str, path: str, drive: str) -> list[dict]:
        """Every child of `folder`, all pages; what was listed before a page failed (the failure
        is in `errors`, so nothing is deleted on its account)."""
        query = f"'{folder}' in parents and trashed = false"
        children: list[dict] = []
        page = None
        while True:
            try:
                listing = self.calls.call(
                    self.calls.files().list(
                        q=query,
                        fields=f"nextPageToken,files({_FIELDS})",
                        pageSize=1000,
                        pageToken=page,
                        orderBy="folder,name",
                        **_list_scope(drive),
                    ),
                    f"folder {path or '/'}",
                )
            except (SourceError, LoaderError) as exc:  # the folder's other files are unknown: delete nothing
                self.errors.append(exc if isinstance(exc, SourceError) else SourceError(str(exc)))
                return children
            children += listing.get("files", ())
            page = listing.get("nextPageToken")
            if not page:
                return children

    def _follow_log(self, drive: str, tree: _Tree) -> None:
        """Start following `drive`'s change log ("" the user's) from now, if not yet followed."""
        if drive not in tree.tokens:
            tree.tokens[drive] = start_token(self.calls, drive)

    def scope_key(self) -> str:
        """The settings that decide which files are read; a change lists the tree again."""
        c = self.config
        return json.dumps([c.include, c.exclude, c.max_file_mb, list(self.roots), c.follow_shortcuts])

    def _cursor(self, tree: _Tree) -> str:
        return DriveCursor(tree.tokens, tree.folders, self.scope_key(), tree.shortcuts, tree.targets).dump()

    def _item(self, meta: dict, folder_path: str) -> Item | None:
        path = _join(folder_path, meta.get("name", meta["id"]))
        if meta.get("mimeType") in (SHORTCUT, FOLDER) or not self.globs.wanted(path):
            return None
        self._files[meta["id"]] = {**meta, "path": path}
        mime = EXPORTS.get(meta.get("mimeType", ""), meta.get("mimeType", ""))
        if not supports(mime) and not mime.startswith("application/vnd.google-apps."):
            mime = mime_type_of(path)  # Drive says application/octet-stream when it cannot tell
        # version moves with every change, metadata included; the content hash then tells a
        # change of sharing or comments on a binary file from an edit, which is not chunked again.
        fingerprint = meta.get("version") or f"{meta.get('md5Checksum', '')}:{meta.get('modifiedTime', '')}"
        readers = listed_readers(meta)
        if readers is not None:  # a sharing change reaches us even where Drive keeps the version
            fingerprint += f"|readers {readers_tag(readers)}"
        if too_large(meta, self.config):  # refused under this limit: a new limit is worth another look
            fingerprint += f"|over {self.config.max_file_mb:g} MB"
        return Item(meta["id"], path, mime, fingerprint)

    # -- reading (from any thread) ---------------------------------------------------------

    def read(self, item: Item) -> bytes:
        meta = self._files.get(item.doc_id, {"id": item.doc_id, "mimeType": item.mime_type})
        data, extras = read_file(self.calls, self.config, meta, item.name)
        self._extras[item.doc_id] = extras
        return data

    def document(self, item: Item, data: bytes) -> Document:
        return document_of(item, self._files.get(item.doc_id, {}), self._extras.pop(item.doc_id, Extras()))

    def remote_fetch(self, item: Item) -> DriveFetch:
        """`item`'s fetch, for a worker elsewhere to run with its own client: the driver then
        downloads nothing."""
        if self._key is None:
            self._key = DriveKey.of(self.config)
        meta = self._files.get(item.doc_id, {"id": item.doc_id, "mimeType": item.mime_type})
        return DriveFetch.of(item, meta, self.config, self._key)


def _gone(change: dict) -> bool:
    return change.get("removed", False) or (change.get("file") or {}).get("trashed", False)


def _parent_in(meta: dict, folders: dict[str, str]) -> str | None:
    return next((p for p in meta.get("parents", ()) if p in folders), None)


def _list_scope(drive: str) -> dict:
    if drive:
        return {"driveId": drive, "corpora": "drive", "supportsAllDrives": True, "includeItemsFromAllDrives": True}
    return {"supportsAllDrives": True, "includeItemsFromAllDrives": True}


def _join(folder: str, name: str) -> str:
    name = name.replace("/", "\u2215")  # a slash in a Drive name is not a folder boundary
    return f"{folder}/{name}" if folder else name
