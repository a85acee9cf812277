"""Sources list documents and their versions; the pipeline asks them for bytes only when needed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from ..blocks import Document


@dataclass(frozen=True, slots=True)
class Item:
    """One listed document: enough to decide whether it changed without reading it."""

    doc_id: str
    name: str
    mime_type: str
    fingerprint: str
    """Cheap change signal (size and mtime locally; Drive's version): equal means unchanged."""
    skip: str = ""
    """Why the source lists this entry but will not read it (a symlink out of the folder, a loop);
    it is reported as skipped and is not a document of the source."""


@dataclass(frozen=True, slots=True)
class Sync:
    """What one run looks at: the whole tree, or what changed since the stored cursor."""

    items: Iterable[Item]
    complete: bool
    """`items` is everything the source holds: a known document it does not list is gone."""
    removed: tuple[str, ...] = ()
    """Documents the source reports gone (a change feed's deletions, trashed, moved away)."""
    cursor: str | None = None
    """Stored once the run has written everything, so the next run starts from here."""
    note: str = ""
    """Why a full listing was needed where a change feed was expected (cursor expired...)."""


class Source(Protocol):
    key: str
    """Names the source in the state database, so two sources never mix their documents."""
    errors: list
    """What the last listing could not reach (as `SourceError`s); deletions wait until it can."""
    concurrency: int
    """How many `read`s the pipeline may run at once, each on its own thread (1: one at a time)."""

    def sync(self, cursor: str | None) -> Sync:
        """The items to look at, given the cursor the last complete run stored (None: first run)."""
        ...

    def read(self, item: Item) -> bytes: ...

    def document(self, item: Item, data: bytes) -> Document: ...
