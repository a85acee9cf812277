"""A ruled grid whose cells hold paragraphs (text boxes, columns drawn with rules) is prose, read
cell by cell; a ruled table with one long description stays a table; a table's frame that takes
in a paragraph above its rows gives the paragraph back to the text."""

from __future__ import annotations

import textwrap

import pymupdf

from ingest.loaders.pdf.framed_prose import framed_prose
from tests.pdf.pages import load, prose, ruled_statement


def _boxed(page, x0: float, x1: float, top: float, texts: list[str]) -> float:
    """Texts set one a cell down a ruled column from x0 to x1; returns the bottom."""
    y = top
    for text in texts:
        page.draw_line((x0, y), (x1, y), width=0.5)
        lines = textwrap.wrap(text, int((x1 - x0) / 5))
        for k, line in enumerate(lines):
            page.insert_text((x0 + 4, y + 12 + k * 12), line, fontsize=9)
        y += 12 * len(lines) + 10
    page.draw_line((x0, y), (x1, y), width=0.5)
    return y


def _sentences(seed: int) -> str:
    return " ".join(prose(14, seed + k) for k in range(5))


def test_a_ruled_two_column_layout_of_prose_reads_as_paragraphs(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    left = [_sentences(0), _sentences(7)]
    right = [_sentences(3), _sentences(11)]
    bottom = max(_boxed(page, 60, 290, 100, left), _boxed(page, 290, 540, 100, right))
    for x in (60, 290, 540):
        page.draw_line((x, 100), (x, bottom), width=0.5)
    loaded, blocks = load(doc, tmp_path)
    assert not [b for b in blocks if b.kind == "table"]
    paragraphs = [b.text for b in blocks if b.kind == "paragraph"]
    for cell in left + right:  # each cell's sentences one paragraph, their words in order
        assert any(" ".join(cell.split()) == " ".join(p.split()) for p in paragraphs), cell[:40]


def test_a_ruled_risk_table_with_one_long_description_stays_a_table(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    rows = [("Risk", "Likelihood", "Impact"), ("Flooding of the pump house", "Low", "High")]
    rows.append(("Contamination of the northern wells. " + _sentences(2), "Medium", "High"))
    y = 100.0
    tops = []
    for label, likely, impact in rows:
        tops.append(y)
        page.draw_line((60, y), (540, y), width=0.5)
        lines = textwrap.wrap(label, 60)
        for k, line in enumerate(lines):
            page.insert_text((64, y + 12 + k * 12), line, fontsize=9)
        page.insert_text((384, y + 12), likely, fontsize=9)
        page.insert_text((464, y + 12), impact, fontsize=9)
        y += 12 * len(lines) + 10
    page.draw_line((60, y), (540, y), width=0.5)
    for x in (60, 380, 460, 540):
        page.draw_line((x, 100), (x, y), width=0.5)
    loaded, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert tuple(tables[0].rows[2][1:]) == ("Medium", "High")


def test_a_glossary_of_terms_and_long_definitions_is_a_table():
    rows = [(f"Term {k}", _sentences(k)) for k in range(3)]
    assert not framed_prose(rows)
    assert framed_prose([(_sentences(0), _sentences(4)), (_sentences(1), "")])


def test_paragraphs_a_tables_frame_takes_in_above_its_rows_stay_text(tmp_path):
    # The ruling starts above the paragraph: the first "row" is the paragraph, spanning the grid.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    text = _sentences(5)
    page.draw_line((55, 100), (545, 100), width=0.5)
    lines = textwrap.wrap(text, 95)
    for k, line in enumerate(lines):
        page.insert_text((64, 114 + k * 12), line, fontsize=9)
    top = 114 + len(lines) * 12
    ruled_statement(page, top, ("Water sales", "Repairs", "Net income"), 9, seed=1)
    for x in (55, 545):
        page.draw_line((x, 100), (x, top), width=0.5)
    loaded, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert [r[0] for r in tables[0].rows] == ["Water sales", "Repairs", "Net income"]
    assert " ".join(text.split()) in [" ".join(b.text.split()) for b in blocks if b.kind == "paragraph"]
