"""The .ods loader on tests/fixtures/odf/budget.ods (written by tests/fixtures/make_odf.py) and on
sheets written here: sheets as sections, regions as tables with header rows, spans as merges, and
repeated rows and cells expanded within a bound."""

from __future__ import annotations

import tracemalloc

from ingest.blocks import Document
from ingest.loaders import ODS, load_bytes, load_file
from tests.fixtures.make_odf import ODS as ODS_TYPE
from tests.fixtures.make_odf import cell, content, package
from tests.paths import FIXTURES

BUDGET = FIXTURES / "odf" / "budget.ods"


def test_sheet_is_a_section_with_its_title_line_and_table():
    loaded = load_file(BUDGET)
    assert loaded.document.mime_type == ODS == ODS_TYPE
    blocks = loaded.blocks
    assert [(b.kind, b.text) for b in blocks[:2]] == [("heading", "Budget"), ("paragraph", "Budget 2025")]
    table = blocks[2]
    assert table.kind == "table" and table.path == ("budget", "Budget")
    assert table.rows == (
        ("Item", "Q1", "Q2"),
        ("Rent", "1,000.00", "1,000.00"),  # the text the sheet shows, not office:value
        ("Staff", "250.00", "260.50"),
        ("Shared costs", "Shared costs", "50.00"),  # a span: covered cells hold the anchor's text, as in .xlsx
    )
    assert table.header_rows == 1 and table.meta["header"] == "detected"
    assert table.meta["range"] == "A3:C6"
    assert table.meta["merges"] == ((3, 0, 3, 1),) and table.meta["covered"] == ((3, 1),)
    assert len(blocks) == 3  # the million repeated empty rows add nothing


def test_hidden_and_empty_sheets_are_skipped_and_said():
    loaded = load_file(BUDGET)
    assert not any("Salaries" in b.text for b in loaded.blocks)
    assert "sheet 'Secret' is hidden: skipped" in loaded.warnings
    assert "sheet 'Blank' has no cell with text: skipped" in loaded.warnings


def _sheet(tmp_path, rows_xml: str):
    path = tmp_path / "sheet.ods"
    package(path, ODS_TYPE, content(f'<table:table table:name="S">{rows_xml}</table:table>', kind="spreadsheet"))
    data = path.read_bytes()
    return load_bytes(data, Document(id="s", uri="file:///s.ods", name="s.ods", mime_type=ODS, title="s"))


def test_a_million_repeated_empty_cells_cost_nothing(tmp_path):
    rows = (
        f"<table:table-row>{cell('Name')}{cell('Score')}</table:table-row>"
        f"<table:table-row>{cell('Ann')}{cell('7')}"
        '<table:table-cell table:number-columns-repeated="16000"/></table:table-row>'
        '<table:table-row table:number-rows-repeated="1000000">'
        '<table:table-cell table:number-columns-repeated="16384"/></table:table-row>'
    )
    tracemalloc.start()
    loaded = _sheet(tmp_path, rows)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    table = next(b for b in loaded.blocks if b.kind == "table")
    assert table.rows == (("Name", "Score"), ("Ann", "7"))
    assert peak < 20 * 1024 * 1024  # 1.6e10 cells expanded would not fit in any memory


def test_a_filled_row_repeated_past_the_bound_is_kept_a_thousand_times_with_a_warning(tmp_path):
    rows = (
        f"<table:table-row>{cell('Code')}</table:table-row>"
        f'<table:table-row table:number-rows-repeated="50000">{cell("x")}</table:table-row>'
    )
    loaded = _sheet(tmp_path, rows)
    table = next(b for b in loaded.blocks if b.kind == "table")
    assert len(table.rows) == 1 + 1000
    assert any("more than 1000 times" in w for w in loaded.warnings)


def test_a_cell_without_paragraphs_reads_its_value(tmp_path):
    rows = (
        f"<table:table-row>{cell('Day')}{cell('Open')}</table:table-row>"
        '<table:table-row><table:table-cell office:value-type="date" office:date-value="2025-03-01"/>'
        '<table:table-cell office:value-type="boolean" office:boolean-value="true"/></table:table-row>'
    )
    table = next(b for b in _sheet(tmp_path, rows).blocks if b.kind == "table")
    assert table.rows == (("Day", "Open"), ("2025-03-01", "true"))


def test_a_cell_comment_is_a_comment_mark_on_its_cell(tmp_path):
    note = (
        "<office:annotation><dc:creator>Ann Lee</dc:creator><dc:date>2025-02-01T10:00:00</dc:date>"
        "<text:p>Check with finance</text:p></office:annotation>"
    )
    rows = (
        f"<table:table-row>{cell('Item')}{cell('Cost')}</table:table-row>"
        f'<table:table-row>{cell("Rent")}<table:table-cell office:value-type="float" office:value="900">'
        f"{note}<text:p>900</text:p></table:table-cell></table:table-row>"
    )
    loaded = _sheet(tmp_path, rows)
    table = next(b for b in loaded.blocks if b.kind == "table")
    assert table.rows == (("Item", "Cost"), ("Rent", "900"))  # the comment's text is not the cell's
    ((r, c, mark),) = table.meta["cell_marks"]
    assert (r, c, mark.kind) == (1, 1, "comment")
    assert mark.attrs["text"] == "Check with finance" and mark.attrs["author"] == "Ann Lee"
    assert mark.attrs["cell"] == "B2"
    assert loaded.document.meta["comments"][0]["sheet"] == "S"
