"""A heading the unit before it swallowed: a numbered subsection set right under its section's
title in the same type, a filing's item over its one-line answer, a heading beside the other
column's table row (found on papers' appendices and 10-Qs, where each was lost)."""

from __future__ import annotations

import textwrap

import pymupdf

from tests.pdf.pages import Page, load, other_information, prose


def test_a_numbered_subsection_right_under_its_sections_title_is_its_own_heading(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(80, 0))
    y = page.y + 16
    for text in ("B TRAINING DETAILS OF THE LARGE MODEL", "ON TWO TASKS", "B.1 Dataset Construction"):
        page.text(60, y, text, size=11, font="hebo")
        y += 13
    page.y = y
    page.para(prose(80, 3))
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == ["B TRAINING DETAILS OF THE LARGE MODEL ON TWO TASKS", "B.1 Dataset Construction"], headings


def test_an_item_over_its_one_line_answer_in_the_same_block_is_a_heading(tmp_path):
    # A 10-Q's Part II in the body's type: "Item 3." closes its title with a stop at the end of its
    # line and "None." answers it on the next, at the paragraph's own pitch.
    doc = pymupdf.open()
    page = Page(doc)
    other_information(page, ("Item 1. Legal Proceedings.", "Item 1A. Risk Factors."))
    for title, answer in (
        ("Item 3. Defaults Upon Senior Securities.", "None."),
        ("Item 4. Mine Safety.", "Not applicable."),
    ):
        page.para(title, gap=0)
        page.para(answer, gap=6)
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings[-2:] == ["Item 3. Defaults Upon Senior Securities.", "Item 4. Mine Safety."], headings
    none = next(b for b in blocks if b.text == "None.")
    assert none.kind == "paragraph" and none.path[-1] == "Item 3. Defaults Upon Senior Securities."


def test_a_page_of_items_each_answered_by_a_sentence_is_no_contents_page(tmp_path):
    # The last page of a 10-Q's Part II: short items in plain type, each over its one-sentence
    # answer. They outnumber the page's prose, yet each is answered: headings, not entries.
    doc = pymupdf.open()
    other_information(Page(doc), ("Item 1. Legal Proceedings.", "Item 1A. Risk Factors.", "Item 2. Sales of Equity."))
    page = Page(doc)
    answers = (("Item 3. Defaults Upon Senior Securities.", "None."), ("Item 4. Mine Safety.", "Not applicable."))
    for title, answer in (*answers, ("Item 5. Other Information.", "None.")):
        page.para(title, gap=6)
        page.para(answer, gap=8)
    page.para("Item 6. Exhibits.", gap=6)
    page.para(prose(30, 4))
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading" and b.page == 2]
    assert headings == [t for t, _ in answers] + ["Item 5. Other Information.", "Item 6. Exhibits."], headings


def test_a_bold_heading_level_with_a_table_row_in_the_column_before_is_a_heading(tmp_path):
    # Two columns: the left one ends in a table of figures, the right one goes on with a bold
    # heading set level with one of the table's ruled rows, then its prose. The row is in another column.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 80.0
    for line in textwrap.wrap(prose(160, 1), 48):
        page.insert_text((52, y), line, fontsize=10)
        page.insert_text((320, y), line, fontsize=10)
        y += 12.5
    labels = ("Total adjusted assets", "Add: exposures")
    for r, label in enumerate(labels):
        row = y + 10 + r * 13
        page.draw_line((50, row + 3), (290, row + 3), width=0.5)
        page.insert_text((52, row), label, fontsize=8)
        for c, x in enumerate((185, 245)):
            page.insert_text((x, row), f"{(r + 3) * (c + 7) * 4_111:,}", fontsize=8)
    page.insert_text((320, y + 10), "Capital actions", fontsize=10, fontname="hebo")
    y += 26
    for line in textwrap.wrap(prose(60, 4), 48):
        page.insert_text((320, y), line, fontsize=10)
        y += 12.5
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Capital actions"]


def test_a_bold_title_over_a_bold_lead_in_is_a_heading(tmp_path):
    # A manual sets its subheading and the lead-in under it in one bold type at the body's pitch.
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Lock and Unlock", size=14)
    page.para(prose(40, 2))
    for text in ("Lock Your Screen", "Auto-lock:"):
        page.y += 12.5
        page.text(60, page.y, text, font="hebo")
    page.para(prose(40, 5))
    # A year over its lead-in, and a group's label over a label indented under it, are one label.
    for x, text in ((60, "2016"), (60, "Operating data:"), (60, "Derivative receivables"), (67, "Rate contracts:")):
        page.y += 12.5
        page.text(x, page.y, text, font="hebo")
    page.para(prose(40, 7))
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Lock and Unlock", "Lock Your Screen"]
    paragraphs = [b.text for b in blocks if b.kind == "paragraph"]
    assert "Auto-lock:" in paragraphs and "2016 Operating data:" in paragraphs, paragraphs
    assert "Derivative receivables Rate contracts:" in paragraphs, paragraphs
