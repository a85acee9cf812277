"""A ruled statement whose currency signs and closing parentheses sit in cells of their own (as
10-K tables are set): the block keeps every cell as read, the chunk shows each figure whole."""

from __future__ import annotations

import pymupdf

from tests.pdf.pages import Page, chunks_of, load, prose

# label, then per year: sign cell, figure cell, closing cell
ROWS = [
    ("", "", "2023", "", "", "2022", ""),
    ("Net sales", "$", "46,298", "", "$", "51,761", ""),
    ("Cost of sales", "", "36,386", "", "", "40,577", ""),
    ("Purchases of property", "", "(1,577", ")", "", "(1,373", ")"),
    ("Net income", "$", "5,363", "", "$", "4,869", ""),
]
WIDTHS = (150, 14, 60, 10, 14, 60, 10)


def _ruled_table(page: Page, rows, widths) -> None:
    x0, top, height = 60.0, page.y + 10, 16.0
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    for r, row in enumerate(rows):
        y = top + r * height
        for c, cell in enumerate(row):
            if cell:
                width = pymupdf.get_text_length(cell, fontname="helv", fontsize=9)
                x = xs[c] + 2 if c == 0 else xs[c + 1] - 2 - width  # figures set flush right
                page.text(x, y + 12, cell, size=9)
    bottom = top + len(rows) * height
    for r in range(len(rows) + 1):
        page.page.draw_line((xs[0], top + r * height), (xs[-1], top + r * height), width=0.5)
    for x in xs:
        page.page.draw_line((x, top), (x, bottom), width=0.5)
    page.y = bottom + 10


def _statement(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Consolidated Statements of Operations", size=14)
    page.para(prose(40))
    _ruled_table(page, ROWS, WIDTHS)
    page.para(prose(30, seed=3))
    return load(doc, tmp_path)


def test_the_block_keeps_the_cells_as_read(tmp_path):
    _, blocks = _statement(tmp_path)
    (table,) = [b for b in blocks if b.kind == "table"]
    assert table.rows == tuple(ROWS)
    assert table.header_rows == 1


def test_the_chunk_shows_each_figure_with_its_signs(tmp_path):
    loaded, blocks = _statement(tmp_path)
    text = "\n".join(c.text for c in chunks_of(loaded, blocks))
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert table == [
        "||2023|2022|",
        "|---|---|---|",
        "|Net sales|$46,298|$51,761|",
        "|Cost of sales|36,386|40,577|",
        "|Purchases of property|(1,577)|(1,373)|",
        "|Net income|$5,363|$4,869|",
    ]
