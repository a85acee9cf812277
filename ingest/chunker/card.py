"""A document's card: what is about a document rather than in it, as one chunk of its own kind.

The cleaners keep furniture out of the body's chunks, and they should: a PACER stamp on every
page, a report's running chapter title or a Word footer between two paragraphs only blur what a
chunk says. But a question may ask about it ("the filing id and case number", "how many chapters"),
so it is not thrown away: the card holds the document's title and name, its properties as the
loader read them (`Document.meta`: author, subject, keywords, dates, page labels, a Markdown file's
front matter, an e-mail's senders), and the distinct texts of the furniture the cleaners dropped
(PDF margin-band lines: running headers and footers, stamps; .docx and Google Docs header and
footer parts), in first-seen order. Lines differing only in their digits ("Page: 3", "Page: 4")
or in a number at either end (a header's page number) are one line, shown as first seen; bare
page numbers are left out. The card has kind "card"
(`kinds == ("card",)`), so a search can leave cards out, and comes after the document's other
chunks (its `chunk_index` is their count: theirs do not move). A document with nothing beyond its
title gets none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from ..blocks import CARD, Block, Chunk, Citation, Loaded
from ..page_furniture import band_key, is_page_number
from . import ChunkOptions
from .ids import chunk_id
from .pack import chunk
from .tokens import Tokenizer, get_tokenizer

_NOT_PROPERTIES = frozenset({"comments", "lang", "language", "messages", "message_id", "page_labels"})
"""`Document.meta` keys that are no property a reader asks about: bookkeeping (the comments, a
mailbox's message count, a message id), the text's language (a stemmer's business); page labels
are shown apart."""
_END_NUMBERS = re.compile(r"^#\s+|\s+#$")
_INTERNAL = "drive_"
"""Prefix of the facts the Drive source keeps for links (the file's path and type)."""


def chunks_with_card(loaded: Loaded, options: ChunkOptions, blocks: Iterable[Block] | None = None) -> Iterator[Chunk]:
    """`chunk()`'s chunks, then the document's card where `options.card` asks for one and the
    document has one. `blocks` are the kept (cleaned) blocks, as `chunk()` takes them."""
    kept = list(loaded.blocks if blocks is None else blocks)
    count = 0
    for c in chunk(loaded, options, kept):
        count += 1
        yield c
    card = document_card(loaded, kept, options, count) if options.card else None
    if card is not None:
        yield card


def document_card(loaded: Loaded, kept: Sequence[Block], options: ChunkOptions, index: int) -> Chunk | None:
    """The card of `loaded` once cleaned down to `kept`, as the chunk at `index`; None when it
    would say nothing beyond the title and file name. At most `options.max_tokens` long: the
    lines past it are left out."""
    doc = loaded.document
    title = doc.title or doc.name
    head = [title]
    if doc.name and PurePosixPath(doc.name).stem != title:  # a title from the file's metadata
        head.append(doc.name)
    lines = [f"{label}: {value}" for label, value in _properties(doc.meta)]
    if doc.meta.get("page_labels"):
        lines.append(f"Page labels: {doc.meta['page_labels']}")
    shown = {line_key(line) for line in head}
    lines += [line for line in dropped_furniture(loaded.blocks, kept) if line_key(line) not in shown]
    if not lines:
        return None
    text, count = _within(head, lines, get_tokenizer(options.tokenizer), options.max_tokens)
    path = (title,)
    return Chunk(
        id=chunk_id(doc.id, path, text, {}),
        doc_id=doc.id,
        chunk_index=index,
        text=text,
        heading_path=path,
        kinds=(CARD,),
        token_count=count,
        overlap_tokens=0,
        source=Citation.of(doc),
    )


def dropped_furniture(loaded: Iterable[Block], kept: Sequence[Block]) -> list[str]:
    """The distinct lines of the furniture blocks (a margin band's, or the furniture layer's) that
    did not reach `kept`, in first-seen order, digits normalised, page numbers left out."""
    ids = {id(b) for b in kept}
    texts = {b.text for b in kept}
    seen: set[str] = set()
    out = []
    for block in loaded:
        if not _furniture(block) or id(block) in ids or block.text in texts:
            continue
        pieces = block.meta.get("segments") or (block.text,)
        for text in _lines(pieces):
            key = line_key(text)
            if key not in seen:
                seen.add(key)
                out.append(text)
    return out


def line_key(text: str) -> str:
    """A furniture line's identity: digits normalised (`band_key`), and a number at either end
    left out, as a running header's page number sits on the left of even pages and the right of
    odd ones ("8 Chapter 1 Ready" and "Chapter 1 Ready 9" are one line)."""
    return _END_NUMBERS.sub("", band_key(text)) or band_key(text)


def _furniture(block: Block) -> bool:
    # kind "furniture": how a plugin loader written before the layer existed says it (as the cleaner).
    return block.layer == "furniture" or block.kind == "furniture" or bool(block.meta and block.meta.get("band"))


def _lines(pieces: Sequence[str]) -> Iterator[str]:
    """A band line's pieces without the page numbers among them, joined; a furniture part's lines."""
    if len(pieces) > 1:
        kept = [p.strip() for p in pieces if p.strip() and not is_page_number(p)]
        if kept:
            yield "  ".join(kept)
        return
    for line in pieces[0].splitlines():
        line = " ".join(line.split())
        if line and not is_page_number(line):
            yield line


def _properties(meta: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(label, value) of each property in `meta` a reader could ask about: text, numbers and lists
    of them; a mapping (a Markdown file's front matter) gives its own, one level down."""
    for key, value in meta.items():
        if key in _NOT_PROPERTIES or key.startswith(_INTERNAL):
            continue
        if isinstance(value, Mapping):
            yield from ((label, v) for label, v in _properties(value) if label.lower() != "title")
            continue
        shown = _shown(value)
        if shown:
            yield key.replace("_", " ").capitalize(), shown


def _shown(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return ""  # a flag (draft: true) tells a reader nothing out of its context
    if isinstance(value, (str, int, float)):
        return " ".join(str(value).split())
    if isinstance(value, (list, tuple)):
        return ", ".join(s for s in map(_shown, value) if s)
    return ""


def _within(head: list[str], rest: list[str], tok: Tokenizer, budget: int) -> tuple[str, int]:
    """`head` and as many of `rest`'s lines as fit `budget` tokens, joined by newlines, and the
    count. The head alone is cut to the budget if it is over it."""
    text = "\n".join(head)
    count = tok.count(text)
    if count > budget:
        text = text[: tok.cut(text, budget)]
        return text, tok.count(text)
    for line in rest:
        longer = f"{text}\n{line}"
        n = tok.count(longer)
        if n > budget:
            break
        text, count = longer, n
    return text, count
