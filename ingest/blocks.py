"""The data model every stage speaks: a `Document`, the `Block`s a loader reads out of it, and the
`Chunk`s the chunker packs them into.

A variant is a field, not a subclass: a table is a `Block` whose `kind` is "table" and whose `rows`
hold the cells. Inline facts (tracked changes, suggestions, comment anchors) are `Mark`s over spans
of a block's `text`, so one cleaner can resolve Word track changes and Google Docs suggestions alike.
What a block is (its `kind`: a paragraph, a table) and whether it is in the document or about it
(its `layer`: body or furniture, as docling-core's content layers) are two fields.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypedDict

BlockKind = Literal[
    "heading",
    "paragraph",
    "list_item",
    "table",
    "code",
    "quote",
    "caption",
    "footnote",
    "figure",  # text drawn inside a figure (axis numbers, labels): a chunk of its own, never body
]

Layer = Literal[
    "body",  # the document's own content
    "furniture",  # about the document, not in it: a page header or footer part (.docx, Google Docs)
]

Band = Literal["top", "bottom", "left", "right"]
"""A page's margin band a PDF line sits in, apart from the body (see `BlockMeta.band`)."""

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


class BlockMeta(TypedDict, total=False):
    """The loader facts a `Block` carries for later stages: each key, who writes it, who reads it.

    Every key is optional; a block holds the ones its format has. A plugin loader or cleaner may add
    keys of its own (the dict is plain data at run time): prefix them with the plugin's name so they
    cannot collide with ours, and, for a type checker, declare them in a TypedDict of its own that
    extends this one (`class MyMeta(BlockMeta, total=False): mypkg_score: float`), passed as
    `Block(..., meta=MyMeta(...))` and read back as `cast(MyMeta, block.meta)`.
    """

    # Lists and outline
    marker: str
    """A list item's marker ("-", "3.", "(a)"), kept apart from `text`: Markdown, PDF, Word and Google
    Docs loaders write it; the chunker shows it (`display_text`), the Google Docs loader reads it."""
    ordered: bool
    """A list item of a numbered list: the Markdown and .pptx loaders write it; no stage reads it."""
    list_id: str
    """Which list a Word or Google Docs list item belongs to: their loaders write it; no stage reads it."""
    style: str
    """The Word or Google Docs paragraph style name: their loaders write it; no stage reads it."""
    heading_id: str
    """A Google Docs heading's id: the Docs loader writes it; the Drive links (`links.py`) read it."""
    tab: bool
    """A heading that is a Google Docs tab's title: the Docs loader writes it; no stage reads it."""
    number: ListNumber
    """How a Word or Docs list item or numbered heading counts: their loaders write it (with
    `marker`, the number counted with every paragraph there); `track_changes` counts again after
    resolving (and puts a heading's new number in front of its text, where `marker` was)."""
    numbers: tuple[ListNumber, ...]
    """On a Word or Docs table: the numbered paragraphs in its cells, which count in the body's
    lists: their loaders write it; `track_changes` counts them when counting again."""
    rank: int
    """A Word or Docs heading's rank (Title 0, Heading N N, a Docs tab below 0): their loaders
    write it; `track_changes` places blocks under headings again after resolving."""
    form_before: ParagraphForm
    """The paragraph before a tracked change to its properties (Word's `w:pPrChange`) or without a
    suggested style or bullet (Docs), the block itself being the form after it: the Word and Docs
    loaders write it; `track_changes` gives the block this form on `reject`."""
    html: bool
    """A Markdown block of raw HTML: the Markdown loader writes it; no stage reads it."""
    textbox: bool
    """A Word paragraph from a text box: the .docx loader writes it; `track_changes` keeps such a
    block out of a paragraph join, as it does footnotes."""

    # Mail
    mail: Literal["quoted", "attribution", "signature", "headers"]
    """What part of an e-mail a block is, where not the writer's new text: a quoted reply, the
    "On ... wrote:" line above it, the signature, or (in an .mbox) a message's From/To/Date line.
    The mail loader writes it; the `mail_quotes` cleaner drops the first three."""
    attachment: str
    """The file name of the e-mail attachment a block was read from: the mail loader writes it;
    no stage reads it."""

    # Notes and furniture
    speaker_notes: bool
    """A block of a slide's speaker notes, not of the slide: the .pptx loader writes it (only
    with `pptx: {notes: true}`, the default); no stage reads it."""
    ocr: bool
    """A block read by OCR from a page image (a scanned PDF page, an image file): the PDF and image
    loaders write it, with `ocr_confidence`; no stage reads it."""
    ocr_confidence: float
    """The OCR engine's mean confidence (0-1) on the block's page: written with `ocr`."""
    slide_id: str
    """A Google Slides slide's object id, on its heading: the .pptx loader writes it (from a Drive
    export's shape names); the Drive links (`links.py`) read it."""
    pdf_pass: str
    """The PDF reader's pass that decided what the block is (a name in `pdf/passes.py`: "headings",
    "units", "ruled_tables", "figures", "margins", "rejoin_bands", "blocks"): the PDF loader writes
    it; `ingest inspect` shows it."""
    note: str
    """"footnote" or "endnote", on a note block: the Word and Docs loaders write it; no stage reads it."""
    id: str
    """The note's id (footnotes), or the header/footer story's id (Google Docs): their loaders write it."""
    label: str
    """The note's number as the text shows it: the Word and Docs loaders write it; no stage reads it."""
    part: Literal["header", "footer"]
    """Which part a furniture block comes from: the Word and Docs loaders write it; the Docs loader
    orders headers before the body and footers after it."""
    type: str
    """A Word header or footer's type ("default", "first", "even"): the .docx loader writes it."""

    # Comments
    comments: tuple[Mapping[str, str], ...]
    """The comments on a block's text (id, author, text, quote...), when the `comments` cleaner runs
    with `keep_as_metadata`: that cleaner writes it; the chunker puts them in the chunk's `meta`."""

    # Tables
    cell_marks: tuple[tuple[int, int, Mark], ...]
    """Marks inside one cell, (row, col, mark), offsets into `rows[row][col]`: the Word, Docs and
    spreadsheet loaders write it; `track_changes` and `comments` resolve them."""
    row_marks: tuple[tuple[int, Mark], ...]
    """A whole row inserted or deleted, (row, mark): the Word and Docs loaders write it;
    `track_changes` resolves it."""
    marks_shape: tuple[int, int]
    """(rows, columns) when the marks were made: the Word and Docs loaders write it; `track_changes`
    leaves a table's marks alone once another cleaner has reshaped it."""
    header_guessed: bool
    """The header row was guessed, not declared: the Word and Docs loaders write it;
    `track_changes` guesses again after dropping rows."""
    covered: tuple[tuple[int, int], ...]
    """(row, col) cells hidden under a merged cell: the Word, Docs and spreadsheet loaders write it;
    `merged_cells`, `empty_cells` and `track_changes` read and keep it in step with `rows`."""
    merges: tuple[tuple[int, int, int, int], ...]
    """Each merged range as (anchor_row, anchor_col, last_row, last_col): written and read as `covered`."""
    sheet: str
    """The sheet a block comes from: the spreadsheet loader writes it; the Drive links read it on a
    sheet's heading."""
    cell: str
    """A spreadsheet block's top-left cell ("B3"): the spreadsheet loader writes it."""
    range: str
    """A spreadsheet table's range ("B3:F20"): the spreadsheet loader writes it."""
    header: Literal["detected", "first_row"]
    """Whether a spreadsheet table's header row was recognised or taken to be its first row: the
    spreadsheet loader writes it."""

    # Pages (PDF)
    page_end: int
    """The last page a block runs onto, when past `page`: the PDF loader writes it; the chunker reads
    it for a chunk's `page_end`."""
    font_size: float
    """The size a PDF block's first line is set in: the PDF loader writes it; `running_headers`
    compares a band line with the body's size."""
    band: Band | None
    """Where a PDF line sits, a position fact and not a decision: the margin band the loader found it
    in, kept apart from the body's paragraphs (None: in the body). The PDF loader writes it;
    `running_headers`, `page_numbers` and `line_numbers` judge band lines and drop the furniture."""
    segments: tuple[str, ...]
    """A band line's pieces, left to right as laid out: the PDF loader writes it; `running_headers`
    and `page_numbers` judge the pieces one by one."""
    rotated: bool
    """A band line set at an angle: the PDF loader writes it; `running_headers` drops side stamps."""
    italic: bool
    """A band line set in italics: the PDF loader writes it; `running_headers` reads it."""
    page_label: str
    """The PDF's own label for the page ("iv", "7-45"): the PDF loader writes it; `page_numbers`
    recognises a header's number by it."""
    page_width: float
    """The page's size in points, on band lines: the PDF loader writes it; no stage reads it."""
    page_height: float
    """See `page_width`."""
    left_edge: float | None
    """The body's left edge on the page (None: not found), on band lines: the PDF loader writes it."""


@dataclass(frozen=True, slots=True)
class ListNumber:
    """How a numbered paragraph (a Word or Google Docs list item, a numbered heading) counts, so its
    number can be counted again once tracked changes have decided which paragraphs remain."""

    counter: str
    """Which list it counts in: paragraphs with the same counter continue one another's numbers."""
    level: int
    """0-based nesting level; counting at a level restarts every deeper one."""
    template: str
    """The number as the level writes it: "%1" is level 0's count, "%1.%2." gives "2.1."."""
    formats: tuple[tuple[int, str], ...] = ()
    """(start, number format in Word's names) of each level a template may name, from level 0."""
    bullet: str = ""
    """A bullet level's glyph, shown instead of a number (the level still counts)."""
    suffix: str = " "
    """What follows the number when it opens a heading's text ("" where Word's `w:suff` is nothing)."""


@dataclass(frozen=True, slots=True)
class ParagraphForm:
    """What a Word or Google Docs paragraph is on one side of a tracked change to its properties
    (Word's `w:pPrChange`, a Docs paragraph-style or bullet suggestion): its kind, style, heading
    rank and list membership."""

    kind: str
    style: str = ""
    rank: int | None = None
    """Heading rank (Title 0, Heading N N); None for other kinds."""
    level: int = 0
    """Heading level, or nesting level of a list item."""
    number: ListNumber | None = None
    list_id: str = ""
    attrs: Mapping[str, str] = field(default_factory=dict)
    """Who made the change and when, or the suggestion's id."""


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
    meta: BlockMeta = field(default_factory=BlockMeta)
    """Loader facts a later stage may need (list marker, style name, font size, sheet name...)."""
    layer: Layer = "body"
    """"furniture" where the loader knows the block is about the document, not in it (a header or
    footer part); the `furniture` cleaner drops those. PDF lines in a page's margin band stay "body"
    with their `meta["band"]`: whether one is furniture is the PDF cleaners' judgement."""


CARD = "card"
"""The kind of a document's card chunk (`ingest.chunker.card`): its title, properties and the
furniture kept out of its body. Never a block's kind."""


FIGURE = "figure"
"""The kind of a block of text drawn inside a figure (a chart's axis numbers, tick labels, legend)
and of the chunk that holds it with its caption (`ingest.chunker.figures`); no other chunk has it."""


def is_card(chunk: Chunk) -> bool:
    return CARD in chunk.kinds


def is_figure(chunk: Chunk) -> bool:
    return FIGURE in chunk.kinds


def is_prose(block: Block) -> bool:
    """Split at sentences and eligible for overlap: prose kinds of the body (furniture kept by a
    chain without the `furniture` cleaner is split by lines and never overlapped)."""
    return block.kind in PROSE_KINDS and block.layer == "body"


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


def readers_tag(readers: tuple[str, ...]) -> str:
    """A short digest of `readers`, folded into fingerprints and content hashes: a sharing change
    is a change."""
    return hashlib.sha256("\n".join(readers).encode()).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a loader returns: the document, its blocks, and the source text blocks point into."""

    document: Document
    blocks: tuple[Block, ...]
    text: str | None = None
    """The source text `Block.start`/`end` index into, for text formats; None otherwise."""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Citation:
    """The citation metadata a chunk carries so it can be cited without a lookup (stored as the
    chunk's `source` field, as before; not to be confused with `ingest.sources.Source`, where
    documents come from)."""

    uri: str
    name: str
    mime_type: str
    modified: str
    version: str

    @classmethod
    def of(cls, doc: Document) -> Citation:
        return cls(doc.uri, doc.name, doc.mime_type, doc.modified, doc.version)


CITATION_FIELDS = tuple(f.name for f in fields(Citation))
"""A citation's fields in order: what each store and the chunk JSON keep of it."""


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
    """Block kinds in the chunk, in order of first appearance; `(CARD,)` for a document's card,
    `(FIGURE,)` for a figure's text with its caption."""
    token_count: int
    """Exact count of `text` in the configured tokenizer."""
    overlap_tokens: int
    """How many leading tokens of `text` repeat the previous chunk's tail."""
    source: Citation
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


def __getattr__(name: str) -> Any:
    # The old name of `Citation`, kept working for code written before the rename, with a warning.
    if name == "Source":
        warnings.warn("ingest.blocks.Source is now ingest.blocks.Citation", DeprecationWarning, stacklevel=2)
        return Citation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
