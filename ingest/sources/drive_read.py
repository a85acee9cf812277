"""Reading one listed Drive file into what a loader takes: its bytes (`drive_fetch`), who may read
it, a sheet's tab ids, and the `Document` they describe. The same code runs on the driver (a local
run) and on a Ray worker, which builds its own client from a `DriveFetch` the driver hands it: the
driver then downloads nothing, and a cluster fetches as many files at once as it has workers.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TypedDict

from ..blocks import Document
from ..errors import LoaderError
from . import Item
from .drive_auth import DriveKey, credentials_of
from .drive_calls import GoogleCalls
from .drive_fetch import GOOGLE_SHEET, read_content
from .drive_links import sheet_tabs
from .drive_options import DriveSourceConfig
from .drive_permissions import fetch_readers, listed_readers


class Extras(TypedDict, total=False):
    """What a read learnt beside a file's bytes, for its `Document`."""

    readers: tuple[str, ...] | None
    tabs: dict[str, int]


def too_large(meta: dict, config: DriveSourceConfig) -> bool:
    return int(meta.get("size", 0) or 0) / 1e6 > config.max_file_mb


def read_file(calls: GoogleCalls, config: DriveSourceConfig, meta: dict, name: str) -> tuple[bytes, Extras]:
    """The file's bytes and what its `Document` needs beside them; LoaderError when it is over
    `max_file_mb` (nothing downloaded), SourceError when Google would not give it."""
    if too_large(meta, config):
        raise LoaderError(
            f"{int(meta['size']) / 1e6:.0f} MB is over source.drive.max_file_mb ({config.max_file_mb:g}); not downloaded",
            subject=name,
        )
    data = read_content(calls, meta, name)
    readers = listed_readers(meta)
    extras = Extras(readers=readers if readers is not None else fetch_readers(calls, meta, name))
    if meta.get("mimeType") == GOOGLE_SHEET:
        extras["tabs"] = sheet_tabs(calls, meta, name)
    return data, extras


def document_of(item: Item, meta: dict, extras: Extras) -> Document:
    name = meta.get("name", PurePosixPath(item.name).name)
    google = meta.get("mimeType", "").startswith("application/vnd.google-apps.")
    facts = {"drive_path": item.name, "drive_mime_type": meta.get("mimeType", item.mime_type)}
    if extras.get("tabs"):
        facts["drive_sheet_tabs"] = extras["tabs"]
    return Document(
        id=item.doc_id,
        uri=meta.get("webViewLink") or f"https://drive.google.com/open?id={item.doc_id}",
        name=name,
        mime_type=item.mime_type,
        modified=meta.get("modifiedTime", ""),
        version=str(meta.get("version", "")),
        title=name if google else PurePosixPath(name).stem,
        meta=facts,
        readers=extras.get("readers", ()),
    )


@dataclass(frozen=True, slots=True)
class DriveFetch:
    """One file to fetch where it is processed: the listing's metadata, the source's settings with
    no secret in them, and the `DriveKey` (shown by repr as hidden). Picklable; run by calling."""

    item: Item
    meta: dict
    config: DriveSourceConfig
    """`token` and `credentials` cleared: the secret travels only in `key`."""
    key: DriveKey

    @classmethod
    def of(cls, item: Item, meta: dict, config: DriveSourceConfig, key: DriveKey) -> DriveFetch:
        return cls(item, meta, config.model_copy(update={"token": None, "credentials": None}), key)

    def listed(self) -> Document:
        """The document as the listing describes it, before any byte is read (who may read it
        is known only once read: none until then)."""
        return document_of(self.item, self.meta, Extras())

    def __call__(self) -> tuple[bytes, Document]:
        data, extras = read_file(_calls_for(self.config, self.key), self.config, self.meta, self.item.name)
        return data, document_of(self.item, self.meta, extras)


_clients: dict[str, GoogleCalls] = {}
_clients_lock = threading.Lock()


def _calls_for(config: DriveSourceConfig, key: DriveKey) -> GoogleCalls:
    """This process's client for these settings and key, built once (building the APIs costs tens
    of milliseconds, more than a round trip); its connections are per thread."""
    digest = hashlib.sha256(
        "\0".join([config.model_dump_json(), key.token or "", key.key_json or "", key.subject or ""]).encode()
    ).hexdigest()
    with _clients_lock:
        if digest not in _clients:
            _clients[digest] = GoogleCalls(config, credentials_of(key))
        return _clients[digest]
