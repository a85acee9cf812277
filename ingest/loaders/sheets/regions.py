"""Where the tables of a sheet are: regions of cells separated by empty rows and columns.

A sheet is a sparse grid of cell texts plus merged ranges. The grid is cut recursively at fully
empty rows and columns (an XY-cut), so two tables side by side or one above the other come apart,
while a table with holes stays whole. A region's leading rows that hold a single cell in a wider
region are its title lines (unstructured and docling read them so too); the rest is the table, its
first row the header, extended down through vertical merges anchored in it.

The grid is kept row by row (`SheetCells`), never as one entry per cell: a sheet of 50,000 rows
holds 400,000 cells, and a dict keyed by (row, col) tuples cost more than the texts themselves.
A row of a table with no gaps and no merges becomes the table's row as it was read.

Read-only openpyxl hides merged ranges and trusts the dimension tag, so `sheet_facts` scans the
sheet XML's bytes once for both: merges, and the last row that holds a value.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from bisect import bisect_left
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from xml.etree import ElementTree

from openpyxl.utils import range_boundaries

Cell = tuple[int, int]
"""(row, column), 1-based as in the sheet."""
Merge = tuple[int, int, int, int]
"""(first_row, first_col, last_row, last_col) of a merged range, 1-based, inclusive."""
Cols = tuple[int, ...]
"""The occupied columns of one row, ascending."""
Region = list[tuple[int, Cols]]
"""Points of a region as (row, its columns) for each row holding some, rows ascending."""

NUMBER = re.compile(r"^[-+(]?[\d.,\s%$€£¥]*\d[\d.,\s%)]*$")
"""A cell that reads as a number (or date-like digits): a row of these is data, not column names."""


class SheetCells:
    """The non-blank cell texts of a sheet, row by row: row -> (columns, texts), columns ascending.

    Rows of a table mostly hold the same columns, so equal column tuples are shared."""

    __slots__ = ("rows", "_shared")

    def __init__(self) -> None:
        self.rows: dict[int, tuple[Cols, tuple[str, ...]]] = {}
        self._shared: dict[Cols, Cols] = {}

    def add(self, row: int, cols: list[int], texts: list[str]) -> None:
        """One row's cells, in the order read; a cell read twice keeps its last text."""
        if row in self.rows or any(a >= b for a, b in zip(cols, cols[1:])):
            old_cols, old_texts = self.rows.get(row, ((), ()))
            merged = dict(zip(old_cols, old_texts))
            merged.update(zip(cols, texts))
            cols = sorted(merged)
            texts = [merged[c] for c in cols]
        key = tuple(cols)
        self.rows[row] = (self._shared.setdefault(key, key), tuple(texts))

    def get(self, cell: Cell, default: str = "") -> str:
        found = self.rows.get(cell[0])
        if found is not None:
            cols, texts = found
            i = bisect_left(cols, cell[1])
            if i < len(cols) and cols[i] == cell[1]:
                return texts[i]
        return default

    def __contains__(self, cell: Cell) -> bool:
        found = self.rows.get(cell[0])
        if found is None:
            return False
        cols = found[0]
        i = bisect_left(cols, cell[1])
        return i < len(cols) and cols[i] == cell[1]


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


def sheet_pieces(cells: SheetCells, merges: list[Merge]) -> Iterator[Piece]:
    """Titles, lone cells and tables of one sheet, top to bottom, left to right."""
    merges = [m for m in merges if (m[0], m[1]) in cells]  # a merge without text is formatting
    anchor_of: dict[Cell, Cell] = {}
    for r0, c0, r1, c1 in merges:
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                anchor_of[(r, c)] = (r0, c0)
    covered: dict[int, set[int]] = {}  # row -> columns under a merge
    for r, c in anchor_of:
        covered.setdefault(r, set()).add(c)
    merged = _Merged(anchor_of, covered.keys(), merges)
    for region in _xy_cut(_occupied(cells, covered)):
        yield from _region_pieces(region, cells, merged)


@dataclass(frozen=True, slots=True)
class _Merged:
    """A sheet's merges with text: each covered cell's anchor, and the rows they touch."""

    anchor_of: Mapping[Cell, Cell]
    rows: Set[int]
    merges: list[Merge]


def _occupied(cells: SheetCells, covered: Mapping[int, set[int]]) -> Region:
    """Cells with text and cells under their merges, row by row."""
    points: Region = []
    for r in sorted(cells.rows.keys() | covered.keys()):
        cols = cells.rows[r][0] if r in cells.rows else ()
        if r in covered:
            cols = tuple(sorted(covered[r].union(cols)))
        points.append((r, cols))
    return points


def _xy_cut(points: Region) -> Iterator[Region]:
    """Split at fully empty rows, then columns, until neither splits: regions in reading order."""
    stack = [points] if points else []
    while stack:
        part = stack.pop()
        bands = _row_bands(part) or _column_bands(part)
        if bands is None:
            yield part
        else:
            stack.extend(reversed(bands))


def _row_bands(points: Region) -> list[Region] | None:
    cuts = [i for i in range(1, len(points)) if points[i][0] != points[i - 1][0] + 1]
    if not cuts:
        return None
    bounds = [0, *cuts, len(points)]
    return [points[a:b] for a, b in zip(bounds, bounds[1:])]


def _column_bands(points: Region) -> list[Region] | None:
    keys: set[int] = set()
    for cols in {cols for _, cols in points}:  # rows of a table share their column tuple
        keys.update(cols)
    ordered = sorted(keys)
    starts = [k for i, k in enumerate(ordered) if i == 0 or k != ordered[i - 1] + 1]
    if len(starts) < 2:
        return None
    bands: list[Region] = [[] for _ in starts]
    split: dict[Cols, list[tuple[int, Cols]]] = {}  # a column tuple cut once, its pieces shared
    for r, cols in points:
        pieces = split.get(cols)
        if pieces is None:
            parts: dict[int, list[int]] = {}
            for c in cols:
                parts.setdefault(_band_index(starts, c), []).append(c)
            pieces = split[cols] = [(i, tuple(cs)) for i, cs in parts.items()]
        for i, cs in pieces:
            bands[i].append((r, cs))
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


def _region_pieces(region: Region, cells: SheetCells, merged: _Merged) -> Iterator[Piece]:
    anchor_of = merged.anchor_of
    top = region[0][0]
    bottom = region[-1][0]
    left = min(cols[0] for _, cols in region)
    right = max(cols[-1] for _, cols in region)
    points = ((r, c) for r, cols in region for c in cols)
    if (
        len(region) == 1
        and len(region[0][1]) == 1
        or (top, left) in anchor_of
        and all(anchor_of.get(p) == (top, left) for p in points)
    ):
        yield Piece("paragraph", cells.get(anchor_of.get((top, left), (top, left))), top=top, left=left)
        return
    if right > left:
        # Title lines: leading rows holding one cell (a merge counts as one) above the table.
        # A region has no empty row (the cut would have split it), so row `top + i` is region[i].
        i = 0
        while region[i][0] < bottom:
            row, cols = region[i]
            owners = {anchor_of.get((row, c), (row, c)) for c in cols}
            if len(owners) != 1:
                break
            owner = next(iter(owners))
            if owner[0] == row:  # a row covered by a taller title merge adds nothing new
                yield Piece("caption", cells.get(owner), top=row, left=owner[1])
            i += 1
        if i:
            for sub in _xy_cut(region[i:]):
                yield from _region_pieces(sub, cells, merged)
            return
    yield Piece("table", table=_table(top, left, bottom, right, cells, merged), top=top, left=left)


def _table(top: int, left: int, bottom: int, right: int, cells: SheetCells, merged: _Merged) -> Table:
    anchor_of = merged.anchor_of
    rows = []
    covered = []
    span = tuple(range(left, right + 1))
    for r in range(top, bottom + 1):
        cols, texts = cells.rows.get(r, ((), ()))
        if r not in merged.rows:
            if cols == span:
                rows.append(texts)  # the row as read: no copy
            else:
                row = [""] * len(span)
                for c, text in zip(cols, texts):
                    if left <= c <= right:
                        row[c - left] = text
                rows.append(tuple(row))
            continue
        row = []
        for c in span:
            anchor = anchor_of.get((r, c), (r, c))
            if anchor != (r, c):
                covered.append((r - top, c - left))
            row.append(cells.get(anchor))
        rows.append(tuple(row))
    local = tuple(
        (r0 - top, c0 - left, r1 - top, c1 - left)
        for r0, c0, r1, c1 in merged.merges
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
_TAG = re.compile(rb"<(?:\w+:)?(row|v|is|mergeCell)\b([^>]*)>")
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
                    # A merge names cells; a whole-row or whole-column range ("A:A") is none.
                    if min_row is not None and min_col is not None and max_row is not None and max_col is not None:
                        merges.append((min_row, min_col, max_row, max_col))
            elif not attrs.rstrip().endswith(b"/"):  # <v/> is no value
                last = row
            done = m.end()
        if not chunk:
            return SheetFacts(merges, last if numbered else None, part)
        # A tag cut at the chunk's end did not match; it is read whole with the next chunk.
        tail = buf[max(done, len(buf) - 512) :]


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
