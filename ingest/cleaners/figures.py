"""Drop figure text: the axis numbers, tick labels and legends the PDF loader found inside a
figure's drawing (kind "figure"). Read as body, a chart leaves lines of bare numbers between the
sentences; the figure's caption is body text and stays. Switch it off (`figures: false`) to keep
figure text in the chunks as blocks of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..blocks import Block
from . import CleanContext, Cleaner, drop_blocks


def drop_figures(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    return drop_blocks(blocks, lambda b: b.kind == "figure", ctx)


cleaner = Cleaner(name="figures", run=drop_figures, default_for=frozenset({"application/pdf"}))
