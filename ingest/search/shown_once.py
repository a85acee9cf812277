"""Hits printed one under another, each text once: with a window, two hits of one document that
are near each other share neighbours, and the second would repeat what the first just showed.

A later hit shows only the chunks of its window no earlier hit showed; when its own chunk was
among them, it says in which hit it is to be read instead of printing it again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..blocks import Chunk
from .bm25 import Hit, join_context


def contexts_shown_once(hits: Sequence[Hit]) -> Iterator[str]:
    """The context to print under each of `hits`, in order: its window less what earlier hits showed."""
    shown: dict[tuple[str, int], int] = {}  # (doc_id, chunk_index) -> the rank that showed it
    for rank, hit in enumerate(hits, 1):
        around = hit.around or (hit.chunk,)
        fresh = [c for c in around if (c.doc_id, c.chunk_index) not in shown]
        if len(fresh) == len(around):
            text = hit.context
        else:
            text = _joined(around, fresh)
            own = shown.get((hit.chunk.doc_id, hit.chunk.chunk_index))
            if own is not None:
                note = f"(this chunk is in the context of hit {own} above)"
                text = f"{note}\n\n{text}" if text else note
        for c in fresh:
            shown[(c.doc_id, c.chunk_index)] = rank
        yield text


def _joined(around: Sequence[Chunk], fresh: list[Chunk]) -> str:
    """The fresh chunks' text: each run of consecutive ones joined as `join_context` joins them,
    the overlap with the already shown chunk before a run dropped as it is between two fresh ones."""
    index = {c.chunk_index: c for c in around}
    parts: list[str] = []
    run: list[Chunk] = []
    for c in [*fresh, None]:
        if run and (c is None or c.chunk_index != run[-1].chunk_index + 1):
            before = index.get(run[0].chunk_index - 1)
            if before is None:
                parts.append(join_context(run))
            else:  # join with the shown one, then cut it (and the blank line) away
                parts.append(join_context([before, *run])[len(before.text) :].lstrip("\n"))
            run = []
        if c is not None:
            run.append(c)
    return "\n\n".join(p for p in parts if p)
