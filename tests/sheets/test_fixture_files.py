"""The spreadsheet loaders and their cleaners on tests/fixtures/sheets/: budget.xlsx (made by
tests/fixtures/make_fixtures.py: a merged title, a two-row merged header, a cell comment) and
prices.csv (hand-written, quoted thousands). No ../shared needed."""

from __future__ import annotations

import pytest

from ingest.cleaners import build_chain, clean
from ingest.loaders import load_file
from tests.fixtures import make_fixtures as made
from tests.paths import FIXTURES

BUDGET = FIXTURES / "sheets" / "budget.xlsx"
PRICES = FIXTURES / "sheets" / "prices.csv"


@pytest.fixture(scope="module")
def loaded():
    return load_file(BUDGET)


def cleaned(loaded):
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    return list(blocks)


def test_the_merged_title_is_the_tables_caption(loaded):
    assert [(b.kind, b.text) for b in cleaned(loaded) if b.kind != "table"] == [
        ("heading", made.SHEET),
        ("caption", made.SHEET_TITLE),
    ]


def test_the_merged_two_row_header_becomes_one_row_of_column_names(loaded):
    (table,) = [b for b in cleaned(loaded) if b.kind == "table"]
    assert table.rows[0] == ("Item", "2025 / Q1", "2025 / Q2")
    assert table.rows[1:] == tuple(tuple(str(v) for v in row) for row in made.SHEET_ROWS)


def test_the_cell_comment_is_a_mark_on_its_cell_and_the_default_chain_drops_it(loaded):
    (table,) = [b for b in loaded.blocks if b.kind == "table"]
    ((row, col, mark),) = table.meta["cell_marks"]
    cell, text = made.CELL_COMMENT
    assert table.rows[row][col] == "4000" and mark.attrs["text"] == text and mark.attrs["cell"] == cell
    assert text not in table.text
    (table,) = [b for b in cleaned(loaded) if b.kind == "table"]
    assert not table.meta.get("cell_marks")


def test_a_csv_is_one_table_with_its_quoted_cells_whole():
    (table,) = load_file(PRICES).blocks
    assert table.kind == "table"
    assert table.rows == (
        ("Region", "Revenue", "Growth"),
        ("North", "4,210", "6%"),
        ("South", "3,180", "-2%"),
        ("East", "2,950", "9%"),
    )
