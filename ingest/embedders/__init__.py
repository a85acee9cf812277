"""Embedders turn chunk texts into vectors, for vector and hybrid search.

The contract every sink and search path relies on (built-ins and plugins from the entry-point
group `ingest.embedders` alike): `embed` takes texts and returns one row per text, float32,
L2-normalised (so a dot product is the cosine), `dimensions` columns. `name` identifies the model
and its settings: a vector is only reused (cached by the chunk's content hash) or compared with
a query vector made under the same name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Sequence, runtime_checkable

if TYPE_CHECKING:  # numpy is imported by the embedders that need it, not by every run
    import numpy as np


@runtime_checkable
class Embedder(Protocol):
    name: str
    """The model and every setting that changes its vectors, e.g. "wordllama:l2_supercat:256"."""
    dimensions: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Shape (len(texts), dimensions), float32, each row of unit length."""
        ...
