"""Markdown events from markdown-it-py's flat token stream (block rules only)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from .loader import Event

_LIST_OPEN = ("bullet_list_open", "ordered_list_open")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # The preset stops parsing silently past 20 levels of nesting; deeper lists are real
    # (and the Rust parser has no such limit), so the limit is lifted well past any document.
    md = MarkdownIt("commonmark", {"html": True, "maxNesting": 1000}).enable("table").use(front_matter_plugin)
    md.disable(["inline", "text_join"])
    return md


def events(text: str) -> tuple[str | None, list[Event], None]:
    tokens = _parser().parse(text)
    front_matter = tokens[0].content.rstrip("\n") if tokens and tokens[0].type == "front_matter" else None
    return front_matter, list(_walk(tokens)), None  # no line offsets: the builder finds them


def _walk(tokens: list[Token]) -> Iterator[Event]:
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        kind = tok.type
        if kind == "paragraph_open":
            yield "block", "paragraph", *_lines(tok), ""
            i += 3
        elif kind == "heading_open":
            yield "heading", int(tok.tag[1]), tokens[i + 1].content, *_lines(tok)
            i += 3
        elif kind in _LIST_OPEN:
            end = _close(tokens, i)
            yield from _list(tokens, i, end, depth=0)
            i = end + 1
        elif kind == "fence" or kind == "code_block":
            yield "block", "code", *_lines(tok), tok.info.strip().split(" ", 1)[0]
            i += 1
        elif kind == "table_open":
            end = _close(tokens, i)
            yield _table(tokens, i, end)
            i = end + 1
        elif kind == "blockquote_open":
            yield "block", "quote", *_lines(tok), ""
            i = _close(tokens, i) + 1
        elif kind == "html_block":
            yield "html", tok.content, *_lines(tok)
            i += 1
        else:  # hr, front matter, stray closes: nothing to read
            i += 1


def _list(tokens: list[Token], i: int, end: int, depth: int) -> Iterator[Event]:
    """One item event per run of an item's own lines; nested lists recurse."""
    ordered = tokens[i].type == "ordered_list_open"
    j = i + 1
    while j < end:
        item = tokens[j]  # list_item_open
        item_end = _close(tokens, j)
        marker = item.info or item.markup
        seg_start: int | None = _lines(item)[0]
        seg_end: int | None = None
        k = j + 1
        while k < item_end:
            child = tokens[k]
            child_end = _close(tokens, k) if child.nesting == 1 else k
            if child.type in _LIST_OPEN:
                if seg_end is not None:
                    yield "item", seg_start, seg_end, depth, ordered, marker
                yield from _list(tokens, k, child_end, depth + 1)
                seg_start, seg_end = None, None
            elif child.map:
                if seg_start is None:
                    seg_start = child.map[0]
                seg_end = child.map[1]
            k = child_end + 1
        if seg_end is not None:
            yield "item", seg_start, seg_end, depth, ordered, marker
        j = item_end + 1


def _table(tokens: list[Token], i: int, end: int) -> Event:
    rows: list[tuple[str, ...]] = []
    header_rows = 0
    row: list[str] = []
    for tok in tokens[i:end]:
        if tok.type == "inline":
            row.append(tok.content.strip())
        elif tok.type == "tr_close":
            rows.append(tuple(row))
            row = []
        elif tok.type == "thead_close":
            header_rows = len(rows)
    return "table", tuple(rows), header_rows, *_lines(tokens[i])


def _lines(tok: Token) -> tuple[int, int]:
    """[first, last) lines of a block token (markdown-it maps every one)."""
    assert tok.map is not None
    return tok.map[0], tok.map[1]


def _close(tokens: list[Token], i: int) -> int:
    """Index of the token closing the one opened at `i`."""
    level = tokens[i].level
    j = i + 1
    while tokens[j].nesting != -1 or tokens[j].level != level:
        j += 1
    return j
