"""Chunk vectors, embedded once per text: a vector is reused by the hash of the text it was made from
and the embedder's name, so an edit re-embeds only the chunks whose text changed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..blocks import Chunk
from ..errors import EmbedderError

if TYPE_CHECKING:
    import numpy as np

    from . import Embedder

Cached = Callable[[str, Collection[str]], Mapping[str, "np.ndarray"]]
"""(embedder name, text hashes) -> the stored vector of each hash the store knows."""


def text_hash(text: str) -> str:
    """The key of a vector: what was embedded, not where it sits (a moved chunk keeps its vector)."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class ChunkVectors:
    """The vectors of one document's chunks, in chunk order, as a sink stores them."""

    embedder: str
    """The `Embedder.name` they were made with."""
    hashes: tuple[str, ...]
    """`text_hash` of each chunk's `embed_text`."""
    matrix: np.ndarray
    """(len(chunks), dimensions) float32, unit rows."""
    embedded: int
    """How many distinct texts were embedded now; the others came from the store."""


def embed_chunks(embedder: Embedder, chunks: Sequence[Chunk], cached: Cached | None = None) -> ChunkVectors:
    """Each chunk's `embed_text` vector: from `cached` where the store has it, else embedded in one call."""
    import numpy as np

    hashes = tuple(text_hash(c.embed_text) for c in chunks)
    known = dict(cached(embedder.name, set(hashes))) if cached is not None and hashes else {}
    todo = {h: c.embed_text for h, c in zip(hashes, chunks) if h not in known}  # one call per distinct text
    if todo:
        fresh = checked(embedder, list(todo.values()), embedder.embed(list(todo.values())))
        known.update(zip(todo, fresh))
    matrix = (
        np.stack([known[h] for h in hashes]).astype(np.float32, copy=False)
        if hashes
        else np.zeros((0, embedder.dimensions), np.float32)
    )
    return ChunkVectors(embedder.name, hashes, matrix, len(todo))


def checked(embedder: Embedder, texts: Sequence[str], matrix: object) -> np.ndarray:
    """The embedder's answer, held to the contract: a plugin's mistake is named, not stored."""
    import numpy as np

    array = np.asarray(matrix)
    if array.shape != (len(texts), embedder.dimensions):
        raise EmbedderError(
            f"returned shape {array.shape} for {len(texts)} texts; expected ({len(texts)}, {embedder.dimensions})",
            subject=f"embedder {embedder.name}",
        )
    if not np.isfinite(array).all():
        raise EmbedderError(
            "returned a vector that is not finite (NaN or infinity)", subject=f"embedder {embedder.name}"
        )
    return array.astype(np.float32, copy=False)


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1; an all-zero row (a text with no known token) stays zero."""
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
