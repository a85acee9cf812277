"""`ingest.search`: the public way to search an index from Python, with the CLI's options.

import ingest
hits = ingest.search("out/index.sqlite", "ibuprofen dose", k=3,
                     filters=ingest.Filters(mime_types="text/markdown", modified_after="2024-01-01"))
for hit in hits:
    print(hit.citation, hit.score)
    print(hit.context)
"""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .bm25 import Hit
from .filters import Filters
from .hybrid import MODES, search_mode
from .principals import checked_readers
from .rerank import RerankOptions


def search(
    index: str | Path,
    query: str,
    *,
    k: int = 5,
    filters: Filters | Mapping[str, Any] | None = None,
    mode: str = "bm25",
    readers: tuple[str, ...] | None = None,
    window: int = 1,
    rerank: RerankOptions | Mapping[str, Any] | str | PathLike[str] | None = None,
    exact: bool = False,
) -> list[Hit]:
    """The `k` best chunks of the index at `index` for the free-text `query`, best first.

    filters: a `Filters` (or a dict of its fields) limiting the documents, folders, sections,
      formats and dates answered from.
    mode: how chunks are ranked: "bm25" (full-text, heading path weighted above the body),
      "vector" (cosine to the query's vector; the index must have been built with `embedder:`)
      or "hybrid" (both rankings fused by reciprocal rank).
    readers: only documents one of these may open (`ingest.search.principals(email, groups)`); `()`: a
      caller who matches no one, who sees only documents without readers (local files);
      None: no permission filter (an administrator's search). Anything else is a `ConfigError`.
    window: neighbouring chunks of the same document added to each hit's `context`, each side.
    rerank: a cross-encoder's folder (model.onnx and tokenizer.json), or `RerankOptions` (or a
      dict of its fields: model, top, max_tokens, batch_size, threads): the first `top` (20) hits
      of `mode` are reordered by its score, which each of them then carries (`Hit.ranked_by`).
    exact: vector and hybrid search compare the query with every vector even where an HNSW index
      beside the index would answer (`search: {ann: ...}`): slower at scale, misses nothing.
    """
    if mode not in MODES:
        raise ConfigError(f"unknown search mode {mode!r}; choose one of {', '.join(MODES)}", subject="mode")
    readers = checked_readers(readers)
    if rerank is None:
        return search_mode(
            Path(index), query, mode, k=k, window=window, readers=readers, filters=as_filters(filters), exact=exact
        )
    from .rerank import open_cross_encoder, rerank_options, reranked

    options = rerank_options(rerank)
    encoder = open_cross_encoder(options)  # a bad folder fails before the index is read
    first = search_mode(
        Path(index),
        query,
        mode,
        k=max(k, options.top),
        window=window,
        readers=readers,
        filters=as_filters(filters),
        exact=exact,
    )
    return reranked(query, first, encoder, options.top)[:k]


def as_filters(filters: Filters | Mapping[str, Any] | None) -> Filters | None:
    """`filters` as a `Filters`: a dict's keys are its fields (an unknown one is an error)."""
    if filters is None or isinstance(filters, Filters):
        return filters
    if not isinstance(filters, Mapping):
        raise ConfigError(f"expected Filters or a dict of its fields, got {type(filters).__name__}", subject="filters")
    known = set(Filters.__dataclass_fields__)
    unknown = sorted(set(filters) - known)
    if unknown:
        raise ConfigError(
            f"unknown filter {unknown[0]!r}; the filters are {', '.join(sorted(known))}", subject="filters"
        )
    return Filters(**filters)
