"""Drop figure text: the axis numbers, tick labels and legends the PDF loader found inside a
figure's drawing (kind "figure"). Off unless a config names it (`cleaners: [figures]`, or
`--cleaner figures`): by default that text is kept, as a chunk of kind "figure" with its caption
and never in the body's chunks (`ingest/chunker/figures.py`), for a question may ask about a
chart's labels. Name it to leave figures out of the index altogether; the caption, body text,
stays either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..blocks import FIGURE, Block
from . import CleanContext, Cleaner, drop_blocks


def drop_figures(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    return drop_blocks(blocks, lambda b: b.kind == FIGURE, ctx)


# default_for None: a built-in that runs only where it is named (build_chain), on every document.
cleaner = Cleaner(name="figures", run=drop_figures, default_for=None)
