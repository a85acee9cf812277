"""Where the tables of a sheet are: regions of cells separated by empty rows and columns.

A sheet is a sparse grid of cell texts plus merged ranges. The grid is cut recursively at fully
empty rows and columns (an XY-cut), so two tables side by side or one above the other come apart,
while a table with holes stays whole. A region's leading rows that hold a single cell in a wider
region are its title lines (unstructured and docling read them so too); the rest is the table, its
first row the header, extended down through vertical merges anchored in it.

Read-only openpyxl hides merged ranges and trusts the dimension tag, so `sheet_facts` scans the
sheet XML's bytes once for both: merges, and the last row that holds a value.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass
from typing import Iterator, Mapping
from xml.etree import ElementTree

from openpyxl.utils import range_boundaries

Cell = tuple[int, int]
"""(row, column), 1-based as in the sheet."""
Merge = tuple[int, int, int, int]
"""(first_row, first_col, last_row, last_col) of a merged range, 1-based, inclusive."""

NUMBER = re.compile(r"^[-+(]?[\d.,\s%$€£¥]*\d[\d.,\s%)]*$")
"""A cell that reads as a number (or date-like digits): a row of these is data, not column names."""


@dataclass(frozen=True, slots=True)
class Table:
    """One rectangular table cut out of a sheet, with its merges in table coordinates."""

    top: int
    left: int
    rows: tuple[tuple[str, ...], ...]
    """Cell texts; a cell covered by a merge holds the anchor's text (as python-docx reports it)."""
    header_rows: int
    covered: tuple[tuple[int, int], ...]
    """(row, col) indices into `rows` of cells hidden under another cell's merge."""
    merges: tuple[tuple[int, int, int, int], ...]
    """(anchor_row, anchor_col, last_row, last_col) indices into `rows`, inclusive."""
    header_detected: bool
    """The header row reads as column names (text, not numbers); otherwise it is just the first row."""


@dataclass(frozen=True, slots=True)
class Piece:
    """What a region yields, in reading order: a title line, a lone cell, or a table."""

    kind: str  # "caption" | "paragraph" | "table"
    text: str = ""
    table: Table | None = None
    top: int = 0
    left: int = 0


def sheet_pieces(cells: Mapping[Cell, str], merges: list[Merge]) -> Iterator[Piece]:
    """Titles, lone cells and tables of one sheet, top to bottom, left to right."""
    merges = [m for m in merges if (m[0], m[1]) in cells]  # a merge without text is formatting
    anchor_of: dict[Cell, Cell] = {}
    for r0, c0, r1, c1 in merges:
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                anchor_of[(r, c)] = (r0, c0)
    occupied = set(cells) | set(anchor_of)
    for region in _xy_cut(occupied):
        yield from _region_pieces(region, cells, anchor_of, merges)


def _xy_cut(points: set[Cell]) -> Iterator[set[Cell]]:
    """Split at fully empty rows, then columns, until neither splits: regions in reading order."""
    stack = [points] if points else []
    while stack:
        part = stack.pop()
        bands = _bands(part, 0) or _bands(part, 1)
        if bands is None:
            yield part
        else:
            stack.extend(reversed(bands))


def _bands(points: set[Cell], axis: int) -> list[set[Cell]] | None:
    keys = sorted({p[axis] for p in points})
    starts = [k for i, k in enumerate(keys) if i == 0 or k != keys[i - 1] + 1]
    if len(starts) < 2:
        return None
    bands: list[set[Cell]] = [set() for _ in starts]
    for p in points:
        bands[_band_index(starts, p[axis])].add(p)
    return bands


def _band_index(starts: list[int], key: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:  # last start <= key
        mid = (lo + hi + 1) // 2
        if starts[mid] <= key:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _region_pieces(region: set[Cell], cells: Mapping[Cell, str], anchor_of: Mapping[Cell, Cell],
                   merges: list[Merge]) -> Iterator[Piece]:
    top = min(r for r, _ in region)
    bottom = max(r for r, _ in region)
    left = min(c for _, c in region)
    right = max(c for _, c in region)
    if len(region) == 1 or (top, left) in anchor_of and all(anchor_of.get(p) == (top, left) for p in region):
        yield Piece("paragraph", cells[anchor_of.get((top, left), (top, left))], top=top, left=left)
        return
    if right > left:
        # Title lines: leading rows holding one cell (a merge counts as one) above the table.
        row = top
        while row < bottom:
            owners = {anchor_of.get(p, p) for p in region if p[0] == row}
            if len(owners) != 1:
                break
            owner = next(iter(owners))
            if owner[0] == row:  # a row covered by a taller title merge adds nothing new
                yield Piece("caption", cells[owner], top=row, left=owner[1])
            row += 1
        if row > top:
            rest = {p for p in region if p[0] >= row}
            for sub in _xy_cut(rest):
                yield from _region_pieces(sub, cells, anchor_of, merges)
            return
    yield Piece("table", table=_table(top, left, bottom, right, cells, anchor_of, merges), top=top, left=left)


def _table(top: int, left: int, bottom: int, right: int, cells: Mapping[Cell, str],
           anchor_of: Mapping[Cell, Cell], merges: list[Merge]) -> Table:
    rows = []
    covered = []
    for r in range(top, bottom + 1):
        row = []
        for c in range(left, right + 1):
            anchor = anchor_of.get((r, c), (r, c))
            if anchor != (r, c):
                covered.append((r - top, c - left))
            row.append(cells.get(anchor, ""))
        rows.append(tuple(row))
    local = tuple(
        (r0 - top, c0 - left, r1 - top, c1 - left)
        for r0, c0, r1, c1 in merges
        if top <= r0 <= bottom and left <= c0 <= right
    )
    header_rows = max([1] + [r1 + 1 for r0, _, r1, _ in local if r0 == 0])
    header_rows = min(header_rows, len(rows))
    first = [t for t in rows[0] if t]
    detected = bool(first) and not any(NUMBER.match(t) for t in first)
    return Table(top, left, tuple(rows), header_rows, tuple(covered), local, detected)


# --- what the sheet XML says that read-only openpyxl does not ---------------------------------

_REL_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
# Tags that matter before parsing: rows (their number), values, inline strings, merged ranges.
_TAG = re.compile(rb'<(?:\w+:)?(row|v|is|mergeCell)\b([^>]*)>')
_ROW_NUMBER = re.compile(rb'\br="(\d+)"')
_MERGE_REF = re.compile(rb'\bref="([A-Za-z]+[0-9]+(?::[A-Za-z]+[0-9]+)?)"')


@dataclass(frozen=True, slots=True)
class SheetFacts:
    """What the sheet XML says that read-only openpyxl does not: merges, and where values end."""

    merges: list[Merge]
    last_value_row: int | None
    """The last row holding a value, or None if rows are unnumbered (then read to the end)."""
    part: str = ""
    """The sheet's part name in the package (its relationships lead to comments)."""


def sheet_facts(zf: zipfile.ZipFile) -> dict[str, SheetFacts]:
    """Sheet name -> facts. Missing parts mean no facts, never an error: openpyxl has already
    judged the workbook readable."""
    try:
        book = workbook_part(zf)
        rels = _relationships(zf, book)
        root = ElementTree.fromstring(zf.read(book))
    except (KeyError, ElementTree.ParseError):
        return {}
    found: dict[str, SheetFacts] = {}
    for sheet in root.iter():
        if not sheet.tag.endswith("}sheet"):
            continue
        part = rels.get(sheet.get(f"{_REL_NS}id", ""))
        if part is None or part not in zf.NameToInfo:
            continue
        with zf.open(part) as stream:
            found[sheet.get("name", "")] = _scan_sheet(stream, part)
    return found


def _scan_sheet(stream, part: str) -> SheetFacts:
    """One pass over the sheet's bytes, far cheaper than parsing it: a dimension tag or a styled
    cell a million rows down must not make the reader walk a million empty rows."""
    merges: list[Merge] = []
    row = last = 0
    numbered = True
    tail = b""
    while True:
        chunk = stream.read(1 << 20)
        buf = tail + chunk
        done = 0
        for m in _TAG.finditer(buf):
            name, attrs = m.group(1), m.group(2)
            if name == b"row":
                number = _ROW_NUMBER.search(attrs)
                row = int(number.group(1)) if number else row + 1
                numbered = numbered and number is not None
            elif name == b"mergeCell":
                ref = _MERGE_REF.search(attrs)
                if ref:
                    min_col, min_row, max_col, max_row = range_boundaries(ref.group(1).decode("ascii").upper())
                    merges.append((min_row, min_col, max_row, max_col))
            elif not attrs.rstrip().endswith(b"/"):  # <v/> is no value
                last = row
            done = m.end()
        if not chunk:
            return SheetFacts(merges, last if numbered else None, part)
        # A tag cut at the chunk's end did not match; it is read whole with the next chunk.
        tail = buf[max(done, len(buf) - 512):]


def workbook_part(zf: zipfile.ZipFile) -> str:
    """The workbook part's name, as the package relationships say (xl/workbook.xml by default)."""
    for target in _relationships(zf, "").values():
        if target.endswith(".xml") and "workbook" in target.rsplit("/", 1)[-1].lower():
            return target
    return "xl/workbook.xml"


def _relationships(zf: zipfile.ZipFile, part: str) -> dict[str, str]:
    """Relationship id -> part name, for `part` ("" for the package)."""
    folder, name = posixpath.split(part)
    rels_name = posixpath.join(folder, "_rels", name + ".rels")
    try:
        root = ElementTree.fromstring(zf.read(rels_name))
    except KeyError:
        return {}
    out = {}
    for rel in root:
        target = rel.get("Target", "")
        if rel.get("TargetMode") == "External":
            continue
        full = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        out[rel.get("Id", "")] = full
    return out
