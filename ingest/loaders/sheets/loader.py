"""Spreadsheets (XLSX, XLSM, CSV): each sheet a section, each region of cells a table.

Workbooks are read in openpyxl's read-only mode with cached formula values, so a sheet streams
row by row and only cells that hold something are kept. Read-only mode hides merged ranges, so
they are picked out of the sheet XML with a byte scan. Cells read as the sheet shows them: dates
as ISO dates, numbers through their number format. Merged cells are described (which cells a
merge covers), not resolved: that is the `merged_cells` cleaner's call. Cell comments (notes and
threaded comments, also hidden from read-only mode) become `comment` marks on their cell, as Word
comments do, for the `comments` cleaner to drop or keep.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from pathlib import PurePosixPath

import openpyxl
from openpyxl.chartsheet import Chartsheet
from openpyxl.utils import get_column_letter

from ...blocks import Block, BlockMeta, Document, Loaded, Mark
from ...errors import LoaderError
from ...table_text import render_table
from ..text.decoding import decode_text
from .comments import CellComment, CommentReader, place
from .regions import NUMBER, Merge, SheetCells, SheetFacts, sheet_facts, sheet_pieces

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
XLSM = "application/vnd.ms-excel.sheet.macroEnabled.12"
CSV = "text/csv"


def load_workbook(data: bytes, document: Document) -> Loaded:
    """An XLSX/XLSM workbook: a heading per visible sheet, then its tables and lone cells."""
    uri = document.uri
    if not data:
        raise LoaderError("empty file (0 bytes), not a workbook; export it again from its application", subject=uri)
    archive = io.BytesIO(data)
    if not zipfile.is_zipfile(archive):
        raise LoaderError("not an XLSX/XLSM workbook (no zip container); save a legacy .xls as .xlsx", subject=uri)
    with warnings.catch_warnings():
        # openpyxl warns about every extension it does not model (data validation, slicers...).
        warnings.simplefilter("ignore", UserWarning)
        try:
            wb = openpyxl.load_workbook(archive, read_only=True, data_only=True, keep_links=False)
        except (KeyError, ValueError, TypeError, zipfile.BadZipFile, OSError) as exc:
            raise LoaderError(f"not a readable workbook ({type(exc).__name__}: {exc})", subject=uri) from exc
        try:
            with zipfile.ZipFile(archive) as zf:
                facts = sheet_facts(zf)
                return _workbook_blocks(wb, facts, CommentReader(zf), document)
        finally:
            wb.close()


def load_csv(data: bytes, document: Document) -> Loaded:
    """A CSV file: one table under the document title (a CSV has no sheets).

    Unlike a sheet, a CSV is one table by definition, so it is not cut into regions: a blank
    line or an empty column inside it stays, described, for the `empty_cells` cleaner."""
    try:
        text, notes = decode_text(data)
    except LoaderError as exc:
        raise LoaderError(str(exc), subject=document.uri) from exc
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:65536], delimiters=",;\t|")
    except csv.Error:  # one column, or too little text to tell: plain commas
        dialect = csv.excel
    try:
        rows = [tuple(cell.strip() for cell in row) for row in csv.reader(io.StringIO(text, newline=""), dialect)]
    except csv.Error as exc:
        raise LoaderError(f"malformed CSV ({exc}); check its quoting and delimiter", subject=document.uri) from exc
    filled = [i for i, row in enumerate(rows) if any(row)]
    if not filled:
        return Loaded(document, (), warnings=tuple(notes) + ("no cell holds text",))
    first, last = filled[0], filled[-1]  # blank lines around the table are not part of it
    rows = rows[first : last + 1]
    width = max(len(row) for row in rows)
    rows = [row + ("",) * (width - len(row)) for row in rows]
    header = [cell for cell in rows[0] if cell]
    meta: BlockMeta = {
        "range": f"A{first + 1}:{get_column_letter(width)}{last + 1}",
        "header": "detected" if header and not any(NUMBER.match(c) for c in header) else "first_row",
    }
    table = Block("table", render_table(rows, 1), (_title(document),), rows=tuple(rows), header_rows=1, meta=meta)
    return Loaded(document, (table,), warnings=tuple(notes))


def _workbook_blocks(wb, facts: Mapping[str, SheetFacts], reader: CommentReader, document: Document) -> Loaded:
    title = _title(document)
    blocks: list[Block] = []
    notes: list[str] = []
    every_comment: list[dict[str, str]] = []
    for name in wb.sheetnames:
        ws = wb[name]
        if isinstance(ws, Chartsheet):
            notes.append(f"sheet {name!r} is a chart sheet: skipped (it holds no cells)")
            continue
        if ws.sheet_state != "visible":
            notes.append(f"sheet {name!r} is {ws.sheet_state}: skipped")
            continue
        fact = facts.get(name, SheetFacts([], None))
        comments = reader.of_sheet(fact.part, name)
        every_comment += ({"sheet": name, **c.attrs()} for c in comments)
        path = (title, name)
        # The cells are not bound here: `piece_blocks` lets them go once the tables are cut out.
        pieces = piece_blocks(_sheet_cells(ws, fact.last_value_row), fact.merges, path, sheet=name, comments=comments)
        blocks += sheet_section(name, path, list(pieces), len(comments), notes)
    if not blocks:
        notes.append("no visible sheet holds any text")
    notes += reader.warnings
    if every_comment:  # as the Word loader does: every comment, also those no block carries
        document = replace(document, meta={**document.meta, "comments": tuple(every_comment)})
    return Loaded(document, tuple(blocks), warnings=tuple(notes))


def _title(document: Document) -> str:
    return document.title or PurePosixPath(document.name).stem or document.name


_SEEN_MAX = 1 << 16


def _sheet_cells(ws, last_row: int | None) -> SheetCells:
    """The sheet's non-blank cells as shown, read no further than the last row with a value.

    The dimension tag is reset (it may claim a million rows), so openpyxl yields rows as stored;
    it still pads gaps between stored rows, hence the stop at `last_row`."""
    ws.reset_dimensions()
    cells = SheetCells()
    if last_row == 0:
        return cells
    # Dates, categories and small numbers repeat down a column: one string object per distinct
    # text (the output's rows share them). Bounded, so a sheet of unique texts costs little.
    seen: dict[str, str] = {}
    for row in ws.iter_rows(max_row=last_row):
        at = 0
        cols: list[int] = []
        texts: list[str] = []
        for cell in row:
            value = cell.value
            if value is None:
                continue
            text = shown(value, cell.number_format)
            if text:
                text = seen.setdefault(text, text)
                if cell.row != at and cols:  # a cell naming another row than its own: kept where it says
                    cells.add(at, cols, texts)
                    cols, texts = [], []
                at = cell.row
                cols.append(cell.column)
                texts.append(text)
        if cols:
            cells.add(at, cols, texts)
        if len(seen) > _SEEN_MAX:
            seen.clear()
    return cells


def sheet_section(
    name: str, path: tuple[str, ...], pieces: list[Block], comments: int, notes: list[str]
) -> list[Block]:
    """The sheet's heading and its pieces; none, with a note saying so, when no cell holds text
    (the .ods loader's too)."""
    if not pieces:
        kept = f" (its {comments} comment(s) are kept in the document's meta only)" if comments else ""
        notes.append(f"sheet {name!r} has no cell with text: skipped{kept}")
        return []
    return [Block("heading", name, path, level=1, meta={"sheet": name}), *pieces]


def piece_blocks(
    cells: SheetCells, merges: list[Merge], path: tuple[str, ...], sheet: str, comments: list[CellComment]
) -> Iterator[Block]:
    """A sheet's title lines, lone cells and tables as blocks under `path` (the .ods loader's too)."""
    pieces = list(sheet_pieces(cells, merges))
    placed = place(comments, pieces, [m for m in merges if (m[0], m[1]) in cells]) if comments else None
    del cells  # the tables hold what they need: let the grid go before they are rendered
    for i, piece in enumerate(pieces):
        where = f"{get_column_letter(piece.left)}{piece.top}"
        meta: BlockMeta = {"sheet": sheet, "cell": where} if sheet else {"cell": where}
        table = piece.table
        notes = placed[i] if placed else []
        # A comment on a cell no piece covers rides on the nearest piece of its sheet as a mark
        # over no text (its attrs name the cell): kept where a reader of that part will see it.
        if table is None:
            marks = tuple(Mark("comment", 0, len(piece.text) if at else 0, c.attrs()) for at, c in notes)
            yield Block(piece.kind, piece.text, path, marks=marks, meta=meta)
            continue
        marks = tuple(Mark("comment", 0, 0, c.attrs()) for at, c in notes if at is None)
        cell_marks = tuple(
            (at[0], at[1], Mark("comment", 0, len(table.rows[at[0]][at[1]]), c.attrs()))
            for at, c in notes
            if at is not None
        )
        if cell_marks:
            meta["cell_marks"] = cell_marks
        bottom = table.top + len(table.rows) - 1
        right = table.left + len(table.rows[0]) - 1
        meta["range"] = f"{where}:{get_column_letter(right)}{bottom}"
        meta["header"] = "detected" if table.header_detected else "first_row"
        if table.merges:
            meta["merges"] = table.merges
            meta["covered"] = table.covered
        yield Block(
            "table",
            render_table(table.rows, table.header_rows),
            path,
            rows=table.rows,
            header_rows=table.header_rows,
            marks=marks,
            meta=meta,
        )


# --- cell values as shown -------------------------------------------------------------------

_BRACKETS = re.compile(r"\[[^\]]*\]")
_CURRENCY = re.compile(r"\[\$([^\]-]*)(?:-[^\]]*)?\]")
_PLACEHOLDER = re.compile(r"[0#?]")
_GENERAL = frozenset({"General", "GENERAL", "general", "@", ""})


def shown(value: object, number_format: str | None) -> str:
    """A cell value as the sheet displays it, within reason: ISO dates, formatted numbers."""
    fmt = number_format or "General"
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime):
        if value.time() == time(0) or not _shows_time(fmt):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="seconds" if value.second else "minutes")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return value.isoformat(timespec="seconds" if value.second else "minutes")
    if isinstance(value, timedelta):
        return str(value)
    if isinstance(value, (int, float)):
        if fmt in _GENERAL:
            return _general(value)
        try:
            return _formatted_number(value, fmt)
        except (ValueError, OverflowError):
            return _general(value)
    return str(value).strip()


def _shows_time(fmt: str) -> bool:
    bare = re.sub(r'"[^"]*"|\[[^\]]*\]', "", fmt).lower()
    return "h" in bare or "s" in bare


def _general(value: float | int) -> str:
    if isinstance(value, int):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return format(value, ".15g")  # Excel keeps 15 significant digits: 0.1 + 0.2 reads 0.3


def _formatted_number(value: float | int, fmt: str) -> str:
    sections = _sections(fmt)
    section = sections[0]
    sign = "-" if value < 0 else ""
    if value < 0 and len(sections) > 1 and _PLACEHOLDER.search(_literal_free(sections[1])):
        section, sign = sections[1], ""  # the negative section draws its own sign or brackets
    elif value == 0 and len(sections) > 2:
        section = sections[2]
    value = abs(value)
    section = _CURRENCY.sub(lambda m: f'"{m.group(1)}"', section)
    section = _BRACKETS.sub("", section)
    if section.strip().lower() in ("general", ""):
        return sign + _general(value)
    # Split into literal prefix, number pattern, literal suffix.
    bare = _literal_free(section)
    first = _PLACEHOLDER.search(bare)
    if first is None:
        if re.search(r"[ymdhs]", bare, re.IGNORECASE):  # a date format openpyxl did not convert
            return sign + _general(value)
        return _literals(section).strip()  # a text-only section, e.g. "-" for zero
    if "/" in bare:  # fractions: not worth imitating
        return sign + _general(value)
    last = max(m.end() for m in _PLACEHOLDER.finditer(bare))
    pattern = bare[first.start() : last]
    prefix, suffix = _split_literals(section)
    if "%" in bare:
        value *= 100
    if "e+" in pattern.lower() or "e-" in pattern.lower():
        mantissa = pattern.lower().split("e")[0]
        decimals = len(_PLACEHOLDER.findall(mantissa.split(".")[1])) if "." in mantissa else 0
        number = f"{value:.{decimals}E}"
    else:
        while bare[last : last + 1] == ",":  # trailing commas scale by thousands
            value /= 1000
            last += 1
        integer, _, fraction = pattern.partition(".")
        decimals = len(fraction) - len(fraction.lstrip("0#?"))
        number = f"{value:,.{decimals}f}" if "," in integer else f"{value:.{decimals}f}"
        pad = integer.replace(",", "").count("0")
        whole, dot, rest = number.partition(".")
        if len(whole.replace(",", "")) < pad:
            whole = whole.zfill(pad)  # zero-padded codes such as 00042
        number = whole + dot + rest
        if value == 0 and "0" not in pattern:
            number = ""  # '#' and '?' print nothing for an insignificant zero ("-" in accounting)
    if number.strip("0.,") == "" and sign:
        sign = ""  # -0.001 shown with two decimals is 0.00, not -0.00
    return f"{prefix}{sign}{number}{suffix}".strip()


@lru_cache(maxsize=256)  # a sheet uses a handful of formats over many cells
def _sections(fmt: str) -> tuple[str, ...]:
    parts: list[str] = []
    buf: list[str] = []
    quoted = False
    for ch in fmt:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            parts.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
    parts.append("".join(buf))
    return tuple(parts)


_SYMBOLS = frozenset("$-+/():!^&'~{}<>=% €£¥")
"""What a number format prints as itself outside quotes."""


def _format_units(part: str) -> Iterator[tuple[str, str, bool]]:
    """A number format read unit by unit: (its characters, what it prints, whether it is literal:
    quoted text, an escaped character, padding `_x` or fill `*x`). Of the rest only symbols print."""
    i, quoted = 0, False
    while i < len(part):
        ch = part[i]
        if ch == '"':
            quoted = not quoted
            yield ch, "", True
        elif quoted:
            yield ch, ch, True
        elif ch in "\\_*" and i + 1 < len(part):
            yield part[i : i + 2], part[i + 1] if ch == "\\" else " " if ch == "_" else "", True
            i += 1
        else:
            yield ch, ch if ch in _SYMBOLS else "", False
        i += 1


@lru_cache(maxsize=256)  # per cell, over a sheet's handful of formats
def _literal_free(section: str) -> str:
    """The section with quoted text, escapes, padding and fill blanked (same length)."""
    return "".join(" " * len(src) if literal else src for src, _, literal in _format_units(section))


def _split_literals(section: str) -> tuple[str, str]:
    bare = _literal_free(section)
    spans = [m.span() for m in _PLACEHOLDER.finditer(bare)]  # the caller saw at least one
    first, last = spans[0][0], spans[-1][1]
    while bare[last : last + 1] in (",", ".") and last < len(bare):
        last += 1
    return _literals(section[:first]), _literals(section[last:])


def _literals(part: str) -> str:
    """What a format piece prints: quoted text, escaped characters, symbols; padding is a space."""
    return "".join(printed for _, printed, _ in _format_units(part))
