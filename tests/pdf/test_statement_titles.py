"""A statement's title block whose period line names three years (MGM's "For the Years ended
December 31, 2022, 2021 and 2020", nine words): the block heads the statement's table, and the
period line is no heading of its own."""

from __future__ import annotations

import pymupdf

from ingest.loaders.pdf.lines import Line
from ingest.loaders.pdf.paragraphs import Unit
from ingest.loaders.pdf.statement_titles import join_periods
from tests.pdf.pages import load, prose, ruled_statement

STATEMENTS = ("Operations", "Cash Flows", "Stockholders' Equity", "Comprehensive Income")
PERIOD = "For the Years ended December 31, 2022, 2021 and 2020"


def statement_page(doc: pymupdf.Document, name: str, seed: int) -> None:
    page = doc.new_page(width=612, height=792)
    title = f"Northwind Inc. and Subsidiaries\nConsolidated Statements of {name}\n{PERIOD}"
    page.insert_text((200, 60), title, fontsize=9, fontname="hebo")  # one block, as a filing sets it
    labels = ("Net revenues", "Operating expenses", "Interest expense", "Net income")
    bottom = ruled_statement(page, 110, labels, 9, seed)
    words = prose(90, seed).split()
    for k in range(0, len(words), 14):
        page.insert_text((57, bottom + 30 + k), " ".join(words[k : k + 14]), fontsize=9)


def test_a_title_block_with_its_full_period_heads_the_statement(tmp_path):
    doc = pymupdf.open()
    for seed, name in enumerate(STATEMENTS):
        statement_page(doc, name, seed)
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == len(STATEMENTS)
    for table, name in zip(tables, STATEMENTS):
        assert f"Consolidated Statements of {name}" in table.path[-1], table.path
    assert not [b for b in blocks if b.kind == "heading" and b.text == PERIOD]


def line(text: str, y: float, bold: bool = True, block: int = 0) -> Line:
    return Line(text, (200.0, y, 420.0, y + 9.0), 9.0, bold, block)


def test_a_period_line_set_in_a_block_of_its_own_joins_the_title_above():
    # MGM's equity statement: the company and the statement's name in one pymupdf block, the
    # period in the next; two units until joined.
    title = Unit(
        "paragraph", [line("Northwind Inc. and Subsidiaries", 60), line("Consolidated Statements of Equity", 70)], 1
    )
    period = Unit("paragraph", [line(PERIOD, 80, block=1)], 1)
    body = Unit("paragraph", [line(prose(20), 120, bold=False, block=2)], 1)
    joined = join_periods([title, period, body])
    assert [u.text for u in joined] == [f"{title.text} {PERIOD}", body.text]
    # Not in bold, or set apart from the title: the period line stays where it is.
    plain = Unit("paragraph", [line(PERIOD, 80, bold=False, block=1)], 1)
    apart = Unit("paragraph", [line(PERIOD, 110, block=1)], 1)
    assert len(join_periods([title, plain])) == 2 and len(join_periods([title, apart])) == 2
