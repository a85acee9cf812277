"""A table's lead-in: the short paragraphs right before it (its title, "(Dollars in millions)", the
column labels a PDF sets above the ruled rows, "... consisted of the following:").

Read on the FinanceBench filings (6 10-Ks, 526 tables with a paragraph right before them in the
same section): 462 of those paragraphs are under 40 tokens and 490 under 60, and where a table's
title was left in a chunk of its own it was a run of such paragraphs (a statement's name, its
units, one paragraph per column year) adding up to under 60; a paragraph longer than that is
the section's prose, which says more than what follows it. The packer keeps the run with the
table's first rows (pack.py), and a table split in pieces leaves it room beside its first piece
(units.py), so a question naming the table finds its figures.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..blocks import Block, is_prose
from .units import Unit

LEAD_IN_TOKENS = 60
"""A lead-in is at most this many tokens (all its paragraphs together): more is prose, not a title."""

LEAD_IN_SHARE = 4
"""...and at most 1/this of the budget, so a table's first piece keeps most of its chunk."""


def lead_in_run(
    section: Sequence[Block], units: Sequence[Unit], first_unit: Sequence[int], i: int, max_tokens: int
) -> int:
    """Where the lead-in of the table `section[i]` begins in `units` (the units of the blocks before
    it; `first_unit[j]`: the index of block j's first unit), or len(units) when it has none.

    The run is the body paragraphs directly before the table, each one whole unit, taken back from
    the table while they add up to the cap; a paragraph that would pass it ends the run, so a long
    paragraph is never a lead-in.
    """
    cap = min(LEAD_IN_TOKENS, max_tokens // LEAD_IN_SHARE)
    begin, total = len(units), 0
    for j in range(i - 1, -1, -1):
        block = section[j]
        if block.kind != "paragraph" or not is_prose(block):
            break
        own = units[first_unit[j] : first_unit[j + 1] if j + 1 < i else len(units)]
        if not own:
            continue  # a paragraph with no text shows nothing: it does not part the run
        if len(own) != 1 or total + own[0].tokens > cap:
            break
        total += own[0].tokens
        begin = first_unit[j]
    return begin
