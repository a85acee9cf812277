"""Markdown: a block parser gives structure and source lines; the rest is ours.

Only block rules run (no inline parsing): the chunker needs block structure and line ranges, not
inline tokens, and inline parsing would cost more than the tokenizer. Each block's text is its
exact source slice (markup kept), so chunk offsets point into the file and the tokenizer can
count each block once.

Two parsers give the same events (a test holds them equal on hundreds of real files):
markdown-it-py's token stream, and its Rust port markdown-it-pyrs, five times faster, used when
installed (`pip install ingest[fast]`).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import date, datetime
from itertools import accumulate

import yaml

from ...blocks import Block, Document, Loaded
from ...table_text import render_table
from ..text.decoding import decode_text
from .html_table import parse_html_table

# Inline markup to drop from heading titles: emphasis, code ticks, link targets, images.
_INLINE_MARKUP = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|[*_`~]+|<[^>]+>")
_MARKUP_CHARS = frozenset("[*_`~<")

Event = tuple
"""What a parser reports, by line ranges [first, last):
("heading", level, raw title, first, last), ("block", kind, first, last, lang),
("item", first, last, depth, ordered, marker), ("table", rows, header rows, first, last),
("html", content, first, last)."""
Parse = Callable[[str], tuple[str | None, list[Event], list[int] | None]]
"""text -> (front matter, events, each line's first character if the parser has them)."""
"""Text to (front matter or None, events)."""


def _default_parser() -> Parse:
    parse: Parse
    try:
        from .tree import events as parse
    except ImportError:  # the Rust parser is optional
        from .tokens import events as parse
    return parse


def load(data: bytes, document: Document) -> Loaded:
    text, warnings = decode_text(data)
    return parse(text, document, warnings)


def parse(text: str, document: Document, warnings: tuple[str, ...] = (), parser: Parse | None = None) -> Loaded:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front_matter, events, starts = (parser or _PARSER)(text)
    meta: dict = {}
    if front_matter is not None:
        meta, bad = _front_matter(front_matter)
        warnings += bad
    h1 = _sole_leading_h1(e for e in events if e[0] == "heading")
    title = _title(meta, h1, document)
    document = _with_title(document, title, meta)
    # The one leading H1 already is the title; otherwise the title roots every path.
    builder = _Builder(text, starts, root=() if h1 else (title,), title=title)
    blocks = tuple(b for b in map(builder.block, events) if b is not None)
    return Loaded(document=document, blocks=blocks, text=text, warnings=warnings)


class _Builder:
    """Turns events into blocks, keeping the heading stack (the only state)."""

    def __init__(self, text: str, starts: list[int] | None, root: tuple[str, ...], title: str) -> None:
        self.text = text
        self.line_starts = starts if starts is not None else line_starts(text)
        self.root = root
        self.headings: list[tuple[int, str]] = []
        self.path = root or (title,)  # what comes before the first heading sits under the title

    def block(self, event: Event) -> Block | None:
        kind = event[0]
        if kind == "block":
            _, block_kind, first, last, lang = event
            return self._slice(block_kind, first, last, lang=lang)
        if kind == "item":
            _, first, last, depth, ordered, marker = event
            return self._slice("list_item", first, last, level=depth, meta={"ordered": ordered, "marker": marker})
        if kind == "heading":
            return self._heading(*event[1:])
        if kind == "table":
            _, rows, header_rows, first, last = event
            return self._slice("table", first, last, rows=rows, header_rows=header_rows)
        return self._html(*event[1:])

    def _heading(self, level: int, raw: str, first: int, last: int) -> Block:
        title = _plain(raw) or raw.strip()
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if title:  # an empty heading ("#") closes sections but names none
            self.headings.append((level, title))
        self.path = self.root + tuple(t for _, t in self.headings)
        start, end = self._span(first, last)
        return Block("heading", title, self.path, level=level, start=start, end=end)

    def _html(self, content: str, first: int, last: int) -> Block | None:
        content = content.strip()
        if content.startswith("<!--") and content.endswith("-->"):
            return None  # comments are notes to editors, not content
        if "<table" in content.lower():
            table = parse_html_table(content)
            if table is not None:
                rows, header_rows = table
                start, end = self._span(first, last)
                return Block(
                    "table",
                    render_table(rows, header_rows),
                    self.path,
                    rows=rows,
                    header_rows=header_rows,
                    start=start,
                    end=end,
                    meta={"html": True},
                )
        return self._slice("paragraph", first, last, meta={"html": True})

    def _span(self, first: int, last: int) -> tuple[int, int]:
        starts = self.line_starts
        start = starts[first]
        end = starts[last] if last < len(starts) else len(self.text)
        while end > start and self.text[end - 1].isspace():
            end -= 1
        return start, end

    def _slice(self, kind: str, first: int, last: int, **fields) -> Block:
        start, end = self._span(first, last)
        return Block(kind, self.text[start:end], self.path, start=start, end=end, **fields)


def line_starts(text: str | bytes) -> list[int]:
    """Offset of each line's first character (or byte)."""
    lines = text.split("\n") if isinstance(text, str) else text.split(b"\n")
    return list(accumulate([len(line) + 1 for line in lines][:-1], initial=0))


def _plain(raw: str) -> str:
    if _MARKUP_CHARS.isdisjoint(raw):  # most headings: no markup, no regex pass
        return " ".join(raw.split())
    return " ".join(_INLINE_MARKUP.sub(lambda m: m.group(1) or "", raw).split())


def _front_matter(content: str) -> tuple[dict, tuple[str, ...]]:
    try:
        meta = yaml.safe_load(content)
    except yaml.YAMLError as exc:
        return {}, (f"front matter is not valid YAML, ignored: {exc}",)
    if not isinstance(meta, dict):
        return {}, ("front matter is not a mapping, ignored",)
    data = _json_data(meta)
    return (data if isinstance(data, dict) else {}), ()  # a mapping stays one


def _json_data(value: object) -> object:
    """YAML values as JSON data, for the index: a date (`date: 2024-01-05`, in every Jekyll or Hugo
    post) becomes its ISO text, keys become text, binary becomes base64."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else _scalar_text(k): _json_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_json_data(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return _scalar_text(value)


def _scalar_text(value: object) -> str:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return str(value)


def _title(meta: dict, h1: str | None, document: Document) -> str:
    if isinstance(meta.get("title"), str) and meta["title"].strip():
        return meta["title"].strip()
    return h1 or document.title or document.name


def _sole_leading_h1(heading_events: Iterable[Event]) -> str | None:
    """The title text of the document's first heading if it is an H1 and the only one."""
    headings = [(e[1], e[2]) for e in heading_events]
    if headings and headings[0][0] == 1 and sum(level == 1 for level, _ in headings) == 1:
        return _plain(headings[0][1]) or headings[0][1].strip()
    return None


def _with_title(document: Document, title: str, meta: dict) -> Document:
    merged = {**document.meta, **({"front_matter": meta} if meta else {})}
    return replace(document, title=title, meta=merged)


_PARSER: Parse = _default_parser()
