"""A heading the unit before it swallowed: a numbered subsection set right under its section's
title in the same type, a filing's item over its one-line answer, a heading beside the other
column's table row (found on papers' appendices and 10-Qs, where each was lost)."""

from __future__ import annotations

import pymupdf

from tests.pdf.pages import Page, load, prose


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
