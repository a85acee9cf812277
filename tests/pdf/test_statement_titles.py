"""A statement's title block whose period line names three years (MGM's "For the Years ended
December 31, 2022, 2021 and 2020", nine words): the block heads the statement's table, and the
period line is no heading of its own."""

from __future__ import annotations

import pymupdf

from ingest.loaders.pdf.model import Line, Unit
from ingest.loaders.pdf.statement_titles import join_periods
from tests.pdf.pages import Page, load, prose, ruled_statement

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
    table = Unit("table", [], 1, rows=(("Revenue", "1,200"), ("Net income", "300")), bbox=(55.0, 100.0, 545.0, 130.0))
    body = Unit("paragraph", [line(prose(20), 120, bold=False, block=2)], 1)
    for after in (table, body):
        joined = join_periods([title, period, after])
        assert [u.text for u in joined] == [f"{title.text} {PERIOD}", after.text]
    # Not in bold, or set apart from the title: the period line stays where it is.
    plain = Unit("paragraph", [line(PERIOD, 80, bold=False, block=1)], 1)
    apart = Unit("paragraph", [line(PERIOD, 110, block=1)], 1)
    assert len(join_periods([title, plain, table])) == 3 and len(join_periods([title, apart, table])) == 3


COMPARED = "Fiscal Year Ended June 30, 2023 Compared with Fiscal Year Ended June 30, 2022"


def mdna_page(doc: pymupdf.Document, measure: float) -> None:
    """An MD&A page: "Results of Operations", prose, then the bold comparison line and the bold
    "Revenue" under it as one pymupdf block (wrapped to the measure), prose under that."""
    page = Page(doc)
    page.heading("Results of Operations", size=12)
    page.para(prose(50))
    box = pymupdf.Rect(60, page.y + 6, 60 + measure, page.y + 60)
    page.page.insert_textbox(box, f"{COMPARED}\nRevenue", fontsize=10, fontname="hebo")
    page.y += 60
    page.para(prose(60, 1))


def test_a_bold_period_line_over_a_subheading_is_a_heading_of_its_own(tmp_path):
    # Wide (one line) and narrow (wrapped over two lines): the comparison line and "Revenue" are
    # two headings, and the prose under them sits under "Revenue".
    for measure in (480, 230):
        doc = pymupdf.open()
        mdna_page(doc, measure)
        _, blocks = load(doc, tmp_path)
        headings = [b.text for b in blocks if b.kind == "heading"]
        assert headings == ["Results of Operations", COMPARED, "Revenue"], (measure, headings)
        assert next(b for b in blocks if b.kind == "paragraph" and b.page == 1 and b.path[-1] == "Revenue")


def test_a_period_line_under_a_title_over_a_subheading_stays_apart(tmp_path):
    # A bold heading, a bold period line right under it (two blocks), then "Revenue" in bold: the
    # period line heads the subheading, so it is not joined to the heading above.
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(40, 2))
    page.heading("Results of Operations")
    page.heading(COMPARED)
    page.heading("Revenue")
    page.para(prose(60, 1))
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == ["Results of Operations", COMPARED, "Revenue"], headings
