"""Drop banner paragraphs ("CONFIDENTIAL", "Internal use only") that a template stamps on pages."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from pydantic import BaseModel

from ingest import Block
from ingest.cleaners import CleanContext, Cleaner


class BannerOptions(BaseModel):
    patterns: list[str] = [r"(?i)^confidential$", r"(?i)^internal use only$"]
    """Regexes a whole block must match to be dropped."""


def drop_banners(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    patterns = [re.compile(p) for p in ctx.options_as(BannerOptions).patterns]
    for block in blocks:
        if block.kind == "paragraph" and any(p.match(block.text.strip()) for p in patterns):
            ctx.count("banners")  # its own tally; ingest counts the blocks and characters removed
            continue
        yield block


strip_banner = Cleaner(
    name="strip_banner",
    run=drop_banners,
    options=BannerOptions,
    default_for=frozenset({"text/markdown", "text/plain"}),  # the formats it runs on, once named
)
