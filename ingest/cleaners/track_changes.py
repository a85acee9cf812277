"""Resolve tracked changes: the text as it reads after accepting (or rejecting) every change.

Works on marks only, so Word revisions and Google Docs suggestions resolve alike:

- `insertion` / `deletion` marks cover text that was inserted / deleted. `accept` removes deleted
  spans and keeps inserted ones, `reject` the opposite, `keep` leaves text and marks as they are.
  Other marks (comments, links, footnote references) move with the text that remains.
- A block whose text ends in a newline under a change mark ends in a tracked paragraph mark. When
  resolving removes that newline, the paragraph joins the next one, as in Word; the joined block
  takes the next block's kind and path (the surviving paragraph mark carries the formatting).
  Footnotes and furniture between the two wait and follow the joined block.
- Tables keep marks per cell in `meta["cell_marks"]` as (row, col, mark), offsets into
  `rows[row][col]`, and whole inserted or deleted rows in `meta["row_marks"]` as (row, mark).
  Resolved cells are written back into `rows` and the table text is rendered again.
  `meta["marks_shape"]` = (rows, columns) when the marks were made; a table another cleaner has
  reshaped since cannot be resolved safely and passes unchanged (counted as "stale_tables").
- A paragraph's form (kind, style, heading rank, list membership and level) is the one after the
  change as loaded; `meta["form_before"]` holds the one before (Word's `w:pPrChange`; a Docs
  paragraph without its suggested style or bullet), which `reject` restores.
- Then list and heading numbers are counted again (`meta["number"]`, the numbered paragraphs in
  tables' cells in `meta["numbers"]`) over the paragraphs that remain, and every heading path is
  rebuilt from the headings that remain (`meta["rank"]`), so a heading that appears, goes or is
  renamed moves what it heads. `keep` leaves the document as loaded: both sides of the text,
  marked, in the form the editors' markup view shows (the form after the change).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Literal, cast

from pydantic import BaseModel

from ..blocks import Block, BlockMeta, Mark
from ..loaders.word.numbers import Counters
from ..table_text import render_table
from . import CleanContext, Cleaner

CHANGES = frozenset({"insertion", "deletion"})
_ASIDE = frozenset({"footnote"})


class TrackChangesOptions(BaseModel, frozen=True):
    mode: Literal["accept", "reject", "keep"] = "accept"
    """accept: the text after accepting every change; reject: as before them; keep: both, marked."""


def resolve_changes(text: str, marks: Sequence[Mark], mode: str) -> tuple[str, tuple[Mark, ...], int]:
    """Text and remaining marks after resolving change marks; also how many characters went."""
    if mode == "keep" or not any(m.kind in CHANGES for m in marks):
        return text, tuple(marks), 0
    drop = "deletion" if mode == "accept" else "insertion"
    spans = _merged(sorted((m.start, m.end) for m in marks if m.kind == drop and m.end > m.start))
    pieces, prev = [], 0
    for s, e in spans:
        pieces.append(text[prev:s])
        prev = e
    pieces.append(text[prev:])
    starts = [s for s, _ in spans]
    removed_before = [0]
    for s, e in spans:
        removed_before.append(removed_before[-1] + e - s)

    def at(pos: int) -> int:
        i = bisect_right(starts, pos) - 1
        if i < 0:
            return pos
        s, e = spans[i]
        return s - removed_before[i] if pos < e else pos - removed_before[i + 1]

    kept = []
    for m in marks:
        if m.kind in CHANGES:
            continue
        s, e = at(m.start), at(m.end)
        if e > s or m.kind == "comment":  # a comment outlives the text it was anchored to
            kept.append(Mark(m.kind, s, e, m.attrs))
    return "".join(pieces), tuple(kept), removed_before[-1]


def strip_marked(text: str, marks: Sequence[Mark]) -> tuple[str, tuple[Mark, ...]]:
    """Strip whitespace at both ends of `text`, moving marks with the characters they cover."""
    lead = len(text) - len(text.lstrip())
    end = max(lead, len(text.rstrip()))
    out = []
    for m in marks:
        s, e = min(max(m.start - lead, 0), end - lead), min(max(m.end - lead, 0), end - lead)
        if e > s or m.start == m.end:
            out.append(Mark(m.kind, s, e, m.attrs))
    return text[lead:end], tuple(out)


def resolve_track_changes(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    options = ctx.options_as(TrackChangesOptions)
    blocks = list(blocks)
    if options.mode == "keep" or not any(_tracked(b) for b in blocks):
        yield from blocks
        return
    yield from _restructured(list(_resolved(blocks, options.mode, ctx)), options.mode, ctx)


def _tracked(block: Block) -> bool:
    return bool(block.marks and any(m.kind in CHANGES for m in block.marks)) or (
        "form_before" in block.meta or _table_marks(block)
    )


def _resolved(blocks: Iterable[Block], mode: str, ctx: CleanContext) -> Iterator[Block]:
    """The blocks with their text resolved and paragraphs joined where a paragraph mark went;
    blocks left empty still pass (a heading emptied closes its section), for `_restructured`."""
    drop = "deletion" if mode == "accept" else "insertion"
    pending: Block | None = None  # a paragraph whose mark went: it joins the next one
    held: list[Block] = []

    def flush() -> Iterator[Block]:
        nonlocal pending
        if pending is not None:
            yield _stripped(pending)
            pending = None
        yield from held
        held.clear()

    for block in blocks:
        if pending is None and not block.marks and not _table_marks(block):
            yield block  # nothing tracked in its text and nothing to carry
            continue
        if block.kind == "table":
            yield from flush()
            table = _table(block, mode, ctx)
            if table is not None:
                yield table
            continue
        joins = _ends_in_mark(block, drop)
        text, marks, removed = resolve_changes(block.text, block.marks, mode)
        ctx.count("chars", removed)
        block = replace(block, text=text, marks=marks)
        if pending is not None and (block.kind in _ASIDE or block.layer == "furniture" or block.meta.get("textbox")):
            held.append(_stripped(block))
            continue
        if pending is not None:
            shift = len(pending.text)
            block = replace(
                block,
                text=pending.text + block.text,
                marks=(*pending.marks, *(replace(m, start=m.start + shift, end=m.end + shift) for m in block.marks)),
            )
            pending = None
            ctx.count("joins")
        pending = block
        if not joins:
            yield from flush()
    yield from flush()


def _restructured(blocks: list[Block], mode: str, ctx: CleanContext) -> Iterator[Block]:
    """The blocks in the form the mode gives them (`reject` restores a paragraph's style and list
    from `meta["form_before"]`), list and heading numbers counted again over the paragraphs that
    remain, and every heading path rebuilt from the headings that remain, as `place` built them."""
    root_index, root = _root(blocks)
    counters = Counters()
    stack: list[tuple[int, str]] = []
    for i, block in enumerate(blocks):
        if block.layer == "furniture":
            yield replace(block, path=(root, *block.path[1:]))
            continue
        for number in block.meta.get("numbers", ()):
            counters.next(number)
        block = _numbered(_in_form(block, mode), counters)
        if block.kind == "heading" and i != root_index:
            rank = block.meta.get("rank", block.level)
            while stack and stack[-1][0] >= rank:
                stack.pop()
            title = " ".join(block.text.split())
            if title:
                stack.append((rank, title))
        block = replace(block, path=(root,) if i == root_index else (root, *(t for _, t in stack)))
        if block.kind == "table" or block.text:
            yield block
        else:
            ctx.count("blocks")


def _root(blocks: list[Block]) -> tuple[int, str]:
    """The root of every path, and which block is the heading that gives it (-1: none): the
    loader's root, renamed where that heading's text changed."""
    root = next((b.path[0] for b in blocks if b.path), "")
    for i, b in enumerate(blocks):
        if b.kind == "heading" and b.layer == "body":
            if len(b.path) == 1:
                return i, " ".join(b.text.split()) or root
            break
    return -1, root


def _in_form(block: Block, mode: str) -> Block:
    """The block as the mode makes it: on `reject`, what its properties were before the change."""
    before = block.meta.get("form_before")
    block = _unnumbered(block)
    if mode != "reject" or before is None:
        return block
    meta = {
        k: v for k, v in block.meta.items() if k not in ("style", "rank", "number", "marker", "list_id", "form_before")
    }
    if before.style and (before.kind == "heading" or before.style != "NORMAL_TEXT"):
        meta["style"] = before.style
    if before.rank is not None:
        meta["rank"] = before.rank
    if before.number is not None:
        meta["number"] = before.number
    if before.kind == "list_item":
        meta["list_id"] = before.list_id
    return replace(block, kind=before.kind, level=before.level, meta=cast(BlockMeta, meta))


def _unnumbered(block: Block) -> Block:
    """A numbered heading without the number its loader put in front of its text."""
    marker = block.meta.get("marker")
    number = block.meta.get("number")
    if block.kind != "heading" or not marker or number is None:
        return block
    prefix = marker + number.suffix
    if not block.text.startswith(prefix):
        return block
    n = len(prefix)
    marks = tuple(replace(m, start=max(m.start - n, 0), end=max(m.end - n, 0)) for m in block.marks)
    meta = block.meta.copy()
    del meta["marker"]
    return replace(block, text=block.text[n:], marks=marks, meta=meta)


def _numbered(block: Block, counters: Counters) -> Block:
    """The block with the number it has among the paragraphs that remain."""
    number = block.meta.get("number")
    if number is None or block.kind not in ("list_item", "heading"):
        return block
    marker = counters.next(number)
    meta = block.meta.copy()
    if block.kind == "list_item":
        meta["marker"] = marker
        return replace(block, meta=meta)
    if not marker or number.bullet:
        return block
    meta["marker"] = marker
    prefix = marker + number.suffix
    n = len(prefix)
    marks = tuple(replace(m, start=m.start + n, end=m.end + n) for m in block.marks)
    return replace(block, text=prefix + block.text, marks=marks, meta=meta)


def _table_marks(block: Block) -> bool:
    return block.kind == "table" and bool(block.meta.get("cell_marks") or block.meta.get("row_marks"))


def _stripped(block: Block) -> Block:
    text, marks = strip_marked(block.text, block.marks)
    return replace(block, text=text, marks=marks)


def _ends_in_mark(block: Block, drop: str) -> bool:
    """The block ends in a tracked paragraph mark that resolving removes."""
    n = len(block.text)
    return n > 0 and block.text[-1] == "\n" and any(m.kind == drop and m.start < n <= m.end for m in block.marks)


def _table(block: Block, mode: str, ctx: CleanContext) -> Block | None:
    meta = block.meta
    cell_marks = tuple(meta.get("cell_marks", ()))
    row_marks = tuple(meta.get("row_marks", ()))
    if not block.rows or not any(m.kind in CHANGES for m in (*(m for *_, m in cell_marks), *(m for _, m in row_marks))):
        return block
    rows = block.rows
    shape = (len(rows), max(len(r) for r in rows))
    if tuple(meta.get("marks_shape", shape)) != shape:
        ctx.count("stale_tables")
        return block
    drop = "deletion" if mode == "accept" else "insertion"
    gone = {r for r, m in row_marks if m.kind == drop}
    new_index: dict[int, int] = {}
    for r in range(len(rows)):
        if r not in gone:
            new_index[r] = len(new_index)
    by_cell: dict[tuple[int, int], list[Mark]] = {}
    for r, c, m in cell_marks:
        by_cell.setdefault((r, c), []).append(m)
    new_rows: list[tuple[str, ...]] = []
    new_marks: list[tuple[int, int, Mark]] = []
    for r, row in enumerate(rows):
        if r in gone:
            ctx.count("rows")
            continue
        cells = []
        for c, value in enumerate(row):
            text, marks, removed = resolve_changes(value, by_cell.get((r, c), ()), mode)
            ctx.count("chars", removed)
            text, marks = strip_marked(text, marks)
            cells.append(text)
            new_marks.extend((new_index[r], c, m) for m in marks)
        new_rows.append(tuple(cells))
    if not new_rows:
        ctx.count("blocks")
        return None
    if meta.get("header_guessed"):
        header_rows = 1 if len(new_rows) > 1 else 0
    else:
        header_rows = sum(1 for r in range(block.header_rows) if r not in gone)
    new_meta = meta.copy()
    new_meta.update(BlockMeta(cell_marks=tuple(new_marks), row_marks=(), marks_shape=(len(new_rows), shape[1])))
    if "covered" in meta:
        new_meta["covered"] = tuple((new_index[r], c) for r, c in meta["covered"] if r in new_index)
    if "merges" in meta:
        new_meta["merges"] = tuple(_shifted_merges(meta["merges"], new_index))
    return replace(
        block, rows=tuple(new_rows), header_rows=header_rows, text=render_table(new_rows, header_rows), meta=new_meta
    )


def _shifted_merges(
    merges: Iterable[tuple[int, int, int, int]], new_index: dict[int, int]
) -> Iterator[tuple[int, int, int, int]]:
    for r0, c0, r1, c1 in merges:
        kept = [new_index[r] for r in range(r0, r1 + 1) if r in new_index]
        if kept and (kept[0] != kept[-1] or c0 != c1):
            yield kept[0], c0, kept[-1], c1


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


cleaner = Cleaner(name="track_changes", run=resolve_track_changes, options=TrackChangesOptions, default_for=frozenset())
