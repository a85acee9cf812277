"""A chunk's id, the same for every kind of chunk (body, figure, card)."""

from __future__ import annotations

import hashlib


def chunk_id(doc_id: str, path: tuple[str, ...], text: str, seen: dict[str, int]) -> str:
    """Content-addressed: the document, heading path and text, not the position, so a chunk
    inserted before it leaves its id (and whatever is keyed by it) alone. The n-th repeat of one
    path and text in a document is told apart by n, counted in `seen`."""
    heading = "\x1e".join(path)
    content = hashlib.blake2b(f"{doc_id}\x1f{heading}\x1f{text}".encode(), digest_size=16).hexdigest()
    n = seen.get(content, 0)
    seen[content] = n + 1
    return content if n == 0 else hashlib.blake2b(f"{content}\x1f{n}".encode(), digest_size=16).hexdigest()
