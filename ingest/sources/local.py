"""A local folder tree, filtered by include/exclude globs."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Iterator

from ..blocks import Document
from ..config import LocalSourceConfig
from ..errors import SourceError
from ..loaders import local_document, mime_type_of
from . import Item, Sync
from .globs import Globs


class LocalSource:
    concurrency = 1  # a local read is a file read: threads would only add overhead

    def __init__(self, config: LocalSourceConfig) -> None:
        self.root = config.path.resolve()
        self.globs = Globs.of(config.include, config.exclude)
        self.hidden = config.include_hidden
        self.key = f"local:{self.root}"
        self.errors: list[SourceError] = []
        """Folders the last listing could not read; the run reports them and deletes nothing."""
        if not self.root.is_dir():
            raise SourceError("is not a folder; check source.local.path", subject=str(config.path))

    def sync(self, cursor: str | None) -> Sync:
        """A folder has no change feed: every run lists it; size and mtime say what changed."""
        return Sync(self.items(), complete=True)

    def items(self) -> Iterator[Item]:
        """Matching files in a stable order; ids are paths relative to the root."""
        self.errors.clear()
        for dirpath, dirnames, filenames in os.walk(self.root, onerror=self._walk_error):
            here = Path(dirpath).relative_to(self.root).as_posix()
            dirnames[:] = sorted(d for d in dirnames if (self.hidden or not d.startswith("."))
                                 and not self.globs.excludes_folder(d if here == "." else f"{here}/{d}"))
            for filename in sorted(filenames):
                if not self.hidden and filename.startswith("."):
                    continue
                path = Path(dirpath, filename)
                rel = path.relative_to(self.root).as_posix()
                if not self.globs.wanted(rel):
                    continue
                try:
                    stat = path.stat()
                except OSError:
                    continue  # vanished between listing and stat: it is not there
                yield Item(rel, filename, mime_type_of(path), f"{stat.st_size}:{stat.st_mtime_ns}")

    def read(self, item: Item) -> bytes:
        try:
            return (self.root / item.doc_id).read_bytes()
        except OSError as exc:
            raise SourceError(f"cannot read: {exc.strerror}", subject=item.doc_id) from exc

    def document(self, item: Item, data: bytes) -> Document:
        path = self.root / item.doc_id
        mtime = int(item.fingerprint.split(":")[1]) / 1e9
        return replace(local_document(path, data, mtime, doc_id=item.doc_id), mime_type=item.mime_type)

    def _walk_error(self, exc: OSError) -> None:
        self.errors.append(SourceError(f"cannot list folder: {exc.strerror}", subject=exc.filename))
