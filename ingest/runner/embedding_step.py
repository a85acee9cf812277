"""The run's embedding step: each written document's chunks get vectors, from the index where it
already holds one for the same text and embedder, else embedded (one call per document)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..blocks import Chunk
from ..embedders import ChunkVectors, Embedder, EmbedderConfig, embed_chunks, load
from ..errors import ConfigError, IngestError, RunError
from ..sinks import VectorSink


class ChunkEmbedding:
    """Opens the embedder at the first document that needs it: a run with nothing to write loads no model."""

    def __init__(self, config: EmbedderConfig, sink: Any) -> None:
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

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            try:
                self._embedder = self._sinks_own() or load(self.config)
            except IngestError as exc:  # no document could be written: stop, rather than fail each one
                raise RunError(f"cannot open the embedder: {exc}") from exc
            self.sink.record_embedder(self._embedder.name, self.config.spec())
            self._recorded = True
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
        vectors = embed_chunks(self.embedder, chunks, self.sink.cached_vectors)
        self.embedded += vectors.embedded
        return vectors
