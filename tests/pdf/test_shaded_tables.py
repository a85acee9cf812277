"""Tables that a filing shades (rows filled in turn, a head row filled cell by cell, totals
underlined) beside a chart drawn in vectors: the fills and short rules are as many paths as a
chart's marks, but the text over them lines up in rows and columns of figures, so the tables are
read as tables, and only the chart's labels are a figure's text.

The page is drawn here with pymupdf after the FinanceBench 10-K and 10-Q pages where the loader
took such tables for figures (their text is not ours to copy: CC-BY-NC)."""

from __future__ import annotations

import pymupdf

from tests.pdf.pages import load, prose

GREY, WHITE, BLUE = (0.8, 0.8, 0.8), (1, 1, 1), (0.82, 0.9, 0.97)


def banded_table(page: pymupdf.Page, top: float) -> float:
    """Rows filled grey and white in turn, each a band under its label and figures (right-aligned
    in three columns), the total underlined; returns its bottom."""
    page.insert_text((400, top), "(dollars in millions)", fontsize=8)
    page.insert_text((43, top + 12), "Years Ended December 31,", fontsize=8)
    for x, text in ((300, "2022"), (380, "2021"), (470, "Change")):
        page.insert_text((x, top + 12), text, fontsize=8, fontname="hebo")
    rows = [
        ("Segment Operating Income", "$ 28,846", "$ 29,955", "(1,109)"),
        ("Add Depreciation and amortization expense", "12,716", "11,679", "1,037"),
        ("Segment EBITDA", "$ 41,562", "$ 41,634", "(72)"),
        ("Segment operating income margin", "27.9 %", "31.4 %", "(3.5)"),
        ("Segment EBITDA margin", "40.2 %", "43.7 %", "(3.5)"),
        ("Capital expenditures", "$ 17,397", "$ 14,726", "2,671"),
    ]
    y = top + 16
    # The head's rules, each drawn in two pieces that meet over the last column.
    page.draw_line((457, top + 2), (549.5, top + 2), width=1)
    page.draw_line((40, y), (458, y), width=1)
    page.draw_line((457, y), (549.5, y), width=1)
    for k, (label, *figures) in enumerate(rows):
        fill = GREY if k % 2 == 0 else WHITE
        # As the filings draw it: the band filled, then its right edge stroked in the band's colour.
        page.draw_rect(pymupdf.Rect(40, y, 549, y + 12), color=None, fill=fill, width=0)
        page.draw_line((549, y), (549, y + 12), color=fill, width=0.3)
        page.insert_text((45, y + 9), label, fontsize=8)
        for right, text in zip((330, 410, 500), figures):
            page.insert_text((right - pymupdf.get_text_length(text, fontsize=8), y + 9), text, fontsize=8)
        y += 12
    for right in (330, 410, 500):
        page.draw_line((right - 40, y + 1), (right, y + 1), width=0.5)
        page.draw_line((right - 40, y + 3), (right, y + 3), width=0.5)
    return y + 3


def head_shaded_table(page: pymupdf.Page, top: float) -> float:
    """A head row filled cell by cell, each column's title stacked on three lines over the
    figures, the body rows on the paper; returns its bottom."""
    heads = [
        ("As of or for the quarter", "(in millions)", ""),
        ("Unrealized", "gains/(losses)", "on securities"),
        ("Translation", "adjustments,", "net of hedges"),
        ("Cash flow", "hedges", ""),
        ("Accumulated", "other", "income/(loss)"),
    ]
    xs = [(52, 172), (176, 260), (264, 350), (354, 440), (444, 560)]
    # Each head cell filled, and the narrow spacers between them; rules over and under the head.
    spans = [(52, 172), (172, 176), (176, 260), (260, 264), (264, 350), (350, 354), (354, 440), (440, 444), (444, 560)]
    for x0, x1 in spans:
        page.draw_rect(pymupdf.Rect(x0, top, x1, top + 32), color=None, fill=BLUE, width=0)
    for y in (top, top + 32):
        page.draw_line((52, y), (172, y), width=0.8)
        page.draw_line((172, y), (560, y), width=0.8)
    for (x0, _), lines in zip(xs, heads):
        for n, text in enumerate(t for t in lines if t):
            page.insert_text((x0 + 3, top + 9 + 9 * n), text, fontsize=7.5)
    rows = [
        ("Balance at April 1", "(4,813)", "(996)", "(3,087)", "(9,567)"),
        ("Net change", "(4,031)", "(679)", "(1,348)", "(4,802)"),
        ("Balance at June 30", "(8,844)", "(1,675)", "(4,435)", "(14,369)"),
    ]
    y = top + 32
    for row in rows:
        page.insert_text((54, y + 9), row[0], fontsize=7.5)
        for (_, x1), text in zip(xs[1:], row[1:]):
            page.insert_text((x1 - 4 - pymupdf.get_text_length(text, fontsize=7.5), y + 9), text, fontsize=7.5)
        y += 12
    page.draw_line((52, y), (560, y), width=0.8)
    return y


def line_chart(page: pymupdf.Page, left: float, top: float) -> None:
    """Axes with ticks, gridlines, two curves drawn as polylines, the axis's numbers, years under
    it and a legend: a chart's sparse short labels."""
    width, height = 300.0, 120.0
    page.draw_line((left, top), (left, top + height), width=0.6)
    page.draw_line((left, top + height), (left + width, top + height), width=0.6)
    for k in range(5):
        y = top + height - k * height / 4
        page.draw_line((left - 3, y), (left, y), width=0.5)
        page.draw_line((left, y), (left + width, y), width=0.2, color=(0.6, 0.6, 0.6))
        page.insert_text((left - 26, y + 2), f"${75 + 25 * k}", fontsize=7)
    for k in range(6):
        x = left + k * width / 5
        page.draw_line((x, top + height), (x, top + height + 3), width=0.5)
        page.insert_text((x - 8, top + height + 12), str(2017 + k), fontsize=7)
    for n, (colour, ys) in enumerate(
        (((0.87, 0, 0.1), (100, 104, 122, 118, 131, 112)), ((0, 0, 0), (100, 96, 126, 149, 192, 157)))
    ):
        points = [pymupdf.Point(left + k * width / 5, top + height - (v - 75) * height / 100) for k, v in enumerate(ys)]
        page.draw_polyline(points, color=colour, width=1.2)
        page.draw_rect(
            pymupdf.Rect(left + 20 + 90 * n, top - 14, left + 30 + 90 * n, top - 10), color=colour, fill=colour
        )
        page.insert_text((left + 34 + 90 * n, top - 9), ("Company", "S&P 500")[n], fontsize=7)


def _filing_page() -> pymupdf.Document:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 60.0
    for n in range(3):
        page.insert_text((43, y), prose(16, n), fontsize=9)
        y += 12
    y = banded_table(page, y + 10) + 24
    page.insert_text((43, y), "The following graph compares the cumulative total return.", fontsize=9)
    line_chart(page, 90, y + 30)
    page.insert_text((43, y + 190), "Note 19 - Accumulated other comprehensive income", fontsize=9)
    head_shaded_table(page, y + 200)
    return doc


def test_shaded_tables_are_tables_and_the_chart_a_figure(tmp_path):
    _, blocks = load(_filing_page(), tmp_path)
    figures = [b.text for b in blocks if b.kind == "figure"]
    tables = [b.text for b in blocks if b.kind == "table"]
    # The chart's labels are a figure's text, and nothing of the tables is.
    assert len(figures) == 1
    assert "2019" in figures[0] and "$150" in figures[0] and "S&P 500" in figures[0]
    assert not any(word in figures[0] for word in ("28,846", "EBITDA", "Unrealized", "(8,844)"))
    # Each table's figures stand in a row with their label.
    banded = next(t for t in tables if "28,846" in t)
    assert any("Segment EBITDA" in row and "41,562" in row and "41,634" in row for row in banded.splitlines())
    shaded_head = next(t for t in tables if "(8,844)" in t)
    assert any("Net change" in row and "(4,031)" in row for row in shaded_head.splitlines())
    assert "Unrealized" in shaded_head  # its column titles stay with it, not in a figure
