"""Cell values as shown, broken and odd workbooks, CSV, and the chunker's table rule, on real files."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from datetime import date, timedelta
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from openpyxl.utils import range_boundaries

from ingest.blocks import Block
from ingest.chunker import ChunkOptions, chunk
from ingest.cleaners import build_chain, clean
from ingest.errors import LoaderError
from ingest.loaders import load_bytes, load_file, local_document
from ingest.loaders.sheets.loader import shown

OPENPYXL = "openpyxl/openpyxl"
NS = {"s": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}


def cell_at(blocks: tuple[Block, ...], sheet: str, ref: str) -> str | None:
    """The text our blocks show for sheet!ref, found through the range or cell each block states."""
    col, row, _, _ = range_boundaries(ref)
    for b in blocks:
        if b.meta.get("sheet") != sheet:
            continue
        if b.rows is not None:
            c0, r0, c1, r1 = range_boundaries(b.meta["range"])
            if r0 <= row <= r1 and c0 <= col <= c1:
                return b.rows[row - r0][col - c0]
        elif b.meta.get("cell") == ref:
            return b.text
    return None


def test_zero_byte_workbook_is_a_warning(corpus):
    # An empty file is a warning with no blocks, in every format (#25); the run names the file.
    loaded = load_file(corpus / OPENPYXL / "reader/tests/data/null_file.xlsx")
    assert loaded.blocks == () and loaded.warnings == ("is empty (0 bytes): nothing to index",)


def test_truncated_workbook_is_a_clear_error(corpus, tmp_path):
    data = (corpus / "docling/xlsx/sources/xlsx_01.xlsx").read_bytes()
    broken = tmp_path / "cut.xlsx"
    broken.write_bytes(data[: len(data) // 2])
    with pytest.raises(LoaderError, match="cut.xlsx"):
        load_file(broken)


def test_legacy_or_foreign_bytes_are_a_clear_error(corpus, tmp_path):
    fake = tmp_path / "report.xlsx"
    fake.write_bytes((corpus / "chunking_evaluation/questions_df.csv").read_bytes()[:4096])
    with pytest.raises(LoaderError, match="not an XLSX"):
        load_file(fake)


def test_chart_sheets_and_empty_sheets_are_skipped_and_said(corpus):
    loaded = load_file(corpus / OPENPYXL / "reader/tests/data/contains_chartsheets.xlsx")
    with zipfile.ZipFile(corpus / OPENPYXL / "reader/tests/data/contains_chartsheets.xlsx") as zf:
        book = ElementTree.fromstring(zf.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
    kinds = {r.get("Id"): r.get("Type").rsplit("/", 1)[-1] for r in rels}
    rid = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    sheets = {s.get("name"): kinds[s.get(rid)] for s in book.iter(f"{{{NS['s']}}}sheet")}
    charts = {n for n, k in sheets.items() if k == "chartsheet"}
    assert charts and [b.text for b in loaded.blocks if b.kind == "heading"] == [n for n in sheets if n not in charts]
    assert all(any(repr(n) in w and "chart sheet" in w for w in loaded.warnings) for n in charts)
    # date_1904: two sheets without a single cell.
    loaded = load_file(corpus / OPENPYXL / "reader/tests/data/date_1904.xlsx")
    assert [b.text for b in loaded.blocks if b.kind == "heading"] == ["Sheet1"]
    assert sorted(w.split("'")[1] for w in loaded.warnings) == ["Sheet2", "Sheet3"]


def test_hidden_sheet_is_skipped_and_said(corpus):
    path = corpus / "docling/xlsx/sources/xlsx_01.xlsx"
    with zipfile.ZipFile(path) as zf:
        book = ElementTree.fromstring(zf.read("xl/workbook.xml"))
    hidden = [s.get("name") for s in book.iter(f"{{{NS['s']}}}sheet") if s.get("state") == "hidden"]
    loaded = load_file(path)
    assert hidden and not any(b.path[1] in hidden for b in loaded.blocks)
    assert all(any(repr(h) in w and "hidden" in w for w in loaded.warnings) for h in hidden)


def test_1904_dates_read_as_iso(corpus):
    path = corpus / OPENPYXL / "reader/tests/data/date_1904.xlsx"
    with zipfile.ZipFile(path) as zf:
        assert b'date1904="1"' in zf.read("xl/workbook.xml")
        serial = int(ElementTree.fromstring(zf.read("xl/worksheets/sheet1.xml")).find(".//s:c/s:v", NS).text)
    assert cell_at(load_file(path).blocks, "Sheet1", "A1") == (date(1904, 1, 1) + timedelta(days=serial)).isoformat()


def test_formulas_show_their_cached_values(corpus):
    path = corpus / OPENPYXL / "tests/data/reader/formulae.xlsx"
    with zipfile.ZipFile(path) as zf:
        sheet = ElementTree.fromstring(zf.read("xl/worksheets/sheet1.xml"))
    blocks = load_file(path).blocks
    formulas = [
        (c.get("r"), c.find("s:v", NS).text) for c in sheet.iter(f"{{{NS['s']}}}c") if c.find("s:f", NS) is not None
    ]
    assert len(formulas) >= 8
    for ref, cached in formulas:
        assert cell_at(blocks, "Sheet1", ref) == cached, ref
    assert not any(cell.startswith("=") for b in blocks if b.rows for row in b.rows for cell in row)


def test_number_formats_show_as_the_sheet_does(corpus):
    # empty_libre's K column holds 0.01 .. 0.29 formatted "0%".
    blocks = load_file(corpus / OPENPYXL / "tests/data/genuine/empty_libre.xlsx").blocks
    assert [cell_at(blocks, "Sheet2 - Numbers", f"K{i}") for i in range(1, 30)] == [f"{i}%" for i in range(1, 30)]
    # guess_types: 3.14 as "0.00" and as "0.00%"; 0.15 as "0%"; text that looks numeric stays text.
    blocks = load_file(corpus / OPENPYXL / "tests/data/genuine/guess_types.xlsx").blocks
    assert [cell_at(blocks, "Sheet1", r) for r in ("B1", "B2", "D1", "A2", "D2")] == [
        "3.14",
        "314.00%",
        "15%",
        "3.14",
        "3E5",
    ]
    # Binary floats read as people write them; thousands, fixed decimals, currency, negatives.
    assert shown(0.1 + 0.2, "General") == "0.3"
    assert shown(1234567.891, "#,##0.00") == "1,234,567.89"
    assert shown(-1234.5, '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)') == "($1,234.50)"
    assert shown(0, '_-* #,##0.00_-;-* #,##0.00_-;_-* "-"??_-;_-@_-') == "-"
    assert shown(42, "00000") == "00042"
    assert shown(12345678, "#,##0,") == "12,346"


def test_stanley_cups_match_unstructured(corpus):
    """unstructured's own expected elements: a title per sheet, then the table's cells."""
    expected = json.loads((corpus / "unstructured/expected/sharepoint__stanley-cups.xlsx.json").read_text())
    blocks = [b for b in _cleaned(corpus / "unstructured/example-docs/stanley-cups.xlsx") if b.kind != "heading"]
    assert [b.text for b in blocks if b.kind == "caption"] == [e["text"] for e in expected if e["type"] == "Title"]
    tables = [_html_rows(e["metadata"]["text_as_html"]) for e in expected if e["type"] == "Table"]
    assert [list(map(list, b.rows)) for b in blocks if b.kind == "table"] == tables


def test_subtables_come_apart(corpus):
    """xlsx-subtable-cases: tables separated by blank rows or columns, titled by a lone cell above."""
    path = corpus / "unstructured/example-docs/xlsx-subtable-cases.xlsx"
    blocks = load_file(path).blocks
    with zipfile.ZipFile(path) as zf:
        sheet = ElementTree.fromstring(zf.read("xl/worksheets/sheet1.xml"))
    rows = sorted({int(r.get("r")) for r in sheet.iter(f"{{{NS['s']}}}row") if r.find("s:c/s:v", NS) is not None})
    groups = sum(1 for i, r in enumerate(rows) if i == 0 or r != rows[i - 1] + 1)  # runs of rows
    located = [b for b in blocks if b.kind in ("table", "paragraph")]
    # Each run of rows holds at least one table; none spans a blank row.
    assert len({range_boundaries(b.meta.get("range", b.meta["cell"]))[1] for b in located}) >= groups
    for b in (b for b in blocks if b.kind == "table"):
        _, top, _, bottom = range_boundaries(b.meta["range"])
        assert all(r in rows for r in range(top, bottom + 1))


def test_csv_sniffs_dialect_and_decodes(corpus, tmp_path):
    path = corpus / "chunking_evaluation/questions_df.csv"
    with path.open(newline="", encoding="utf-8") as fh:
        truth = [row for row in csv.reader(fh)]
    loaded = load_file(path)
    (table,) = loaded.blocks
    assert table.header_rows == 1 and table.path == (path.stem,)
    assert [list(r) for r in table.rows] == [[c.strip() for c in row] for row in truth]
    # The same rows written with semicolons and in Latin-1 read back the same, with a warning.
    buf = io.StringIO()
    csv.writer(buf, delimiter=";").writerows(truth)
    latin = tmp_path / "questions.csv"
    latin.write_bytes(buf.getvalue().encode("latin-1", errors="replace"))
    again = load_file(latin)
    assert any("UTF-8" in w for w in again.warnings)
    (table2,) = again.blocks
    expected = [[c.strip().encode("latin-1", errors="replace").decode("latin-1") for c in row] for row in truth]
    assert [list(r) for r in table2.rows] == expected


def test_csv_with_empty_rows_and_columns_is_cleaned(corpus):
    """A CSV region with an empty column inside (an export with a spacer column): the cleaner drops it."""
    truth = list(csv.reader((corpus / "chunking_evaluation/questions_df.csv").open(newline="", encoding="utf-8")))[:30]
    buf = io.StringIO()
    csv.writer(buf).writerows([[row[0], "", row[2]] for row in truth])
    doc = local_document(Path("spaced.csv"), buf.getvalue().encode(), 0.0)
    loaded = load_bytes(buf.getvalue().encode(), doc)
    assert all(len(r) == 3 for b in loaded.blocks for r in b.rows)
    blocks, report = clean(loaded.blocks, doc, build_chain([]))
    (table,) = list(blocks)
    assert [list(r) for r in table.rows] == [[row[0].strip(), row[2].strip()] for row in truth]
    assert {k: report["empty_cells"].get(k) for k in ("rows", "columns", "blocks")} == {
        "rows": None,
        "columns": 1,
        "blocks": 0,
    }
    assert "|  |" not in table.text


def test_big_sheet_splits_between_rows_repeating_the_header(corpus):
    path = corpus / "docling/xlsx/sources/xlsx_02_sample_sales_data.xlsm"
    loaded = load_file(path)
    blocks = _cleaned(path)
    (table,) = [b for b in blocks if b.kind == "table"]
    header = table.text.splitlines()[:2]  # header row and its delimiter line
    pieces = list(chunk(loaded, ChunkOptions(max_tokens=80, min_tokens=0, overlap_tokens=0), blocks=blocks))
    assert len(pieces) > 3
    body = []
    for piece in pieces:
        lines = piece.text.splitlines()
        assert lines[:2] == header and piece.token_count <= 80
        assert piece.heading_path == (path.stem, "SalesData")
        body.extend(lines[2:])
    assert body == table.text.splitlines()[2:]  # every row once, in order, never cut


def _cleaned(path: Path) -> tuple[Block, ...]:
    loaded = load_file(path)
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    return tuple(blocks)


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._in = False

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        self._in = tag == "td"

    def handle_endtag(self, tag):
        self._in = False

    def handle_data(self, data):
        if self._in:
            self.rows[-1].append(data.strip())


def _html_rows(html: str) -> list[list[str]]:
    parser = _Cells()
    parser.feed(html)
    return [row for row in parser.rows if any(row)]
