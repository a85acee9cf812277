"""The PDF loader and its cleaners on tests/fixtures/pdf/report.pdf, a three-page report made by
tests/fixtures/make_fixtures.py: a running header and "Page n of 3" on every page, a title, two
columns on page 2, a ruled table on page 3. No ../shared needed; what to expect comes from how the
file was made."""

from __future__ import annotations

import pytest

from ingest import ChunkOptions, chunk
from ingest.cleaners import build_chain, clean
from ingest.loaders import load_file
from tests.fixtures import make_fixtures as made
from tests.paths import FIXTURES

REPORT = FIXTURES / "pdf" / "report.pdf"


@pytest.fixture(scope="module")
def loaded():
    return load_file(REPORT)


@pytest.fixture(scope="module")
def cleaned(loaded):
    blocks, report = clean(loaded.blocks, loaded.document, build_chain([]))
    return list(blocks), report


def test_the_loader_reads_every_line_furniture_included(loaded):
    texts = [b.text for b in loaded.blocks]
    assert texts.count(made.HEADER) == made.PAGES
    assert [t for t in texts if t.startswith("Page ")] == [made.page_number(n) for n in range(1, made.PAGES + 1)]


def test_running_header_and_page_numbers_are_removed_and_nothing_else(cleaned):
    blocks, report = cleaned
    assert [b.text for b in blocks if b.kind != "table"] == [
        made.TITLE,
        made.INTRO,
        *made.LEFT,
        *made.RIGHT,
        "Revenue by region, in thousands:",
    ]
    assert report["running_headers"]["blocks"] == made.PAGES and report["page_numbers"]["blocks"] == made.PAGES


def test_the_title_is_a_heading(cleaned):
    blocks, _ = cleaned
    assert [(b.kind, b.text) for b in blocks if b.kind == "heading"] == [("heading", made.TITLE)]


def test_two_columns_read_left_then_right(cleaned):
    texts = [b.text for b in cleaned[0]]
    assert texts.index(made.LEFT[-1]) < texts.index(made.RIGHT[0])


def test_the_ruled_table_keeps_its_rows_and_cells(cleaned):
    (table,) = [b for b in cleaned[0] if b.kind == "table"]
    assert [tuple(row) for row in table.rows] == made.TABLE


def test_no_chunk_carries_the_furniture(loaded, cleaned):
    text = "\n".join(c.text for c in chunk(loaded, ChunkOptions(), blocks=cleaned[0]))
    assert made.HEADER not in text and "Page 2 of 3" not in text
    assert made.INTRO in text and "North" in text
