"""Bar charts drawn in a frame with grid lines: the frame and lines make a grid of rules as a
table's would, and the bars' sides divide it further. Bars standing on one baseline at their own
heights, holding no text, make it a chart (its axis labels figure text); a table's cells share
their row's top and bottom, spacer cells included, and it stays a table."""

from __future__ import annotations

import pymupdf

from tests.pdf.pages import load, paper_page


def bar_chart(page: pymupdf.Page, left: float, top: float, values: list[float]) -> None:
    """A frame 200 x 120 with a grid line per 25 (zero in the middle), outlined bars of two
    series from zero, a legend inside the frame and the axis's numbers outside it."""
    width, height = 200.0, 120.0
    zero = top + height / 2
    page.draw_rect(pymupdf.Rect(left, top, left + width, top + height), width=0.5)
    for k in range(1, 8):
        y = top + k * height / 8
        page.draw_line((left, y), (left + width, y), width=0.2, color=(0.6, 0.6, 0.6))
        page.draw_line((left - 2, y), (left, y), width=0.5)
        page.insert_text((left - 16, y + 2), str(int(75 - 25 * (k - 1))), fontsize=6)
    for i, value in enumerate(values):
        x = left + 6 + 16 * i
        y = zero - value * (height / 2) / 100
        colour = (0.2, 0.4, 0.6) if i % 2 == 0 else (0.9, 0.5, 0.1)
        page.draw_rect(pymupdf.Rect(x, min(y, zero), x + 12, max(y, zero)), color=colour, width=0.8)
    page.draw_rect(pymupdf.Rect(left + 4, top + height - 16, left + 14, top + height - 12), color=(0.2, 0.4, 0.6))
    page.insert_text((left + 18, top + height - 12), "baseline", fontsize=6)
    page.draw_rect(pymupdf.Rect(left + 4, top + height - 8, left + 14, top + height - 4), color=(0.9, 0.5, 0.1))
    page.insert_text((left + 18, top + height - 4), "aux. loss", fontsize=6)


def _page_with(draw) -> pymupdf.Document:
    doc, page = paper_page()
    draw(page)
    page.insert_text(
        (72, 460), "Figure 21: Performance gap recovered with and without the auxiliary loss.", fontsize=10
    )
    return doc


def test_a_bar_chart_in_a_framed_grid_is_a_figure(tmp_path):
    values = [68, 90, 95, 94, 25, 27, 36, 43, 82, 88, 42, 86]
    doc = _page_with(lambda page: bar_chart(page, 200, 280, values))
    _, blocks = load(doc, tmp_path)
    body = [b for b in blocks if b.kind != "figure"]
    assert not [b.text for b in body if not any(c.isalpha() for c in b.text)]  # no axis numbers
    assert not any(b.kind == "table" for b in blocks)
    assert any(b.text.startswith("Figure 21:") and b.kind == "paragraph" for b in blocks)


def test_bars_below_zero_stand_on_the_same_baseline(tmp_path):
    values = [5, -4, 30, 25, -2, 34, 3, -20, 2, 3, 1, -15]
    doc = _page_with(lambda page: bar_chart(page, 200, 280, values))
    _, blocks = load(doc, tmp_path)
    assert not [b.text for b in blocks if b.kind != "figure" and not any(c.isalpha() for c in b.text)]


def test_a_table_with_spacer_cells_stays_a_table(tmp_path):
    # A 10-K table drawn as filled cells: each row a wide label cell, narrow spacer cells and the
    # figures' cells, rows shaded in turn. Every cell of a row shares its top and bottom.
    def draw(page: pymupdf.Page) -> None:
        rows = [("Net sales", "1,234", "1,100"), ("Cost of sales", "700", "650"), ("Gross margin", "534", "450")]
        rows += [("Operating expenses", "300", "280"), ("Operating income", "234", "170")]
        top = 280.0
        for k, (label, a, b) in enumerate(rows):
            height = 14.0 if k % 2 else 22.0
            fill = (0.85, 0.9, 0.95) if k % 2 == 0 else (1, 1, 1)
            x = 72.0
            for w, text in ((200, label), (6, ""), (60, a), (6, ""), (60, b)):
                page.draw_rect(pymupdf.Rect(x, top, x + w, top + height), color=None, fill=fill, width=0)
                if text:
                    page.insert_text((x + 3, top + height - 4), text, fontsize=9)
                x += w
            top += height
        page.draw_line((72, 280), (404, 280), width=0.5)
        page.draw_line((72, top), (404, top), width=0.5)

    _, blocks = load(_page_with(draw), tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1 and any("Net sales" in row for row in tables[0].rows)


def test_white_fills_under_a_tables_head_are_no_bars(tmp_path):
    # An exhibit index: its head row framed by rules, with white fills of different heights at
    # its end (a producer's padding). White on the white page is no bar: the rows stay text.
    def draw(page: pymupdf.Page) -> None:
        page.draw_line((72, 280), (540, 280), width=0.6)
        page.draw_line((72, 306), (540, 306), width=0.6)
        page.draw_line((72, 293), (540, 293), width=0.6)  # a head of two rows
        for x in (72, 200, 300, 400, 540):
            page.draw_line((x, 280), (x, 306), width=0.6)
        for k, h in enumerate((9.6, 9.0, 17.4, 16.8, 12.0)):
            page.draw_rect(pymupdf.Rect(500 + 6 * k, 306 - h, 505 + 6 * k, 306), color=None, fill=(1, 1, 1), width=0)
        for x, head in ((76, "Exhibit Number"), (204, "Description"), (304, "Form"), (404, "Filing Date")):
            page.insert_text((x, 290), "Incorporated", fontsize=8)
            page.insert_text((x, 303), head, fontsize=8)
        for k in range(6):
            page.insert_text((76, 320 + 12 * k), f"4.{k + 1}", fontsize=8)
            page.insert_text((204, 320 + 12 * k), f"Indenture number {k + 1}", fontsize=8)

    _, blocks = load(_page_with(draw), tmp_path)
    kept = " ".join(b.text for b in blocks if b.kind != "figure")
    assert "Exhibit Number" in kept and "Indenture number 1" in kept, [(b.kind, b.text[:40]) for b in blocks]
