"""LlamaIndex components over ingest (the `llamaindex` extra: llama-index-core only).

    from ingest.adapters.llamaindex import IngestReader, IngestRetriever

    retriever = IngestRetriever("out/index.sqlite", k=3, filters={"mime_types": "application/pdf"})
    nodes = retriever.retrieve("when do certificates renew?")  # NodeWithScore(TextNode), best first
    documents = IngestReader().load_data("examples/")  # one Document per chunk, as `ingest chunk` makes them

Each node's text is the chunk's (with `window`, its neighbours' too), its id the chunk's id, its
`metadata` `ingest.adapters.metadata.chunk_metadata`'s (the retriever's with `score`); a model
is shown only the document name, heading path and pages, and only the first two are embedded.

Offline: llama-index-core reads NLTK's stopwords and sentence tokenizer (its text splitters) from
the copies its wheel ships, and downloads them only where `NLTK_DATA` names a folder without them:
leave `NLTK_DATA` unset, or point it at a folder that holds them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import Document, NodeRelationship, NodeWithScore, QueryBundle, RelatedNodeInfo, TextNode

from ..chunker import ChunkOptions
from ..errors import ConfigError
from ..search.filters import Filters
from .file_chunks import as_paths, chunks_of, settings
from .index_query import IndexQuery
from .metadata import EMBEDDED, SHOWN_TO_MODEL, chunk_metadata


class IngestRetriever(BaseRetriever):
    """The chunks of an ingest index that best answer a query, as `ingest.search` ranks them.

    index: the SQLite index `ingest run` wrote; mode: bm25, vector or hybrid (None: hybrid where
    the index holds vectors, else bm25); filters: an `ingest.Filters` or a dict of its fields;
    readers: whom the search answers for (`ingest.principals(email, groups)`; None: everyone's
    documents); window: neighbouring chunks added to each node's text, each side; rerank: a
    cross-encoder's folder (or a dict of `RerankOptions`' fields) reordering the first hits, whose
    score is then its logit. A bad argument
    raises `ingest.ConfigError` naming it here; a missing index says to run `ingest run` at the
    first query."""

    def __init__(
        self,
        index: str | Path,
        *,
        k: int = 5,
        mode: str | None = None,
        filters: Filters | Mapping[str, Any] | None = None,
        readers: tuple[str, ...] | None = None,
        window: int = 0,
        rerank: Any = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> None:
        self.query = IndexQuery.of(
            index, k=k, mode=mode, filters=filters, readers=readers, window=window, rerank=rerank
        )
        super().__init__(callback_manager=callback_manager, verbose=verbose)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        found = []
        for hit in self.query.hits(query_bundle.query_str):
            node = TextNode(
                id_=hit.chunk.id,
                text=hit.context,
                relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=hit.chunk.doc_id)},
                start_char_idx=hit.chunk.start,
                end_char_idx=hit.chunk.end,
                **_metadata_fields(chunk_metadata(hit.chunk, hit.score)),
            )
            found.append(NodeWithScore(node=node, score=hit.score))
        return found


class IngestReader(BaseReader):
    """Files (or every file a loader reads under a folder) as one Document per chunk, with
    ingest's loaders, cleaners and chunker: what `ingest chunk` prints for the same paths.

    config: a job's config file, for its `cleaners:` and `chunker:`; options: `ChunkOptions` in
    place of the config's (or the defaults). Also a `SimpleDirectoryReader` file extractor:
    `file_extractor={".pdf": IngestReader()}` (its `extra_info` joins each Document's metadata).
    A file that cannot be read raises its error, naming it, when the load reaches it."""

    def __init__(self, *, config: str | Path | None = None, options: ChunkOptions | None = None) -> None:
        self.steps, self.options = settings(config, options)

    def lazy_load_data(
        self, file: str | Path | list[str | Path], extra_info: Mapping[str, Any] | None = None, fs: Any = None
    ) -> Iterator[Document]:
        if fs is not None:  # SimpleDirectoryReader passes a file system only when it is not the local one
            raise ConfigError("reads local files only, not through a file system object", subject="fs")
        for chunk in chunks_of(as_paths(file), self.steps, self.options):
            meta = {**(extra_info or {}), **chunk_metadata(chunk)}
            yield Document(id_=chunk.id, text=chunk.text, **_metadata_fields(meta))

    def load_data(
        self, file: str | Path | list[str | Path], extra_info: Mapping[str, Any] | None = None, fs: Any = None
    ) -> list[Document]:
        return list(self.lazy_load_data(file, extra_info, fs))


def _metadata_fields(metadata: dict[str, Any]) -> dict[str, Any]:
    """A node's metadata, and what of it a model is shown and what is embedded."""
    return {
        "metadata": metadata,
        # A page of None (a format without pages) would only be a line of noise in the prompt.
        "excluded_llm_metadata_keys": [k for k, v in metadata.items() if k not in SHOWN_TO_MODEL or v is None],
        "excluded_embed_metadata_keys": [key for key in metadata if key not in EMBEDDED],
    }
