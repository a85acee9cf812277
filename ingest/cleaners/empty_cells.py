"""Drop empty rows and empty columns from table blocks, and tables left with nothing.

A spreadsheet region, a CSV exported with trailing separators, or a Word table with a spacer row
carries rows and columns that hold no text; they cost tokens and make rows look incomplete.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from ..blocks import Block
from ..table_text import render_table
from . import CleanContext, Cleaner

SPREADSHEETS = frozenset(
    {
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.ms-excel.sheet.macroEnabled.12",
        "text/csv",
        "application/vnd.oasis.opendocument.spreadsheet",
    }
)


def drop_empty_cells(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    for block in blocks:
        if block.kind != "table" or block.rows is None:
            yield block
            continue
        rows = block.rows
        width = max((len(r) for r in rows), default=0)
        empty_rows = {i for i, row in enumerate(rows) if not any(cell.strip() for cell in row)}
        empty_cols = {c for c in range(width) if not any(c < len(row) and row[c].strip() for row in rows)}
        if len(empty_rows) == len(rows) or len(empty_cols) == width:
            ctx.count("tables")
            continue
        if empty_rows:
            ctx.count("rows", len(empty_rows))
        if empty_cols:
            ctx.count("columns", len(empty_cols))
        yield without_lines(block, empty_rows, empty_cols) if empty_rows or empty_cols else block


def without_lines(
    block: Block, drop_rows: Iterable[int], drop_cols: Iterable[int], rows: Sequence[Sequence[str]] | None = None
) -> Block:
    """`block` (or `rows` in its place) minus some rows and columns, with merge facts re-indexed
    and the text rendered again."""
    rows = (block.rows or ()) if rows is None else rows
    drop_r, drop_c = set(drop_rows), set(drop_cols)
    width = max((len(r) for r in rows), default=0)
    keep_r = [i for i in range(len(rows)) if i not in drop_r]
    keep_c = [c for c in range(width) if c not in drop_c]
    new_r = {old: new for new, old in enumerate(keep_r)}
    new_c = {old: new for new, old in enumerate(keep_c)}
    new_rows = tuple(tuple(rows[r][c] if c < len(rows[r]) else "" for c in keep_c) for r in keep_r)
    header_rows = sum(1 for r in keep_r if r < block.header_rows)
    meta = block.meta.copy()
    if "covered" in meta:
        meta["covered"] = tuple((new_r[r], new_c[c]) for r, c in meta["covered"] if r in new_r and c in new_c)
    if "merges" in meta:
        merges: list[tuple[int, int, int, int]] = []
        for r0, c0, r1, c1 in meta["merges"]:
            if r0 not in new_r or c0 not in new_c:
                continue  # the anchor is gone, and with it what the merge showed
            last_r = max(new_r[r] for r in range(r0, r1 + 1) if r in new_r)
            last_c = max(new_c[c] for c in range(c0, c1 + 1) if c in new_c)
            if (last_r, last_c) != (new_r[r0], new_c[c0]):
                merges.append((new_r[r0], new_c[c0], last_r, last_c))
        meta["merges"] = tuple(merges)
    return replace(block, rows=new_rows, header_rows=header_rows, meta=meta, text=render_table(new_rows, header_rows))


cleaner = Cleaner(name="empty_cells", run=drop_empty_cells, default_for=SPREADSHEETS)
