"""Markdown via markdown-it-py's block rules: the token tree gives structure and source lines.

Only the block rules run (core rules `inline` and `text_join` are off): the chunker needs block
structure and line ranges, not inline tokens, and inline parsing would cost more than the
tokenizer. Each block's text is its exact source slice (markup kept), so chunk offsets point into
the file and the tokenizer can count each block once.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Iterator

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from ..blocks import Block, Document, Loaded
from ..table_text import render_table
from .html_table import parse_html_table
from .text_decoding import decode_text

_LIST_OPEN = ("bullet_list_open", "ordered_list_open")
# Inline markup to drop from heading titles: emphasis, code ticks, link targets, images.
_INLINE_MARKUP = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|[*_`~]+|<[^>]+>")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table").use(front_matter_plugin)
    md.disable(["inline", "text_join"])
    return md


def load(data: bytes, document: Document) -> Loaded:
    text, warnings = decode_text(data)
    return parse(text, document, warnings)


def parse(text: str, document: Document, warnings: tuple[str, ...] = ()) -> Loaded:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    tokens = _parser().parse(text)
    meta: dict = {}
    if tokens and tokens[0].type == "front_matter":
        meta, bad = _front_matter(tokens[0].content)
        warnings += bad
    h1 = _sole_leading_h1(tokens)
    title = _title(meta, h1, document)
    document = _with_title(document, title, meta)
    # The one leading H1 already is the title; otherwise the title roots every path.
    walker = _Walker(text, root=() if h1 else (title,), title=title)
    blocks = tuple(walker.blocks(tokens))
    return Loaded(document=document, blocks=blocks, text=text, warnings=warnings)


class _Walker:
    """Walks the flat token list once, keeping the heading stack (the only state)."""

    def __init__(self, text: str, root: tuple[str, ...], title: str) -> None:
        self.text = text
        self.line_starts = _line_starts(text)
        self.root = root
        self.headings: list[tuple[int, str]] = []
        self.path = root or (title,)  # what comes before the first heading sits under the title

    def blocks(self, tokens: list[Token]) -> Iterator[Block]:
        i, n = 0, len(tokens)
        while i < n:
            tok = tokens[i]
            kind = tok.type
            if kind == "paragraph_open":
                yield self._slice("paragraph", tok.map)
                i += 3
            elif kind == "heading_open":
                yield self._heading(tok, tokens[i + 1].content)
                i += 3
            elif kind in _LIST_OPEN:
                end = _close(tokens, i)
                yield from self._list(tokens, i, end, depth=0)
                i = end + 1
            elif kind == "fence" or kind == "code_block":
                yield self._slice("code", tok.map, lang=tok.info.strip().split(" ", 1)[0])
                i += 1
            elif kind == "table_open":
                end = _close(tokens, i)
                yield self._table(tokens, i, end)
                i = end + 1
            elif kind == "blockquote_open":
                end = _close(tokens, i)
                yield self._slice("quote", tok.map)
                i = end + 1
            elif kind == "html_block":
                block = self._html(tok)
                if block is not None:
                    yield block
                i += 1
            else:  # hr, front matter, stray closes: nothing to read
                i += 1

    def _heading(self, tok: Token, raw: str) -> Block:
        level = int(tok.tag[1])
        title = _plain(raw) or raw.strip()
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, title))
        self.path = self.root + tuple(t for _, t in self.headings)
        start, end = self._span(tok.map)
        return Block("heading", title, self.path, level=level, start=start, end=end)

    def _list(self, tokens: list[Token], i: int, end: int, depth: int) -> Iterator[Block]:
        """One list_item block per run of an item's own lines; nested lists recurse."""
        ordered = tokens[i].type == "ordered_list_open"
        j = i + 1
        while j < end:
            item = tokens[j]  # list_item_open
            item_end = _close(tokens, j)
            first = item.map[0] if item.map else None
            seg_start, seg_end = first, None
            k = j + 1
            while k < item_end:
                child = tokens[k]
                child_end = _close(tokens, k) if child.nesting == 1 else k
                if child.type in _LIST_OPEN:
                    if seg_end is not None:
                        yield self._item(seg_start, seg_end, depth, ordered, item)
                    yield from self._list(tokens, k, child_end, depth + 1)
                    seg_start, seg_end = None, None
                elif child.map:
                    if seg_start is None:
                        seg_start = child.map[0]
                    seg_end = child.map[1]
                k = child_end + 1
            if seg_end is not None:
                yield self._item(seg_start, seg_end, depth, ordered, item)
            j = item_end + 1

    def _item(self, first: int, last: int, depth: int, ordered: bool, item: Token) -> Block:
        meta = {"ordered": ordered, "marker": item.info or item.markup}
        return self._slice("list_item", [first, last], level=depth, meta=meta)

    def _table(self, tokens: list[Token], i: int, end: int) -> Block:
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
        return self._slice("table", tokens[i].map, rows=tuple(rows), header_rows=header_rows)

    def _html(self, tok: Token) -> Block | None:
        content = tok.content.strip()
        if content.startswith("<!--") and content.endswith("-->"):
            return None  # comments are notes to editors, not content
        if "<table" in content.lower():
            table = parse_html_table(content)
            if table is not None:
                rows, header_rows = table
                start, end = self._span(tok.map)
                return Block(
                    "table", render_table(rows, header_rows), self.path, rows=rows,
                    header_rows=header_rows, start=start, end=end, meta={"html": True},
                )
        return self._slice("paragraph", tok.map, meta={"html": True})

    def _span(self, line_map: list[int]) -> tuple[int, int]:
        starts = self.line_starts
        start = starts[line_map[0]]
        end = starts[line_map[1]] if line_map[1] < len(starts) else len(self.text)
        while end > start and self.text[end - 1].isspace():
            end -= 1
        return start, end

    def _slice(self, kind: str, line_map: list[int], **fields) -> Block:
        start, end = self._span(line_map)
        return Block(kind, self.text[start:end], self.path, start=start, end=end, **fields)


def _close(tokens: list[Token], i: int) -> int:
    """Index of the token closing the one opened at `i`."""
    level = tokens[i].level
    j = i + 1
    while tokens[j].nesting != -1 or tokens[j].level != level:
        j += 1
    return j


def _line_starts(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def _plain(raw: str) -> str:
    return " ".join(_INLINE_MARKUP.sub(lambda m: m.group(1) or "", raw).split())


def _front_matter(content: str) -> tuple[dict, tuple[str, ...]]:
    try:
        meta = yaml.safe_load(content)
    except yaml.YAMLError as exc:
        return {}, (f"front matter is not valid YAML, ignored: {exc}",)
    if not isinstance(meta, dict):
        return {}, ("front matter is not a mapping, ignored",)
    return meta, ()


def _title(meta: dict, h1: str | None, document: Document) -> str:
    if isinstance(meta.get("title"), str) and meta["title"].strip():
        return meta["title"].strip()
    return h1 or document.title or document.name


def _sole_leading_h1(tokens: list[Token]) -> str | None:
    """The title text of the document's first heading if it is an H1 and the only one."""
    headings = [(t.tag, tokens[i + 1].content) for i, t in enumerate(tokens) if t.type == "heading_open"]
    if headings and headings[0][0] == "h1" and sum(tag == "h1" for tag, _ in headings) == 1:
        return _plain(headings[0][1]) or headings[0][1].strip()
    return None


def _with_title(document: Document, title: str, meta: dict) -> Document:
    merged = {**document.meta, **({"front_matter": meta} if meta else {})}
    return replace(document, title=title, meta=merged)

