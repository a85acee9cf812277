"""Sources list documents and their versions; the pipeline asks them for bytes only when needed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Protocol

from ..blocks import Document


@dataclass(frozen=True, slots=True)
class Item:
    """One listed document: enough to decide whether it changed without reading it."""

    doc_id: str
    name: str
    mime_type: str
    fingerprint: str
    """Cheap change signal (size and mtime locally; Drive's version): equal means unchanged."""


class Source(Protocol):
    key: str
    """Names the source in the state database, so two sources never mix their documents."""
    errors: list
    """What the last listing could not reach (as `SourceError`s); deletions wait until it can."""

    def items(self) -> Iterator[Item]: ...

    def read(self, item: Item) -> bytes: ...

    def document(self, item: Item, data: bytes) -> Document: ...
