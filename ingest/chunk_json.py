"""A `Chunk` as plain JSON data and back: the line format of `ingest chunk` and the JSONL sink.

Tuples become lists and `embed_text` is written out for consumers that embed straight from the
file; reading ignores it, because it is derived from `heading_path` and `text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .blocks import CITATION_FIELDS, Chunk, Citation
from .errors import SinkError


def chunk_to_dict(chunk: Chunk) -> dict[str, Any]:
    """A JSON-ready dict of `chunk` (its `meta` is passed through and must itself be JSON data)."""
    return {
        "id": chunk.id,
        "doc_id": chunk.doc_id,
        "chunk_index": chunk.chunk_index,
        "text": chunk.text,
        "embed_text": chunk.embed_text,
        "heading_path": list(chunk.heading_path),
        "kinds": list(chunk.kinds),
        "token_count": chunk.token_count,
        "overlap_tokens": chunk.overlap_tokens,
        "start": chunk.start,
        "end": chunk.end,
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "source": {name: getattr(chunk.source, name) for name in CITATION_FIELDS},
        "meta": dict(chunk.meta),
        "url": chunk.url,
    }


def chunk_from_dict(d: Mapping[str, Any]) -> Chunk:
    """The `Chunk` that `chunk_to_dict` wrote; optional fields may be absent."""
    subject = d.get("id", "chunk record") if isinstance(d, Mapping) else "chunk record"
    try:
        source = d["source"]
        return Chunk(
            id=str(d["id"]),
            doc_id=str(d["doc_id"]),
            chunk_index=int(d["chunk_index"]),
            text=str(d["text"]),
            heading_path=tuple(str(h) for h in d["heading_path"]),
            kinds=tuple(str(k) for k in d["kinds"]),
            token_count=int(d["token_count"]),
            overlap_tokens=int(d.get("overlap_tokens", 0)),
            source=Citation(**{name: str(source.get(name, "")) for name in CITATION_FIELDS}),
            start=_opt_int(d.get("start")),
            end=_opt_int(d.get("end")),
            page_start=_opt_int(d.get("page_start")),
            page_end=_opt_int(d.get("page_end")),
            meta=dict(d.get("meta") or {}),
            url=str(d.get("url") or ""),
        )
    except KeyError as exc:
        raise SinkError(
            f"chunk record lacks the field {exc.args[0]!r}; was it written by chunk_to_dict?", subject
        ) from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise SinkError(f"chunk record is malformed ({exc}); was it written by chunk_to_dict?", subject) from exc


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
