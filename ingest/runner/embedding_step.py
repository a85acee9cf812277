"""The run's embedding step: each written document's chunks get vectors, from the index where it
already holds one for the same text and embedder, else embedded (one call per document)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..blocks import Chunk
from ..embedders import ChunkVectors, Embedder, EmbedderConfig, embed_chunks, load
from ..errors import ConfigError, IngestError, RunError
from ..sinks import VectorSink


class ChunkEmbedding:
    """Opens the embedder at the first document that needs it: a run with nothing to write loads no model."""

    def __init__(self, config: EmbedderConfig, sink: Any, on_loading: Callable[[str], None] | None = None) -> None:
        if not isinstance(sink, VectorSink):
            raise ConfigError(
                f"the sink {type(sink).__name__} does not store vectors; use the sqlite sink "
                "(or a vector store's), or remove `embedder:`",
                subject="embedder",
            )
        self.config = config
        self.sink: VectorSink = sink
        self._embedder: Embedder | None = None
        self._recorded = False
        self.embedded = 0
        """Texts embedded this run (the others came from the index)."""
        self.on_loading = on_loading
        """Told the embedder's name before its model loads (seconds, for a large one): a progress
        display says so rather than stand still."""
        self.seconds = 0.0
        """Time spent embedding this run, the model's loading included."""
        self.load_seconds: float | None = None
        """Time the model took to load (None: it was not needed this run)."""

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            began = time.perf_counter()
            if self.on_loading is not None:
                self.on_loading(self.config.name)
            try:
                self._embedder = self._sinks_own() or load(self.config)
            except IngestError as exc:  # no document could be written: stop, rather than fail each one
                raise RunError(f"cannot open the embedder: {exc}") from exc
            self.sink.record_embedder(self._embedder.name, self.config.spec())
            self._recorded = True
            self.load_seconds = time.perf_counter() - began
        return self._embedder

    def _sinks_own(self) -> Embedder | None:
        """The embedder a vector store opened from this same config (the job's `embedder:`, handed
        to its options): one model in memory, loaded once, rather than two."""
        own = getattr(self.sink, "embedder", None)
        options = getattr(self.sink, "options", None)
        return own if isinstance(own, Embedder) and getattr(options, "embedder", None) == self.config else None

    def given(self, vectors: ChunkVectors) -> ChunkVectors:
        """Vectors a worker made (a Ray executor embeds where it chunks): the index records the
        embedder once, as when they are made here, and no model loads in this process."""
        if not self._recorded:
            self.sink.record_embedder(vectors.embedder, self.config.spec())
            self._recorded = True
        self.embedded += vectors.embedded
        return vectors

    def vectors(self, chunks: Sequence[Chunk]) -> ChunkVectors:
        began = time.perf_counter()
        try:
            vectors = embed_chunks(self.embedder, chunks, self.sink.cached_vectors)
        finally:
            self.seconds += time.perf_counter() - began
        self.embedded += vectors.embedded
        return vectors
