"""A title set larger than every outline entry, before them (a press release's headline over an
outline of its sections; found on FinanceBench earnings releases): it heads the document, and is
no empty chapter beside the outline's first one."""

from __future__ import annotations

import pymupdf

from tests.pdf.pages import Page, chunks_of, load, prose

TITLE = "Northwind Reports Third-Quarter Results; Raises Full-Year Guidance"


def test_a_headline_over_the_outline_heads_its_chapters(tmp_path):
    doc = pymupdf.open()
    chapters = ["Quarterly Results", "Guidance and Outlook", "Cautionary Statement"]
    for n, chapter in enumerate(chapters):
        page = Page(doc)
        if n == 0:
            page.heading(TITLE, size=15)
        page.heading(chapter, size=12)
        for k in range(3):
            page.para(prose(70, n + k))
    doc.set_toc([[1, chapter, n + 1] for n, chapter in enumerate(chapters)])
    loaded, blocks = load(doc, tmp_path)
    headings = [b for b in blocks if b.kind == "heading"]
    assert headings[0].text == TITLE and headings[0].level == 1
    assert [(b.text, b.level, b.path) for b in headings[1:]] == [(c, 2, (TITLE, c)) for c in chapters]
    chunks = chunks_of(loaded, blocks)
    assert all(c.heading_path[0] == TITLE for c in chunks)
    assert not [c for c in chunks if c.text.strip() == TITLE]  # no chunk of the headline alone


def test_a_cover_of_several_large_lines_heads_no_chapter(tmp_path):
    # A cover page's lines ("USER GUIDE", the product's name) are all set larger than the entries:
    # none of them is the one title, and the last would otherwise hold the whole guide.
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("USER GUIDE", size=18)
    page.heading("Northwind Model D", size=15)
    chapters = ["Getting Started", "Care and Cleaning"]
    for n, chapter in enumerate(chapters):
        page = Page(doc)
        page.heading(chapter, size=12)
        page.para(prose(70, n))
    doc.set_toc([[1, chapter, n + 2] for n, chapter in enumerate(chapters)])
    _, blocks = load(doc, tmp_path)
    levels = {b.text: (b.level, b.path[-2:]) for b in blocks if b.kind == "heading"}
    assert levels["Getting Started"][0] == 1 and "Northwind Model D" not in levels["Getting Started"][1]
