"""Drop comment anchors; optionally keep what the comments say as block metadata.

A comment's text is never part of a block's text: loaders mark the commented span with a
`comment` mark whose attrs carry the comment (text, author, date). This cleaner removes those
marks (also per-cell marks of tables, `meta["cell_marks"]`). With `keep_as_metadata`, each block
that had comments gets `meta["comments"]`: one entry per comment, in order, with the commented
text as "anchor", for the chunker to carry into chunk metadata.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from pydantic import BaseModel

from ..blocks import Block, Mark
from . import CleanContext, Cleaner


class CommentsOptions(BaseModel, frozen=True):
    keep_as_metadata: bool = False
    """Put the comments of a block into `block.meta["comments"]` instead of dropping them."""


def drop_comments(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    options = ctx.options_as(CommentsOptions)
    for block in blocks:
        cell_marks = tuple(block.meta.get("cell_marks", ()))
        found = [(m, block.text) for m in block.marks if m.kind == "comment"]
        if block.rows is not None:
            found += [(m, _cell(block.rows, r, c)) for r, c, m in cell_marks if m.kind == "comment"]
        if not found:
            yield block
            continue
        ctx.count("comments", len(found))
        meta = block.meta.copy()
        if cell_marks:
            meta["cell_marks"] = tuple(x for x in cell_marks if x[2].kind != "comment")
        if options.keep_as_metadata:
            meta["comments"] = (*meta.get("comments", ()), *_entries(found))
        yield replace(block, marks=tuple(m for m in block.marks if m.kind != "comment"), meta=meta)


def _entries(found: list[tuple[Mark, str]]) -> Iterator[dict[str, str]]:
    seen: set[str] = set()
    for mark, text in found:
        key = mark.attrs.get("id") or f"{mark.start}:{mark.attrs.get('text', '')}"
        if key in seen:  # a comment spanning paragraphs of one cell or block is one comment
            continue
        seen.add(key)
        entry = {k: v for k, v in mark.attrs.items() if k in ("text", "author", "date", "cell", "parent", "resolved")}
        entry["anchor"] = text[mark.start : mark.end]
        yield entry


def _cell(rows: tuple[tuple[str, ...], ...], r: int, c: int) -> str:
    return rows[r][c] if r < len(rows) and c < len(rows[r]) else ""


cleaner = Cleaner(name="comments", run=drop_comments, options=CommentsOptions, default_for=frozenset())
