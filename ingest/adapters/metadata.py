"""The metadata a framework's document or node carries for one chunk: the same keys in LangChain
and LlamaIndex, from a search or from a loader.

Every value is a string, a number or None, never a list: the vector stores both frameworks write
to (Chroma, Pinecone, Qdrant payload filters...) refuse nested values, so a chunk loaded here can
be stored anywhere. The heading path is therefore joined, as `ingest search --heading` and
`Filters(heading=...)` take it back."""

from __future__ import annotations

from ..blocks import Chunk
from ..search.bm25 import citation
from ..sinks.chunk_rows import HEADING_SEPARATOR

Value = str | int | float | None

KEYS = (
    "chunk_id",
    "doc_id",
    "chunk_index",
    "doc_name",
    "uri",
    "mime_type",
    "modified",
    "heading",
    "page_start",
    "page_end",
    "url",
    "citation",
)
"""What every chunk's metadata holds; a retriever's adds "score"."""

SHOWN_TO_MODEL = ("doc_name", "heading", "page_start", "page_end")
"""The keys a framework that writes metadata into a model's prompt (LlamaIndex) shows it: what
the chunk is about and where to cite; ids, uris and scores would only add tokens."""
EMBEDDED = ("doc_name", "heading")
"""The keys it embeds with the text: the headings hold query terms the body lacks (as in
`Chunk.embed_text`); page numbers and ids say nothing about meaning."""


def chunk_metadata(chunk: Chunk, score: float | None = None) -> dict[str, Value]:
    """`chunk`'s metadata: where it is (ids, document, uri, pages, the link that opens its place:
    `url`, "" for local files) and how to cite it; `score` when a search ranked it."""
    meta: dict[str, Value] = {
        "chunk_id": chunk.id,
        "doc_id": chunk.doc_id,
        "chunk_index": chunk.chunk_index,
        "doc_name": chunk.source.name,
        "uri": chunk.source.uri,
        "mime_type": chunk.source.mime_type,
        "modified": chunk.source.modified,
        "heading": HEADING_SEPARATOR.join(chunk.heading_path),
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "url": chunk.url,
        "citation": citation(chunk),
    }
    if score is not None:
        meta["score"] = score
    return meta
