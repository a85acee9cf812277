"""Heading paths for word-processor documents (Word, Google Docs): items read in order, then
placed under the headings above them.

A loader reads paragraphs, tables and notes as `Item`s with a heading `rank` where they are
headings (the Title style ranks 0, above Heading 1; a Google Docs tab ranks below 0, above
everything in it), then `root_of` picks the root of every path and `place` gives each item its
path as a `Block`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ...blocks import Block, BlockMeta, Layer, ListNumber, Mark
from ...table_text import render_table

TITLE_RANK = 0
"""The Title style ranks above Heading 1."""


@dataclass(frozen=True, slots=True)
class Table:
    rows: tuple[tuple[str, ...], ...]
    header_rows: int
    header_guessed: bool
    """No row is marked as a header row in the source; the first row is taken as the header."""
    covered: tuple[tuple[int, int], ...]
    cell_marks: tuple[tuple[int, int, Mark], ...]
    """Marks inside one cell: (row, col, mark), the mark's offsets index into `rows[row][col]`."""
    row_marks: tuple[tuple[int, Mark], ...]
    """A whole row was inserted or deleted: (row, mark) with an empty span."""
    merges: tuple[tuple[int, int, int, int], ...]
    """Each merged range as (anchor_row, anchor_col, last_row, last_col)."""
    numbers: tuple[ListNumber, ...] = ()
    """Numbered paragraphs in the cells, which count in the body's lists, in order."""


@dataclass(slots=True)
class Item:
    """A body element read but not yet placed under its heading path."""

    kind: str
    text: str = ""
    marks: list[Mark] = field(default_factory=list)
    rank: int | None = None
    level: int = 0
    meta: BlockMeta = field(default_factory=BlockMeta)
    table: Table | None = None
    lang: str = ""
    """A code block's language (HTML's `class="language-x"`)."""
    layer: Layer = "body"
    """"furniture" for what a page marks as about it, not in it (HTML's nav, page header and footer)."""

    @property
    def section(self) -> bool:
        """A heading above the document's own (a Google Docs tab): never the document's title."""
        return self.rank is not None and self.rank < TITLE_RANK


def root_of(items: list[Item], fallback: Callable[[], str]) -> tuple[str, bool]:
    """The root of every heading path, and whether the first heading is that root.

    The first heading is the root when it comes before any tab heading and is the document's
    only Title, or its only heading of level 1 or above when there is no Title; otherwise the
    root is `fallback()` (a title from the file's properties, else its name).
    """
    headings = [i for i in items if i.kind == "heading"]
    if headings and not headings[0].section:
        first = headings[0]
        own = [h for h in headings if not h.section]
        top = [h for h in own if h.rank == first.rank]
        if (
            first.rank is not None
            and first.rank <= 1
            and len(top) == 1
            and (first.rank == TITLE_RANK or not any(h.rank == TITLE_RANK for h in own))
        ):
            return " ".join(first.text.split()), True
    return " ".join(fallback().split()), False


def place(items: Iterable[Item], title: str, root_heading: bool) -> Iterator[Block]:
    """Give every item its heading path, rooted at `title`."""
    stack: list[tuple[int, str]] = []
    first_heading = True
    for item in items:
        if item.kind == "heading":
            if first_heading and root_heading:
                first_heading = False
                yield Block(
                    "heading", item.text, path=(title,), level=item.level, marks=tuple(item.marks), meta=item.meta
                )
                continue
            first_heading = False
            rank = TITLE_RANK if item.rank is None else item.rank  # the readers give every heading its rank
            while stack and stack[-1][0] >= rank:
                stack.pop()
            stack.append((rank, " ".join(item.text.split())))
        path = (title, *(t for _, t in stack))
        if item.table is not None:
            t = item.table
            meta: BlockMeta = {
                "covered": t.covered,
                "merges": t.merges,
                "cell_marks": t.cell_marks,
                "row_marks": t.row_marks,
                "header_guessed": t.header_guessed,
                "marks_shape": (len(t.rows), len(t.rows[0]) if t.rows else 0),
            }
            if t.numbers:
                meta["numbers"] = t.numbers
            yield Block(
                "table",
                render_table(t.rows, t.header_rows),
                path=path,
                rows=t.rows,
                header_rows=t.header_rows,
                meta=meta,
                layer=item.layer,
            )
        else:
            yield Block(
                item.kind,
                item.text,
                path=path,
                level=item.level,
                lang=item.lang,
                marks=tuple(item.marks),
                meta=item.meta,
                layer=item.layer,
            )
