"""A `Chunk` as the values a table stores, and back: the one mapping the SQLite and pgvector sinks
and their searches share, so a field added to `Chunk` is added to every store in one place.

Citation fields (uri, name, type, modified, version) are stored once per document and joined back
on read, so a chunk written must cite the document it is written under.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ..blocks import CITATION_FIELDS, Chunk, Citation, Document
from ..errors import SinkError

HEADING_SEPARATOR = " > "
"""Joins a heading path into the one `heading` text column that full-text search reads."""

STORED_FIELDS = (
    "id",
    "doc_id",
    "chunk_index",
    "text",
    "heading_path",
    "heading",
    "kinds",
    "token_count",
    "overlap_tokens",
    "start",
    "end",
    "page_start",
    "page_end",
    "meta",
    "url",
)
"""The order of `chunk_values`; a store names its own columns in this order."""

READ_FIELDS = tuple(f for f in STORED_FIELDS if f != "heading")
"""The order of the values `stored_chunk` takes (the joined `heading` is for search only)."""
JSON_FIELDS = ("heading_path", "kinds", "meta")
"""The `STORED_FIELDS` a store keeps as JSON (SQLite as text, PostgreSQL as jsonb)."""
_JSON_READ = tuple(READ_FIELDS.index(name) for name in JSON_FIELDS)


def chunk_values(document: Document, chunk: Chunk) -> tuple[Any, ...]:
    """The chunk's `STORED_FIELDS` (paths and kinds as lists, meta as JSON data), checked now: a
    chunk that cannot be stored fails before the document's previous chunks are touched."""
    where = f"chunk {chunk.chunk_index} of document {document.id!r}"
    if chunk.doc_id != document.id:
        raise SinkError(f"{where} belongs to document {chunk.doc_id!r}; write each document's own chunks", document.uri)
    if chunk.source != Citation.of(document):
        raise SinkError(
            f"{where} cites {chunk.source} but the document is {Citation.of(document)}; "
            "pass the Document the chunks were made from",
            document.uri,
        )
    return (
        chunk.id,
        chunk.doc_id,
        chunk.chunk_index,
        chunk.text,
        list(chunk.heading_path),
        HEADING_SEPARATOR.join(chunk.heading_path),
        list(chunk.kinds),
        chunk.token_count,
        chunk.overlap_tokens,
        chunk.start,
        chunk.end,
        chunk.page_start,
        chunk.page_end,
        json_data(chunk.meta, f"{where} has meta that is not JSON data", document.uri),
        chunk.url,
    )


def stored_chunk(values: Sequence[Any], citation: Citation) -> Chunk:
    """The `Chunk` of `READ_FIELDS` values read back (paths and kinds as sequences, meta as a dict)."""
    (id_, doc_id, index, text, heading_path, kinds, token_count, overlap, start, end,
     page_start, page_end, meta, url) = values  # fmt: skip
    return Chunk(
        id=id_,
        doc_id=doc_id,
        chunk_index=index,
        text=text,
        heading_path=tuple(heading_path),
        kinds=tuple(kinds),
        token_count=token_count,
        overlap_tokens=overlap,
        source=citation,
        start=start,
        end=end,
        page_start=page_start,
        page_end=page_end,
        meta=meta,
        url=url,
    )


def select_list(column: Callable[[str], str]) -> str:
    """The columns `row_chunk` reads: `READ_FIELDS` from `chunks AS c`, each as `column` names it
    in the store, then the citation from `documents AS d`."""
    return ", ".join([*(f"c.{column(name)}" for name in READ_FIELDS), *(f"d.{name}" for name in CITATION_FIELDS)])


def row_chunk(row: Sequence[Any], decode: Callable[[Any], Any] | None = None) -> Chunk:
    """The `Chunk` of a row that starts with `select_list`'s columns; `decode` reads a JSON field
    back where the store keeps it as text."""
    values = list(row[: len(READ_FIELDS)])
    if decode is not None:
        for i in _JSON_READ:
            values[i] = decode(values[i])
    return stored_chunk(values, Citation(*row[len(READ_FIELDS) : len(READ_FIELDS) + len(CITATION_FIELDS)]))


def json_data(value: Any, what: str, subject: str) -> Any:
    """`value` as JSON data (a list or dict), checked to serialise; a `SinkError` saying what is kept otherwise."""
    data = value if isinstance(value, (list, dict)) else dict(value)
    try:
        json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise SinkError(f"{what} ({exc}); the previous chunks are kept", subject) from exc
    return data
