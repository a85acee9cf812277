"""An .ods spreadsheet as the Excel loader reads a workbook: a heading per visible sheet, then the
regions of its cells as tables with header rows (`sheets.regions` cuts them), merged ranges as
merges. A cell reads as its text paragraphs, which hold the value as the sheet displays it."""

from __future__ import annotations

from lxml import etree

from ...blocks import Block
from ..sheets.loader import _piece_blocks
from ..sheets.regions import Merge, SheetCells
from .grid import rows
from .inline import InlineReader
from .package import OFFICE, TABLE, TEXT
from .styles import Styles

_VALUES = ("string-value", "value", "date-value", "time-value", "boolean-value")
"""Where a cell without text paragraphs keeps its value (files written by other tools)."""


def sheet_blocks(spreadsheet: etree._Element, styles: Styles, title: str) -> tuple[list[Block], list[str]]:
    blocks: list[Block] = []
    notes: list[str] = []
    reader = InlineReader({})
    for table in spreadsheet.iterfind(TABLE + "table"):
        name = table.get(TABLE + "name", "") or f"Sheet{len(blocks) + 1}"
        if table.get(TABLE + "style-name", "") in styles.hidden_tables:
            notes.append(f"sheet {name!r} is hidden: skipped")
            continue
        cells = SheetCells()
        merges: list[Merge] = []
        clipped = False
        for row in rows(table, lambda cell: bool(_cell_text(cell, reader))):
            clipped = clipped or row.clipped
            if not row.cells:
                continue
            cols = [c.col + 1 for c in row.cells]
            texts = [_cell_text(c.el, reader) for c in row.cells]
            cells.add(row.row + 1, cols, texts)
            for c in row.cells:
                if c.col_span > 1 or c.row_span > 1:
                    merges.append((row.row + 1, c.col + 1, row.row + c.row_span, c.col + c.col_span))
        if clipped:
            notes.append(f"sheet {name!r} repeats a filled row or cell more than 1000 times: the first 1000 are kept")
        path = (title, name)
        pieces = list(_piece_blocks(cells, list(dict.fromkeys(merges)), path, sheet=name, comments=[]))
        if not pieces:
            notes.append(f"sheet {name!r} has no cell with text: skipped")
            continue
        blocks.append(Block("heading", name, path, level=1, meta={"sheet": name}))
        blocks.extend(pieces)
    if not blocks:
        notes.append("no visible sheet holds any text")
    return blocks, notes


def _cell_text(cell: etree._Element, reader: InlineReader) -> str:
    """The cell's paragraphs as shown (comments, which sit beside them, left out), else its value."""
    paras = [reader.paragraph(p).text.strip() for p in cell if p.tag in (TEXT + "p", TEXT + "h")]
    text = "\n".join(p for p in paras if p)
    if text or paras:
        return text
    for attr in _VALUES:
        value = cell.get(OFFICE + attr)
        if value:
            return value.strip()
    return ""
