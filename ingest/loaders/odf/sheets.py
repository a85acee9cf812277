"""An .ods spreadsheet as the Excel loader reads a workbook: a heading per visible sheet, then the
regions of its cells as tables with header rows (`sheets.regions` cuts them), merged ranges as
merges. A cell reads as its text paragraphs, which hold the value as the sheet displays it; a
cell's comment (office:annotation) becomes a comment mark on its cell, as the Excel loader's do."""

from __future__ import annotations

from lxml import etree

from ...blocks import Block
from ..sheets.comments import CellComment
from ..sheets.loader import piece_blocks, sheet_section
from ..sheets.regions import Merge, SheetCells
from .grid import rows
from .inline import SPACES, InlineReader
from .package import DC, OFFICE, TABLE, TEXT
from .styles import Styles

_CACHED_CELLS = 4096
_VALUES = ("string-value", "value", "date-value", "time-value", "boolean-value")
"""Where a cell without text paragraphs keeps its value (files written by other tools)."""


def sheet_blocks(
    spreadsheet: etree._Element, styles: Styles, title: str
) -> tuple[list[Block], list[str], list[dict[str, str]]]:
    """The sheets' blocks, the notes for the user, and every cell comment (for the document's meta)."""
    blocks: list[Block] = []
    every_comment: list[dict[str, str]] = []
    notes: list[str] = []
    text_of = _CellTexts(InlineReader({}))
    for number, table in enumerate(spreadsheet.iterfind(TABLE + "table"), 1):
        name = table.get(TABLE + "name", "") or f"Sheet{number}"
        if table.get(TABLE + "style-name", "") in styles.hidden_tables:
            notes.append(f"sheet {name!r} is hidden: skipped")
            continue
        cells = SheetCells()
        merges: list[Merge] = []
        clipped = False
        comments: list[CellComment] = []
        commented: set[etree._Element] = set()  # a repeated cell's comment is on its first copy only
        for row in rows(table, text_of.kept):
            clipped = clipped or row.clipped
            filled = [c for c in row.cells if text_of(c.el)]
            if filled:
                cells.add(row.row + 1, [c.col + 1 for c in filled], [text_of(c.el) for c in filled])
            for c in row.cells:
                if c.el in commented:
                    continue
                commented.add(c.el)
                comments.extend(_comments(c.el, row.row + 1, c.col + 1, len(every_comment) + len(comments)))
            for c in row.cells:
                if c.col_span > 1 or c.row_span > 1:
                    merges.append((row.row + 1, c.col + 1, row.row + c.row_span, c.col + c.col_span))
        if clipped:
            notes.append(f"sheet {name!r} repeats a filled row or cell more than 1000 times: the first 1000 are kept")
        path = (title, name)
        pieces = list(piece_blocks(cells, list(dict.fromkeys(merges)), path, sheet=name, comments=comments))
        every_comment += ({"sheet": name, **c.attrs()} for c in comments)
        blocks += sheet_section(name, path, pieces, len(comments), notes)
    if not blocks:
        notes.append("no visible sheet holds any text")
    return blocks, notes, every_comment


class _CellTexts:
    """Cell texts by element: a repeated row's cells are read once, not once per copy."""

    def __init__(self, reader: InlineReader):
        self._reader = reader
        self._texts: dict[etree._Element, str] = {}

    def __call__(self, el: etree._Element) -> str:
        text = self._texts.get(el)
        if text is None:
            if len(self._texts) > _CACHED_CELLS:
                self._texts.clear()
            text = self._texts[el] = _cell_text(el, self._reader)
        return text

    def kept(self, el: etree._Element) -> bool:
        """The cell holds text or a comment."""
        return bool(self(el)) or el.find(OFFICE + "annotation") is not None


def _comments(cell: etree._Element, row: int, col: int, count: int) -> list[CellComment]:
    out: list[CellComment] = []
    for note in cell.iterfind(OFFICE + "annotation"):
        text = "\n".join(
            t
            for t in (SPACES.sub(" ", "".join(str(t) for t in p.itertext())).strip() for p in note.iter(TEXT + "p"))
            if t
        )
        author = " ".join(" ".join(str(t) for e in note.iterfind(DC + "creator") for t in e.itertext()).split())
        date = "".join(e.text or "" for e in note.iterfind(DC + "date")).strip()
        out.append(CellComment(row, col, f"comment{count + len(out) + 1}", author, text, date))
    return out


def _cell_text(cell: etree._Element, reader: InlineReader) -> str:
    """The cell's paragraphs as shown (comments, which sit beside them, left out), else its value."""
    paras = [_paragraph_text(p, reader) for p in cell if p.tag in (TEXT + "p", TEXT + "h")]
    text = "\n".join(p for p in paras if p)
    if text or paras:
        return text
    for attr in _VALUES:
        value = cell.get(OFFICE + attr)
        if value:
            return value.strip()
    return ""


def _paragraph_text(p: etree._Element, reader: InlineReader) -> str:
    if len(p) == 0:  # plain text, most cells: no spans, spaces or fields to walk
        return SPACES.sub(" ", p.text or "").strip(" ")
    return reader.paragraph(p).text.strip()
