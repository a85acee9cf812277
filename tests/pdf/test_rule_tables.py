"""Tables ruled across only (booktabs: a rule over the table, one under its heads, one under it;
columns by alignment alone), as papers set most of theirs. Read as rows of the whole page, the
other column's prose shared every row and the table was paragraphs of numbers. The rules give
the table its box and the words between them its cells; prose between rules of one span, a
statement's rules under each column apart, and a ruled box of code stay what they were."""

from __future__ import annotations

import textwrap

import pymupdf

from ingest.loaders.pdf.rule_tables import rule_tables
from tests.pdf.pages import load, prose

_COLUMNS = (380.0, 430.0, 480.0)


def two_columns(page: pymupdf.Page, top: float = 72, bottom: float = 720) -> None:
    """A paper's two columns of prose, 9.5 pt on 12 pt, the right one from `top` to `bottom`
    only (the table stands below it)."""
    left = textwrap.wrap(prose(600, 1), 50)
    y = 72.0
    for line in left[:54]:
        page.insert_text((60, y), line, fontsize=9.5)
        y += 12
    y = top
    for line in textwrap.wrap(prose(120, 5), 50):
        if y > bottom:
            break
        page.insert_text((310, y), line, fontsize=9.5)
        y += 12


def booktabs(page: pymupdf.Page, top: float, rows: list[tuple[str, ...]], heads: tuple[str, ...]) -> float:
    """A table in the right column from `top`: a top rule, the heads, a rule, the rows (8 pt on
    10 pt), a bottom rule; returns its bottom."""
    page.draw_line((310, top), (540, top), width=0.6)
    y = top + 10
    for x, head in zip((312.0, *_COLUMNS), heads):
        page.insert_text((x, y), head, fontsize=8)
    y += 4
    page.draw_line((310, y), (540, y), width=0.4)
    for row in rows:
        y += 10
        for x, cell in zip((312.0, *_COLUMNS), row):
            page.insert_text((x, y), cell, fontsize=8)
    y += 4
    page.draw_line((310, y), (540, y), width=0.6)
    return y


_ROWS = [
    ("ProntoQA", "99.4", "84.9", "83.2"),
    ("ProofWriter", "87.3", "73.6", "79.6"),
    ("FOLIO", "66.7", "61.8", "80.4"),
    ("AR-LSAT", "11.3", "57.7", "60.0"),
]


def test_a_booktabs_table_beside_prose_is_a_table(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    two_columns(page, top=72, bottom=300)
    bottom = booktabs(page, 320, _ROWS, ("Dataset", "Rate", "Acc", "Exe"))
    page.insert_text((310, bottom + 14), "Table 3: Accuracy of the solver on four datasets.", fontsize=9.5)
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert "|ProofWriter|87.3|73.6|79.6|" in tables[0].text
    assert "|Dataset|Rate|Acc|Exe|" in tables[0].text
    bare = [b.text for b in blocks if b.kind != "table" and not any(c.isalpha() for c in b.text)]
    assert not bare  # no paragraph of the table's numbers
    # the prose beside it stays prose, none of it in the table
    assert "survey" not in tables[0].text and "wells" not in tables[0].text
    assert any(b.text.startswith("Table 3:") for b in blocks if b.kind == "paragraph")


def test_heads_set_close_go_one_word_to_a_column(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    two_columns(page, top=72, bottom=300)
    top = 320.0
    page.draw_line((310, top), (540, top), width=0.6)
    # Three heads a word space apart, each over its column of figures (centred).
    page.insert_text((372, top + 10), "CoNLL OntoNotes FewNERD", fontsize=8)
    page.draw_line((310, top + 14), (540, top + 14), width=0.4)
    words = page.get_text("words")
    centres = [(w[0] + w[2]) / 2 for w in words if w[4] in ("CoNLL", "OntoNotes", "FewNERD")]
    y = top + 14
    for label, *cells in _ROWS:
        y += 10
        page.insert_text((312, y), label, fontsize=8)
        for x, cell in zip(centres, cells):
            page.insert_text((x - 7, y), cell, fontsize=8)
    page.draw_line((310, y + 4), (540, y + 4), width=0.6)
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert "|CoNLL|OntoNotes|FewNERD|" in tables[0].text


def test_prose_between_rules_of_one_span_stays_prose(tmp_path):
    """A header rule and a footer rule of the column's width, prose with figures between."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_line((60, 60), (552, 60), width=0.5)
    y = 80.0
    for k in range(12):
        page.insert_text(
            (60, y), f"In {2010 + k} the district tested {40 + k} wells and closed {k + 2} of them", fontsize=10
        )
        y += 13
    page.draw_line((60, 740), (552, 740), width=0.5)
    _, blocks = load(doc, tmp_path)
    assert not any(b.kind == "table" for b in blocks)
    assert "tested 45 wells" in " ".join(b.text for b in blocks)


def test_a_statement_ruled_under_each_column_is_read_as_before(tmp_path):
    """A 10-K's rules under each column's totals, side by side on one line: no table's rules."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 100.0
    labels = ("Net sales", "Cost of sales", "Gross margin", "Operating expenses", "Operating income")
    for r, label in enumerate(labels):
        page.insert_text((60, y), label, fontsize=9)
        for c, x in enumerate((380.0, 450.0, 520.0)):
            page.insert_text((x, y), f"{(r + 3) * (c + 7) * 131:,}", fontsize=9)
        if r in (1, 3):
            for x in (375.0, 445.0, 515.0):
                page.draw_line((x, y + 3), (x + 62, y + 3), width=0.5)
        y += 13
    for x in (375.0, 445.0, 515.0):
        page.draw_line((x, 84), (x + 62, 84), width=0.5)
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    # no per-column tables of the rules' own: one statement table with its labels, or none
    assert all("Net sales" in t.text or "Gross margin" in t.text for t in tables)


def test_a_ruled_box_of_code_is_no_table(tmp_path):
    """An algorithm set between a top rule, a rule under its title and a bottom rule."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_line((60, 80), (300, 80), width=0.8)
    page.insert_text((62, 92), "Algorithm 1 Refine the formulation", fontsize=9)
    page.draw_line((60, 96), (300, 96), width=0.4)
    steps = (
        "for each problem p do",
        "  f = translate(p)",
        "  while error(f) and k < 3 do",
        "    f = refine(f)",
        "  end while",
        "end for",
    )
    y = 96.0
    for k, step in enumerate(steps, 1):
        y += 11
        page.insert_text((62, y), f"{k}:", fontsize=8)
        page.insert_text((80, y), step, fontsize=8)
    page.draw_line((60, y + 4), (300, y + 4), width=0.8)
    _, blocks = load(doc, tmp_path)
    assert not any(b.kind == "table" for b in blocks)


def test_one_row_of_figures_under_two_rows_of_heads_is_a_table(tmp_path):
    """A paper's results in one row across the page, two figures a word space apart."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    top = _paragraph(page, 90, 2, 72) + 6
    page.draw_line((120, top), (490, top), width=0.8)
    for x, head in ((150, "Step 1"), (270, "Step 2"), (410, "Step 3")):
        page.insert_text((x, top + 9), head, fontsize=9)
    page.draw_line((120, top + 12), (490, top + 12), width=0.4)
    for x, head in ((125, "Node"), (150, "Edge"), (182, "Dist."), (230, "Rung 1"), (280, "Rung 2"), (400, "F1")):
        page.insert_text((x, top + 21), head, fontsize=9)
    page.draw_line((120, top + 24), (490, top + 24), width=0.5)
    for x, cell in ((125, "99.34"), (150, "97.01"), (182, "1.69"), (230, "69.99"), (280, "59.14"), (400, "47.53")):
        page.insert_text((x, top + 33), cell, fontsize=9)
    page.draw_line((120, top + 36), (490, top + 36), width=0.8)
    page.insert_text((108, top + 48), "Table 3: Performance for each step of the method.", fontsize=9)
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert "|99.34|97.01|1.69|69.99|59.14|47.53|" in tables[0].text
    assert not [b.text for b in blocks if b.kind != "table" and not any(c.isalpha() for c in b.text)]


def test_a_statement_whose_rules_span_its_figures_keeps_its_labels(tmp_path):
    """Rules over and under the figures' columns only, each row's label left of them on its
    line: the rules frame part of a wider table, which the alignment rule reads whole."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    top = _paragraph(page, 60, 3, 60) + 8
    page.draw_line((370, top), (580, top), width=0.5)
    for x, year in zip((390.0, 460.0, 530.0), ("2023", "2022", "2021")):
        page.insert_text((x, top + 10), year, fontsize=9)
    page.draw_line((370, top + 14), (580, top + 14), width=0.5)
    _statement_rows(
        page, ("Net sales", "Cost of sales", "Gross margin", "Operating expenses", "Operating income"), top + 14
    )
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert "|Gross margin|4,585|5,240|5,895|" in tables[0].text
    assert not any(b.kind == "heading" for b in blocks)


def _paragraph(page: pymupdf.Page, words: int, seed: int, x: float) -> float:
    """A paragraph of 10 pt prose atop the page; returns the baseline under its last line."""
    y = 80.0
    for line in textwrap.wrap(prose(words, seed), 95):
        page.insert_text((x, y), line, fontsize=10)
        y += 12.5
    return y


def _statement_rows(page: pymupdf.Page, labels: tuple[str, ...], y: float) -> None:
    """A statement's rows under `y`, each label at the left margin and three figures right, a
    rule under the figures only."""
    for r, label in enumerate(labels):
        y += 12
        page.insert_text((60, y), label, fontsize=9)
        for c, x in enumerate((380.0, 450.0, 520.0)):
            page.insert_text((x, y), f"{(r + 3) * (c + 7) * 131:,}", fontsize=9)
    page.draw_line((370, y + 4), (580, y + 4), width=0.5)


def _justified(page: pymupdf.Page, y: float, line: str, left: float = 60, right: float = 420) -> None:
    """One line of words spread from `left` to `right`, as a justified passage sets it."""
    words = line.split()
    widths = [pymupdf.get_text_length(w, fontsize=10) for w in words]
    gap = (right - left - sum(widths)) / (len(words) - 1)
    x = left
    for word, width in zip(words, widths):
        page.insert_text((x, y), word, fontsize=10)
        x += width + gap


def test_a_passage_of_underlined_links_is_no_table(tmp_path):
    """An exhibit index whose entries are links set justified, each full line underlined from
    margin to margin: rules of one span with years ending lines, but they underline words."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    entries = (
        ("Severance Plan for Executive Employees of the Company and Affiliates, as", "amended 2023.*"),
        ("The International Retirement Plan Defined Contribution Program, as", "restated 2022.*"),
        ("The Long-Term Incentive Plan for Directors and Officers, as amended and", "restated 2021.*"),
        ("The Deferral Program for Directors and Officers of the Company, as", "restated 2020.*"),
    )
    y = 100.0
    for full, last in entries:
        _justified(page, y, full)
        page.draw_rect(pymupdf.Rect(60, y + 1.5, 420, y + 2.1), color=None, fill=(0, 0, 1))
        y += 12
        _justified(page, y, last, right=140)
        y += 14
    _, blocks = load(doc, tmp_path)
    assert not any(b.kind == "table" for b in blocks)
    assert "restated 2022.*" in " ".join(b.text for b in blocks)


def _rules_and_words(page: pymupdf.Page) -> tuple[list[tuple[float, float, float, float]], list[tuple]]:
    rects = [(d["rect"].x0, d["rect"].y0 - 0.25, d["rect"].x1, d["rect"].y1 + 0.25) for d in page.get_drawings()]
    return rects, page.get_text("words")


def test_rules_over_a_statements_figures_frame_no_table_of_their_own():
    """Rules spanning a statement's figures only, each row's label left of them, ragged: the
    rules frame part of a wider table, not a table (the alignment rule reads it whole)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    labels = ("Net sales", "Cost of sales and services", "Gross margin", "Operating expenses", "Other income, net")
    page.draw_line((370, 100), (580, 100), width=0.5)
    _statement_rows(page, labels, 100.0)
    rects, words = _rules_and_words(page)
    assert rule_tables(rects, lambda: [w[:4] for w in words], lambda: words, [], 1) == []
    # the same rules and figures with a column of prose beside them, its lines justified
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_line((370, 100), (580, 100), width=0.5)
    y = 100.0
    for r, label in enumerate(labels):
        y += 12
        page.insert_text((372, y), label.split()[0], fontsize=9)
        for c, x in enumerate((430.0, 480.0, 530.0)):
            page.insert_text((x, y), f"{(r + 3) * (c + 7) * 13:,}", fontsize=9)
    page.draw_line((370, y + 4), (580, y + 4), width=0.5)
    for k in range(8):
        _justified(page, 106 + 11.5 * k, "the survey found that most wells met the standard of the district", 60, 350)
    rects, words = _rules_and_words(page)
    assert len(rule_tables(rects, lambda: [w[:4] for w in words], lambda: words, [], 1)) == 1
