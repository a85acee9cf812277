"""A local folder tree, filtered by include/exclude globs."""

from __future__ import annotations

import os
from dataclasses import replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Iterator

from ..blocks import Document
from ..config import LocalSourceConfig
from ..errors import SourceError
from ..loaders import local_document, mime_type_of
from . import Item


class LocalSource:
    def __init__(self, config: LocalSourceConfig) -> None:
        self.root = config.path.resolve()
        self.include = tuple(config.include)
        self.exclude = tuple(config.exclude)
        self.hidden = config.include_hidden
        self.key = f"local:{self.root}"
        if not self.root.is_dir():
            raise SourceError("is not a folder; check source.local.path", subject=str(config.path))

    def items(self) -> Iterator[Item]:
        """Matching files in a stable order; ids are paths relative to the root."""
        for dirpath, dirnames, filenames in os.walk(self.root, onerror=self._walk_error):
            if not self.hidden:
                dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            dirnames.sort()
            for filename in sorted(filenames):
                if not self.hidden and filename.startswith("."):
                    continue
                path = Path(dirpath, filename)
                rel = path.relative_to(self.root).as_posix()
                if not self._wanted(rel):
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

    def _wanted(self, rel: str) -> bool:
        return _matches(rel, self.include) and not _matches(rel, self.exclude)

    def _walk_error(self, exc: OSError) -> None:
        raise SourceError(f"cannot list folder: {exc.strerror}", subject=exc.filename)


def _matches(rel: str, patterns: tuple[str, ...]) -> bool:
    return any(
        fnmatchcase(rel, p) or (p.startswith("**/") and fnmatchcase(rel, p[3:])) for p in patterns
    )
