"""The data model every stage speaks: a `Document`, the `Block`s a loader reads out of it, and the
`Chunk`s the chunker packs them into.

A variant is a field, not a subclass: a table is a `Block` whose `kind` is "table" and whose `rows`
hold the cells. Inline facts (tracked changes, suggestions, comment anchors) are `Mark`s over spans
of a block's `text`, so one cleaner can resolve Word track changes and Google Docs suggestions alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

BlockKind = Literal[
    "heading",
    "paragraph",
    "list_item",
    "table",
    "code",
    "quote",
    "furniture",  # page header/footer/number: kept so a cleaner can judge it, never chunked
    "caption",
    "footnote",
    "figure",  # text drawn inside a figure (axis numbers, labels): kept apart from the body
]

# Kinds the chunker treats as prose: split at sentences, eligible for overlap.
PROSE_KINDS = frozenset({"paragraph", "list_item", "quote", "caption", "footnote"})

MarkKind = Literal[
    "insertion",  # tracked insertion (Word w:ins / w:moveTo, Google Docs suggested insertion)
    "deletion",  # tracked deletion (Word w:del / w:moveFrom, Google Docs suggested deletion)
    "comment",  # the span a comment is anchored to; attrs carry the comment text and author
    "footnote_ref",
    "link",
]


@dataclass(frozen=True, slots=True)
class Mark:
    """An inline fact over `text[start:end]` of one block."""

    kind: MarkKind | str
    start: int
    """Offset of the first character, in the block's `text`."""
    end: int
    """Offset after the last character."""
    attrs: Mapping[str, str] = field(default_factory=dict)
    """Author, date, comment text, link target: whatever the format tells."""


@dataclass(frozen=True, slots=True)
class Block:
    """One structural unit of a document, in reading order."""

    kind: BlockKind | str
    text: str
    """The block's text as it should be read and embedded (Markdown blocks keep their markup)."""
    path: tuple[str, ...] = ()
    """Heading path. For a heading block, the path it opens (its own title last)."""
    level: int = 0
    """Heading level (1-9) for headings; nesting depth (0 = outermost) for list items."""
    rows: tuple[tuple[str, ...], ...] | None = None
    """Table cells as data, row by row; None for non-tables."""
    header_rows: int = 0
    """How many leading `rows` are header rows, repeated on every piece of a split table."""
    lang: str = ""
    """Code block language, as the source states it."""
    page: int | None = None
    """1-based page number where the format has pages."""
    bbox: tuple[float, float, float, float] | None = None
    """Position on the page (x0, y0, x1, y1) in points, where the format has one."""
    start: int | None = None
    """Character offset of `text` in the document's source text, for text formats."""
    end: int | None = None
    """Character offset after the block in the source text."""
    marks: tuple[Mark, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)
    """Loader facts a cleaner may need (list marker, style name, font size, sheet name...)."""


@dataclass(frozen=True, slots=True)
class Document:
    """A source document's identity and citation metadata."""

    id: str
    """Stable id: the same document keeps it across versions (path for local files, file id for Drive)."""
    uri: str
    name: str
    mime_type: str
    modified: str = ""
    """ISO-8601 modification time as the source reports it."""
    version: str = ""
    """Source version: Drive's version/revision, or the content hash for local files."""
    title: str = ""
    """Document title (front matter, metadata or file name); root of every heading path."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    readers: tuple[str, ...] | None = None
    """Who may open it (`user:a@x`, `group:g@x`, `domain:x`, `anyone`), for search to filter on;
    None where the source has no such notion (local files: no filter applies)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a loader returns: the document, its blocks, and the source text blocks point into."""

    document: Document
    blocks: tuple[Block, ...]
    text: str | None = None
    """The source text `Block.start`/`end` index into, for text formats; None otherwise."""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Source:
    """The citation metadata a chunk carries so it can be cited without a lookup."""

    uri: str
    name: str
    mime_type: str
    modified: str
    version: str

    @classmethod
    def of(cls, doc: Document) -> Source:
        return cls(doc.uri, doc.name, doc.mime_type, doc.modified, doc.version)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A retrievable unit: whole blocks (or whole sentences of one block) under one heading path."""

    id: str
    """Content-addressed: from the document id, heading path and text (and which repeat of them it
    is), not from `chunk_index`, so inserting a chunk leaves the other chunks' ids alone."""
    doc_id: str
    chunk_index: int
    text: str
    heading_path: tuple[str, ...]
    kinds: tuple[str, ...]
    """Block kinds in the chunk, in order of first appearance."""
    token_count: int
    """Exact count of `text` in the configured tokenizer."""
    overlap_tokens: int
    """How many leading tokens of `text` repeat the previous chunk's tail."""
    source: Source
    start: int | None = None
    """Character offset of the chunk (overlap included) in the document's source text.

    `text == source[start:end]` except in three cases: content the loader dropped between two
    blocks (comments, horizontal rules, link definitions) is joined over by a blank line; a piece
    of a split table repeats the header; a heading standing alone shows its title, not its markup.
    """
    end: int | None = None
    page_start: int | None = None
    page_end: int | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    url: str = ""
    """A link that opens the place the chunk came from (a Google Doc at its heading, a PDF at its
    page, a sheet at its tab); "" where the source has none."""

    @property
    def embed_text(self) -> str:
        """The text to embed or index as one string: the headings above the chunk, because they
        hold query terms the body lacks, then the text.

        The path's root (the document's title or name) is left out: every chunk of the document
        shares it, so among them it tells nothing apart and only takes tokens (13-15% of what a
        reader is given on long reports). The name stays searchable: the SQLite index keeps the
        whole path in its weighted heading column, and `source.name` travels with every chunk.
        """
        if len(self.heading_path) < 2:
            return self.text
        return " > ".join(self.heading_path[1:]) + "\n\n" + self.text
