"""The page model the PDF reader's passes decide about, in one place: a page's `Line`s, the
`PageLines` that split them into body and bands, the `Unit`s (paragraphs, list items, tables,
figures) the body lines make, and the `Grid` of a ruled table.

What a pass decides about a unit is a typed field of it, read by the passes after it; no
decision travels in a dict of keys or a set of `id()`s from one pass to another.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...blocks import Band
from .hyphens import join_lines

Box = tuple[float, float, float, float]
"""A rectangle on the page: x0, y0, x1, y1 in points, y growing down."""


@dataclass(frozen=True, slots=True)
class Line:
    """One visual line of text on one page."""

    text: str
    """Ligatures expanded, whitespace collapsed; a soft hyphen kept only at the end (a break hint)."""
    bbox: tuple[float, float, float, float]
    size: float
    """Font size of most of the line's characters."""
    bold: bool
    """Most of the line's characters are bold."""
    block: int
    """pymupdf block number: lines of one block were laid out together."""
    rotated: bool = False
    italic: bool = False
    """Most of the line's characters are italic or oblique."""
    mono: bool = False
    """Most of the line's characters are in a fixed-width font (code)."""
    mixed: bool = False
    """Some of the line is bold and some not: a bold lead-in running into its paragraph."""

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]


@dataclass(frozen=True, slots=True)
class PageLines:
    """A page's lines split by place: the body, and the margin lines the cleaners judge."""

    number: int
    width: float
    height: float
    body: tuple[Line, ...]
    margin: tuple[tuple[Band, tuple[Line, ...]], ...]
    """(band, lines) groups: band is "top", "bottom", "left" or "right"; one group per header line."""
    left_edge: float | None
    """Where most body lines start: text left of it is in the left margin."""
    label: str = ""
    """The page's own label where the PDF defines labels ("iv", "7-45", "A-3"): its printed number."""
    boxes: tuple[tuple[float, float, float, float], ...] = ()
    """Shaded boxes that hold text (`text_boxes`): a heading inside one heads only the box."""


@dataclass(frozen=True, slots=True)
class Unit:
    """A paragraph, list item, table or figure of one page, and what the passes decided about it."""

    kind: str
    lines: list[Line]
    page: int
    rows: tuple[tuple[str, ...], ...] | None = None
    header_rows: int = 0
    bbox: Box | None = None
    page_end: int | None = None
    """The last page of a paragraph that runs on across pages."""
    pdf_pass: str = "units"
    """The pass that decided the unit (`ruled_tables` for a ruled table, `units` for the rest), shown in the block's meta."""
    columns: tuple[tuple[float, float], ...] = ()
    """A ruled grid's columns (x0, x1), left to right as read: the table heads pass sets a header row in them."""
    across: bool = False
    """A table ruled across only (booktabs), left to the alignment rule where that reads it better."""
    prose_beside: bool = False
    """Of a table ruled across only: another column's prose stands beside its rows."""
    region: Box | None = None
    """Of a figure: the region its drawings cover, wider than its lines' box (a caption beside it is its)."""
    joined: tuple[Line, ...] = ()
    """The page's own lines that the unit's first line stands for (a label and its title set on one row)."""
    in_figure: bool = False
    """Set inside a figure's region (its title, a legend in bold): no heading."""
    shares_row: bool = False
    """Shares its row with other text (a row label or a column head of a table drawn without rules)."""
    row_peers: bool = False
    """Of a unit sharing its row: a piece beside it is in its own type, words rather than a number."""
    level: int | None = None
    """Of a heading: its level (1 the top, uncapped; the block's is capped), set by the headings pass."""

    @property
    def text(self) -> str:
        return join_lines([line.text for line in self.lines])


@dataclass(frozen=True, slots=True)
class Grid:
    """A ruled table: its box and its cells row by row (None where a spanning cell covers a slot)."""

    bbox: Box
    rows: tuple[tuple[Box | None, ...], ...]
