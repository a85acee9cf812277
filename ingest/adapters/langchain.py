"""LangChain components over ingest (the `langchain` extra: langchain-core only).

    from ingest.adapters.langchain import IngestLoader, IngestRetriever

    retriever = IngestRetriever(index="out/index.sqlite", k=3, filters={"mime_types": "application/pdf"})
    docs = retriever.invoke("when do certificates renew?")  # Documents, best first
    chunks = IngestLoader("examples/").load()  # one Document per chunk, as `ingest chunk` makes them

Each Document's `page_content` is the chunk's text (with `window`, its neighbours' too) and its
`metadata` is `ingest.adapters.metadata.chunk_metadata`'s: ids, document, heading path, pages,
link and citation, and a retriever's `score`; its `id` is the chunk's id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

from ..blocks import Chunk
from ..chunker import ChunkOptions
from .file_chunks import as_paths, chunks_of, settings
from .index_query import IndexQuery
from .metadata import chunk_metadata


class IngestRetriever(BaseRetriever):
    """The chunks of an ingest index that best answer a query, as `ingest.search` ranks them.

    A bad mode, filter, `k` or reader raises `ingest.ConfigError` naming it when the retriever is
    made; a missing index says to run `ingest run` at the first query."""

    index: Path
    """The SQLite index `ingest run` wrote (its `sink: {sqlite: ...}`)."""
    k: int = 5
    mode: str | None = None
    """bm25, vector or hybrid; None: hybrid where the index holds vectors, else bm25."""
    filters: Any = None
    """An `ingest.Filters`, or a dict of its fields: {"mime_types": "application/pdf", ...}."""
    readers: Any = None
    """Whom the search answers for (`ingest.principals(email, groups)`); None: everyone's documents."""
    window: int = 0
    """Neighbouring chunks of the same document added to each Document's text, each side."""
    rerank: Any = None
    """A cross-encoder's folder (or a dict of `RerankOptions`' fields) reordering the first hits;
    `score` is then its logit."""

    def model_post_init(self, context: Any, /) -> None:
        self._query()  # checked here, so a misconfigured retriever fails where it is made

    def _query(self) -> IndexQuery:
        # Made per query from the fields, so a field changed after construction takes effect.
        return IndexQuery.of(
            self.index,
            k=self.k,
            mode=self.mode,
            filters=self.filters,
            readers=self.readers,
            window=self.window,
            rerank=self.rerank,
        )

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [
            Document(page_content=hit.context, metadata=chunk_metadata(hit.chunk, hit.score), id=hit.chunk.id)
            for hit in self._query().hits(query)
        ]


class IngestLoader(BaseLoader):
    """Files (or every file a loader reads under a folder) as one Document per chunk, with
    ingest's loaders, cleaners and chunker: what `ingest chunk` prints for the same paths.

    config: a job's config file, for its `cleaners:` and `chunker:`; options: `ChunkOptions` in
    place of the config's (or the defaults). A path that does not exist, or a bad config, raises
    `ingest.ConfigError` here; a file that cannot be read raises its error, naming it, when the
    load reaches it (the Documents before it have been yielded)."""

    def __init__(
        self,
        paths: str | Path | Iterable[str | Path],
        *,
        config: str | Path | None = None,
        options: ChunkOptions | None = None,
    ) -> None:
        self.paths = as_paths(paths)
        self.steps, self.options = settings(config, options)

    def lazy_load(self) -> Iterator[Document]:
        for chunk in chunks_of(self.paths, self.steps, self.options):
            yield as_document(chunk)


def as_document(chunk: Chunk) -> Document:
    return Document(page_content=chunk.text, metadata=chunk_metadata(chunk), id=chunk.id)
