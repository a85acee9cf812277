"""Resolve merged-cell shadows in table blocks: a covered cell is neither a copy nor a gap.

Loaders describe merges (`meta["covered"]`: (row, col) indices into `rows` hidden under another
cell; optionally `meta["merges"]`: (anchor_row, anchor_col, last_row, last_col)) and may fill
covered cells with the anchor's text, as python-docx does. This cleaner decides:

- covered cells in the body become empty strings, so a value is stated once;
- a row or column made only of covered and empty cells goes: it exists only as the far side of
  a span and would read as an incomplete row or an empty column;
- a header of several rows (a spanning group title over sub-headers) is flattened into one row
  whose column names carry the span: "Q1 / Revenue", "Q1 / Cost". Every piece of a split table
  then repeats one line that names each column.

Tables without merge facts pass untouched, whatever loader made them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from pydantic import BaseModel

from ..blocks import Block
from . import CleanContext, Cleaner
from .empty_cells import without_lines


class MergedCellsOptions(BaseModel, frozen=True):
    flatten_header: bool = True
    """Join a multi-row header into one row of column names ("group / column")."""
    separator: str = " / "


def resolve_merged_cells(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    options = ctx.options_as(MergedCellsOptions)
    for block in blocks:
        covered = set(block.meta.get("covered", ())) if block.kind == "table" and block.rows else set()
        if not covered:
            yield block
            continue
        yield _resolve(block, covered, options, ctx)


def _resolve(block: Block, covered: set[tuple[int, int]], options: MergedCellsOptions, ctx: CleanContext) -> Block:
    rows = block.rows or ()  # only tables with rows come here
    width = max(len(r) for r in rows)
    grid = [list(r) + [""] * (width - len(r)) for r in rows]
    head = block.header_rows
    merges = tuple(block.meta.get("merges", ()))
    names = _column_names(grid[:head], merges, options.separator) if options.flatten_header and head > 1 else None
    blanked = 0
    for r, c in covered:
        if r < len(grid) and c < width and grid[r][c]:
            grid[r][c] = ""
            blanked += 1
    ctx.count("cells", blanked)
    if names is not None:
        shift = head - 1
        grid = [names] + grid[head:]
        covered = {(r - shift, c) for r, c in covered if r >= head}
        merges = tuple((r0 - shift, c0, r1 - shift, c1) for r0, c0, r1, c1 in merges if r0 >= head)
        block = replace(block, header_rows=1, meta={**block.meta, "covered": tuple(sorted(covered)), "merges": merges})
        ctx.count("header_rows", shift)
    # A line holding nothing but the far side of a span would read as a gap: it goes.
    shadow_rows = {
        r
        for r in range(len(grid))
        if any((r, c) in covered for c in range(width)) and not any(t.strip() for t in grid[r])
    }
    shadow_cols = {
        c
        for c in range(width)
        if any((r, c) in covered for r in range(len(grid))) and not any(row[c].strip() for row in grid)
    }
    if shadow_rows:
        ctx.count("rows", len(shadow_rows))
    if shadow_cols:
        ctx.count("columns", len(shadow_cols))
    return without_lines(block, shadow_rows, shadow_cols, rows=grid)


def _column_names(header: list[list[str]], merges: tuple, sep: str) -> list[str]:
    """One name per column from stacked header rows; a horizontal span names every column under
    it, a vertical one counts once."""
    header = [list(row) for row in header]
    for r0, c0, r1, c1 in merges:
        if r0 < len(header):
            for r in range(r0, min(r1, len(header) - 1) + 1):
                for c in range(c0, min(c1, len(header[r]) - 1) + 1):
                    header[r][c] = header[r0][c0]
    names = []
    for c in range(len(header[0])):
        parts: list[str] = []
        for row in header:
            text = row[c].strip()
            if text and (not parts or parts[-1] != text):
                parts.append(text)
        names.append(sep.join(parts))
    return names


cleaner = Cleaner(name="merged_cells", run=resolve_merged_cells, options=MergedCellsOptions, default_for=frozenset())
