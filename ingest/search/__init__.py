"""Search an index: bm25 over FTS5 (`bm25`), vectors (`vectors`), both fused (`hybrid`), with
filters and readers (`filters`, `principals`); `api` is the Python entry point, `evaluate` scores
a question set.

`ingest.search` was one module before it was this package: its public names stay importable here.
"""

from .bm25 import (
    HEADING_WEIGHT,
    Hit,
    SearchError,
    allowed_seqs,
    citation,
    fts_query,
    hit,
    index_stats,
    join_context,
    query_phrases,
    ranked_bm25,
    readers_clause,
    readers_json,
    search,
    widened,
)
from .principals import principals

__all__ = [
    "HEADING_WEIGHT",
    "Hit",
    "SearchError",
    "allowed_seqs",
    "citation",
    "fts_query",
    "hit",
    "index_stats",
    "join_context",
    "principals",
    "query_phrases",
    "ranked_bm25",
    "readers_clause",
    "readers_json",
    "search",
    "widened",
]
