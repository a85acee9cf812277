"""Structure on layouts found failing on the corpus docling set and on unseen filings and papers,
one generated PDF per cause: each page holds only the evidence the rule reads (type, place,
drawings), and each test states what a reader of the page sees."""

from __future__ import annotations

import textwrap

import pymupdf

from tests.pdf.pages import Page, load, paper_page, prose, ruled_statement


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


# -- a statement's title and column heads in the top band ---------------------------------------

STATEMENTS = ("Consolidated Statement of Income", "Consolidated Statement of Cash Flows")


def statement_page(doc: pymupdf.Document, title: str, heads: str, seed: int) -> None:
    """A 10-K statement page: a bold title block at body size in the top band, the column heads
    in smaller type right over a ruled grid of figures, a note under it."""
    page = doc.new_page(width=612, height=792)
    for k, line in enumerate(("Acme Company and Subsidiaries", title, "Years ended December 31")):
        page.insert_text((57, 60 + 9 * k), line, fontsize=7.8, fontname="hebo")
    page.insert_text((57, 97), heads, fontsize=6.6, fontname="hebo")
    for x, year in ((370, "2018"), (436, "2017"), (502, "2016")):
        page.insert_text((x, 97), year, fontsize=6.6, fontname="hebo")
    labels = ("Net sales", "Cost of sales", "Research expenses", "Operating income", "Net income")
    bottom = ruled_statement(page, 100, labels, 7.8, seed)
    y = bottom + 30
    for line in textwrap.wrap(prose(120, seed), 110):
        page.insert_text((57, y), line, fontsize=7.8)
        y += 9.5
    page.insert_text((300, 760), str(50 + seed), fontsize=7.8)


def test_statement_title_block_and_column_heads(tmp_path):
    # Statement pages of a filing: each opens on its title block ("... Statement of Cash Flows /
    # Years ended December 31", bold at the body's size, high in the top band) and its column
    # heads ("(Millions) 2018 2017 2016", the same on every statement page) right over the grid.
    # The title heads the page's statement; the heads are the grid's first row.
    doc = pymupdf.open()
    for seed in range(6):
        statement_page(
            doc, STATEMENTS[seed % 2] + ("" if seed < 2 else f" by Segment {'ABCDEF'[seed]}"), "(Millions)", seed
        )
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert len(headings) == 6 and all("Consolidated Statement of" in t for t in headings), headings
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 6
    assert all(t.rows[0][1:] == ("2018", "2017", "2016") and t.header_rows >= 1 for t in tables), tables[0].rows[:2]
    assert not any(b.text.startswith("(Millions)") for b in blocks if b.kind != "table")


def test_statement_title_atop_the_next_page_of_the_same_statement(tmp_path):
    # A statement that goes on over the page repeats its title: on two pages in a row, it is
    # still the title over each page's part, while a line atop every page stays a running header.
    doc = pymupdf.open()
    for seed in range(7):
        title = "Consolidated Balance Sheet" if seed in (2, 3) else f"Consolidated Statement of Item {'ABCDEFG'[seed]}"
        statement_page(doc, title, "(Millions)", seed)
    _, blocks = load(doc, tmp_path)
    sheets = [b for b in blocks if b.kind == "heading" and "Balance Sheet" in b.text]
    assert [b.page for b in sheets] == [3, 4]


def test_a_title_ending_in_a_date_is_no_contents_entry(tmp_path):
    # "Years ended December 31" ends the title block in a day of the month, not a page number.
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(80, 0))
    page.heading("Acme Company and Subsidiaries")
    page.para("Consolidated Statement of Cash Flows", font="hebo", gap=0)
    page.para("Years ended December 31", font="hebo")
    page.para(prose(80, 1))
    page.heading("Results of operations 12")
    page.para(prose(80, 2))
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings[0].startswith("Acme Company and Subsidiaries") and headings[0].endswith("December 31"), headings
    assert "Results of operations 12" not in headings  # a contents entry: words and a page number


# -- figure text -------------------------------------------------------------------------------


def panels(page: pymupdf.Page, x0: float, y0: float, size: float = 80, n: int = 3) -> None:
    """A paper's grid of n x n small plots: framed panels side by side with grid lines, a curve
    of markers in each, a panel label inside and tick labels outside the frames."""
    for i in range(n):
        for j in range(n):
            left, top = x0 + j * size, y0 + i * size
            page.draw_rect(pymupdf.Rect(left, top, left + size, top + size), width=0.5)
            for k in (1, 2, 3):
                page.draw_line((left, top + k * size / 4), (left + size, top + k * size / 4), width=0.2)
                page.draw_line((left + k * size / 4, top), (left + k * size / 4, top + size), width=0.2)
            points = [(left + 8 + 12 * k, top + size - 10 - 9 * k + 4 * ((k + i + j) % 3)) for k in range(6)]
            page.draw_polyline(points, width=0.8)
            for x, y in points:
                page.draw_circle((x, y), 2, fill=(0.4, 0.2, 0.6))
            page.insert_text((left + 3, top + 9), f"[{i * n + j + 1}]", fontsize=5.6)
            if j == 0:
                for k in (1, 2, 3):
                    page.insert_text((left - 10, top + k * size / 4 + 2), str(90 - 10 * k), fontsize=5.6)
    for j in range(n):
        page.insert_text((x0 + j * size + size / 2 - 6, y0 + n * size + 8), "10-4", fontsize=5.6)


def test_a_grid_of_plots_is_a_figure_not_a_table_nor_paragraphs(tmp_path):
    # A page of a paper: text, a grid of nine small plots (their frames make a grid of rules, as a
    # table's would), a caption under it. The tick labels are figure text; the caption is body.
    doc, page = paper_page()
    panels(page, 180, 260)
    caption = "Figure 12: Test accuracy as a function of strong student compute across nine tasks."
    page.insert_text((72, 530), caption, fontsize=10)
    y = 560.0
    for line in textwrap.wrap(prose(100, 4), 95):
        page.insert_text((72, y), line, fontsize=10)
        y += 12.5
    _, blocks = load(doc, tmp_path)
    body = [b for b in blocks if b.kind in ("paragraph", "table", "list_item", "heading")]
    assert not [b.text for b in body if not any(c.isalpha() for c in b.text.replace("10-4", ""))]
    assert not any(b.kind == "table" for b in blocks)
    assert caption in [b.text for b in body]


def test_an_axis_of_two_plots_side_by_side_is_figure_text(tmp_path):
    # Two line plots side by side, each with five x-axis labels: MuPDF reads both axes as one
    # line of ten numbers, longer than a label. It is still the figures' text, not a paragraph.
    doc, page = paper_page()
    for left in (150, 290):
        points = [(left + 3 + 25 * k, 400 - 14 * k + 6 * (k % 2)) for k in range(6)]
        for a, b in zip(points, points[1:]):
            page.draw_line(a, b, width=0.8)  # a plotting library draws a curve segment by segment
        page.draw_line((left, 330), (left, 410), width=0.5)
        for x, yy in points:
            page.draw_circle((x, yy), 2, fill=(0.2, 0.5, 0.3))
        page.draw_line((left, 410), (left + 130, 410), width=0.5)
        for k in range(5):
            page.draw_line((left + 10 + 28 * k, 410), (left + 10 + 28 * k, 413), width=0.5)
    # Set as one run of text, as MuPDF reads the two axes' labels.
    page.insert_text((154, 420), "     ".join(["500", "1000", "1500", "2000", "2500"] * 2), fontsize=6)
    page.insert_text((72, 450), "Figure 3: Accuracy against training steps for the two models.", fontsize=10)
    _, blocks = load(doc, tmp_path)
    assert not [b.text for b in blocks if b.kind != "figure" and "1500" in b.text]
    assert any(b.text.startswith("Figure 3:") and b.kind == "paragraph" for b in blocks)
