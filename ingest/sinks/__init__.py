"""Where chunks go. A sink stores each document's chunks idempotently: `write` replaces all of a
document's chunks at once (or leaves the old ones untouched if it fails), `delete` removes them.

One sink per file: `sqlite.py` (the embedded, searchable default), `jsonl.py` (a flat dump).
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Sequence, runtime_checkable

from ..blocks import Chunk, Document


@runtime_checkable
class Sink(Protocol):
    """Subclass it explicitly to inherit the context-manager methods, which close the sink."""

    def write(self, document: Document, chunks: Sequence[Chunk]) -> None:
        """Replace every chunk of `document` with `chunks`, atomically for that document."""
        ...

    def delete(self, doc_id: str) -> None:
        """Remove the document and its chunks; unknown ids are not an error."""
        ...

    def close(self) -> None:
        """Release the sink; closing twice is harmless."""
        ...

    def identity(self) -> str:
        """An id made when the index was created and kept in it: the state records it, so a
        deleted or swapped index is noticed (and rebuilt) instead of trusted."""
        ...

    def stored(self) -> dict[str, str]:
        """The documents the index holds, id to name (to reconcile it with a source)."""
        ...

    def sync(self) -> None:
        """Make every write so far durable (on disk, not only in a cache): the state records a
        document only after this."""
        ...

    def __enter__(self) -> Sink:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


from .jsonl import JsonlSink  # noqa: E402  (the sinks subclass Sink)
from .sqlite import SqliteSink  # noqa: E402

__all__ = ["JsonlSink", "Sink", "SqliteSink"]
