"""Where chunks go. A sink stores each document's chunks idempotently: `write` replaces all of a
document's chunks at once (or leaves the old ones untouched if it fails), `delete` removes them.

One sink per file: `sqlite.py` (the embedded, searchable default), `jsonl.py` (a flat dump).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..blocks import Chunk, Document

if TYPE_CHECKING:
    from ..embedders import ChunkVectors


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


@runtime_checkable
class VectorSink(Protocol):
    """A sink that also stores chunk vectors (a job with `embedder:` needs one): `write` takes the
    document's `ChunkVectors` as a third argument, in the same transaction as its chunks."""

    def write(self, document: Document, chunks: Sequence[Chunk], vectors: ChunkVectors | None = None) -> None: ...

    def cached_vectors(self, embedder: str, hashes: Collection[str]) -> Mapping[str, Any]:
        """The stored vector (float32 array) of each `text_hash` it has one for, made by `embedder`:
        the cache that spares re-embedding unchanged text."""
        ...

    def record_embedder(self, name: str, spec: Mapping[str, Any]) -> None:
        """Remember the config (`EmbedderConfig.spec()`) that opens embedder `name`, for searches."""
        ...


@runtime_checkable
class ReadersSink(Protocol):
    """A sink that stores who may open each document (`Document.readers`) for searches to filter on."""

    def withhold(self, doc_id: str, readers: tuple[str, ...]) -> None:
        """The stored document failed on a newer version: from now on only `readers` (the newer
        version's, or () when not known) may see its kept chunks, so a sharing change that came
        with a bad file still takes effect. A document stored without readers is left alone."""
        ...


from .jsonl import JsonlSink  # noqa: E402  (the sinks subclass Sink)
from .sqlite import SqliteSink  # noqa: E402

__all__ = ["JsonlSink", "Sink", "SqliteSink", "VectorSink"]
