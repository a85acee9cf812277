"""Structure first, tokens second: pack blocks into chunks that keep to one heading section.

A section crosses into the next only to carry what cannot stand alone: headings with no body of
their own travel in the text of the section that follows, and a section under `min_tokens` joins
its first subsection (pack.py says how).

Fallback order inside one heading section: whole blocks, then sentences, then words, then a hard
token cap. Tables split only between rows (header repeated), code only between lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ChunkerError


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    max_tokens: int = 512
    """Budget per chunk; exceeded only by a single unit that cannot be split (a long table row)."""
    min_tokens: int = 64
    """A chunk below this merges with a neighbour of the same heading path when both fit; a
    section that is one chunk below it joins its first subsection's first chunk when both fit."""
    overlap_tokens: int = 48
    """Tail-carry of whole sentences from the previous prose chunk of the same section."""
    tokenizer: str = "cl100k_base"
    """A tiktoken encoding name (loaded offline), or "chars" to count characters."""
    card: bool = True
    """Give each document a card after its chunks (`card.py`): its title, properties and the
    furniture the cleaners kept out of the body, as one chunk of kind "card". `chunk()` itself
    never makes one; `chunks_with_card` does."""

    def __post_init__(self) -> None:
        if self.max_tokens < 1:
            raise ChunkerError("must be at least 1", subject="max_tokens")
        if not 0 <= self.min_tokens <= self.max_tokens:
            raise ChunkerError("must be between 0 and max_tokens", subject="min_tokens")
        if not 0 <= self.overlap_tokens < self.max_tokens:
            raise ChunkerError("must be at least 0 and below max_tokens", subject="overlap_tokens")


from .card import CARD, chunks_with_card, document_card  # noqa: E402  (card and pack need ChunkOptions)
from .pack import chunk  # noqa: E402

__all__ = ["CARD", "ChunkOptions", "chunk", "chunks_with_card", "document_card"]
