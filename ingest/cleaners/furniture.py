"""Drop blocks a loader marked as page furniture: running headers and footers, page numbers.

Loaders that know a block is furniture (a .docx header part, a PDF line another cleaner judged)
mark it with kind "furniture"; this cleaner removes them, and says how much it removed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..blocks import Block
from . import CleanContext, Cleaner, drop_kind


def drop_furniture(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    return drop_kind(blocks, "furniture", ctx)


cleaner = Cleaner(name="furniture", run=drop_furniture, default_for=frozenset())
