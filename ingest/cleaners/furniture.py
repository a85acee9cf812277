"""Drop the blocks a loader put in the furniture layer: a .docx or Google Docs header or footer part.

Loaders that know a block is about the document rather than in it say so with `layer="furniture"`
(the block keeps its content kind, a paragraph); this cleaner removes them, and says how much it
removed. PDF margin lines are judged, and dropped, by the PDF cleaners (`running_headers`,
`page_numbers`, `line_numbers`), which know what a band line is made of.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..blocks import Block
from . import CleanContext, Cleaner, drop_blocks


def drop_furniture(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    # kind "furniture": how a plugin loader written before the layer existed says it; still honoured.
    return drop_blocks(blocks, lambda b: b.layer == "furniture" or b.kind == "furniture", ctx)


cleaner = Cleaner(name="furniture", run=drop_furniture, default_for=frozenset())
