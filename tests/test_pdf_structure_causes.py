"""Structure on layouts found failing on the corpus docling set and on unseen filings and papers,
one generated PDF per cause: each page holds only the evidence the rule reads (type, place,
drawings), and each test states what a reader of the page sees."""

from __future__ import annotations

import pymupdf

from tests.pdf.pages import Page, load, prose


def test_bold_heads_over_columns_of_check_boxes_are_no_headings(tmp_path):
    # A questionnaire: a bold question, then a grid of check boxes with two bold column heads
    # ("State funded" over "legal aid", "CSOs") and a row label per row. The heads name the
    # grid's columns; the next question, bold at body size, is still a heading.
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("28. Are legal aid services provided for specific groups?")
    page.para(prose(40, 1))
    page.text(330, 300, "State funded", font="hebo")
    page.text(338, 312, "legal aid", font="hebo")
    page.text(420, 300, "CSOs", font="hebo")
    for k, label in enumerate(("Persons with disabilities", "Children", "Women", "The elderly", "Migrants")):
        y = 332 + 18 * k
        page.text(60, y, label)
        page.text(350, y, "*", font="zadb")
        page.text(428, y, "*", font="zadb")
    page.y = 440
    page.heading("29. Does the state fund legal aid for refugees?")
    page.para(prose(40, 2))
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert not any("State funded" in t or "CSOs" in t for t in headings), headings
    assert "29. Does the state fund legal aid for refugees?" in headings
