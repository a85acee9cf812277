"""Markdown events from markdown-it-pyrs, the Rust port of markdown-it (block rules only).

Its nodes carry byte ranges; events speak in lines, as markdown-it-py's maps do.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import TYPE_CHECKING

from markdown_it_pyrs import MarkdownIt, Node

from .loader import Event, line_starts

if TYPE_CHECKING:
    from markdown_it_pyrs.markdown_it_pyrs import _PLUGIN_NAME

_BLOCK_RULES: list[_PLUGIN_NAME] = [
    "blockquote",
    "code",
    "fence",
    "heading",
    "hr",
    "lheading",
    "list",
    "paragraph",
    "reference",
    "html_block",
    "table",
    "front_matter",
]
_LISTS = ("bullet_list", "ordered_list")
_NUMBER = re.compile(r"[ \t>]*(\d+)")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("zero")
    md.enable_many(_BLOCK_RULES)
    return md


def events(text: str) -> tuple[str | None, list[Event], list[int]]:
    """Front matter, events, and each line's first character (the builder needs them too)."""
    root = _parser().tree(text)
    lines = _Lines(text)
    front_matter = None
    out: list[Event] = []
    for node in root.children:
        if node.name == "front_matter":
            front_matter = node.meta.get("content", "").rstrip("\n")
        else:
            _walk(node, lines, text, out)
    return front_matter, out, lines.char_starts


class _Lines:
    """Byte offsets to line numbers; for ASCII text bytes and characters coincide."""

    def __init__(self, text: str) -> None:
        data = text.encode("utf-8")
        self.starts = line_starts(data)
        self.char_starts = self.starts if len(data) == len(text) else line_starts(text)

    def span(self, node: Node) -> tuple[int, int]:
        """[first, last) lines the node covers."""
        assert node.srcmap is not None  # every block node has its byte range
        begin, end = node.srcmap
        starts = self.starts
        return bisect_right(starts, begin) - 1, bisect_right(starts, end - 1 if end > begin else begin)


# Plain appends, not generators: tens of thousands of nodes per megabyte.
def _walk(node: Node, lines: _Lines, text: str, out: list[Event]) -> None:
    name = node.name
    if name == "paragraph":
        out.append(("block", "paragraph", *lines.span(node), ""))
    elif name == "heading" or name == "lheading":
        children = node.children
        raw = children[0].meta.get("content", "") if children else ""
        out.append(("heading", node.meta["level"], raw, *lines.span(node)))
    elif name in _LISTS:
        _list(node, lines, text, 0, out)
    elif name == "fence":
        out.append(("block", "code", *lines.span(node), node.meta.get("info", "").strip().split(" ", 1)[0]))
    elif name == "code_block":
        out.append(("block", "code", *lines.span(node), ""))
    elif name == "table":
        out.append(_table(node, lines))
    elif name == "blockquote":
        out.append(("block", "quote", *lines.span(node), ""))
    elif name == "html_block":
        out.append(("html", node.meta.get("content", ""), *lines.span(node)))
    # hr and link reference definitions: nothing to read


def _list(node: Node, lines: _Lines, text: str, depth: int, out: list[Event]) -> None:
    """One item event per run of an item's own lines; nested lists recurse."""
    ordered = node.name == "ordered_list"
    bullet = "" if ordered else node.meta.get("marker", "")
    for item in node.children:
        first, _ = lines.span(item)
        marker = _number(text, lines.char_starts[first]) if ordered else bullet
        seg_start: int | None = first
        seg_end: int | None = None
        for child in item.children:
            name = child.name
            if name in _LISTS:
                if seg_end is not None:
                    out.append(("item", seg_start, seg_end, depth, ordered, marker))
                _list(child, lines, text, depth + 1, out)
                seg_start, seg_end = None, None
                continue
            if name == "definition":
                continue  # link reference definitions are not content (markdown-it-py drops them)
            child_first, child_last = lines.span(child)
            if seg_start is None:
                seg_start = child_first
            seg_end = child_last
        if seg_end is not None:
            out.append(("item", seg_start, seg_end, depth, ordered, marker))


def _number(text: str, start: int) -> str:
    """The item's own number as written, as markdown-it-py reports it."""
    match = _NUMBER.match(text, start)
    return match.group(1) if match else ""


def _table(node: Node, lines: _Lines) -> Event:
    rows: list[tuple[str, ...]] = []
    header_rows = 0
    for part in node.children:
        for row in part.children:
            rows.append(
                tuple(
                    cell.children[0].meta.get("content", "").strip() if cell.children else "" for cell in row.children
                )
            )
        if part.name == "thead":
            header_rows = len(rows)
    return "table", tuple(rows), header_rows, *lines.span(node)
