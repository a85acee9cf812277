"""Page furniture that appears once or changes from page to page (issue #8): copyright lines with a
long owner's name, exhibit stamps atop a filing's pages, page numbers run into a running header."""

from __future__ import annotations

import pymupdf

from tests.pdf.pages import Page, all_text, load, prose


def test_copyright_line_with_a_long_owners_name_is_furniture(tmp_path):
    doc = pymupdf.open()
    notice = "\u00a9 2023 The International Bank for Reconstruction and Development / The World Bank"
    for n in range(3):
        page = Page(doc)
        for seed in range(3):
            page.para(prose(80, seed + 3 * n))
        if n == 1:  # on one page only: nothing recurs, the line says what it is
            page.text(60, 800, notice, size=8)
    _, blocks = load(doc, tmp_path)
    text = all_text(blocks)
    assert "Reconstruction and Development" not in text
    assert all(prose(80, seed)[:60] in text for seed in range(9))
