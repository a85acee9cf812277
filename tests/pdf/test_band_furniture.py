"""Page furniture that appears once or changes from page to page (issue #8): copyright lines with a
long owner's name, exhibit stamps atop a filing's pages, page numbers run into a running header."""

from __future__ import annotations

import pymupdf

from tests.pdf.pages import Page, all_text, load, prose
from tests.pdf.test_bar_charts import bar_chart


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


def test_a_header_with_the_page_number_goes_on_every_page_it_is_on(tmp_path):
    # A report whose chapter dividers carry no header and no number of their own: the printed
    # number's step from the page index changes at each divider, and a page between two dividers
    # shows its step once. The header is the same line there, but for its number.
    doc = pymupdf.open()
    printed = 10
    for n in range(10):
        page = Page(doc)
        if n in (2, 4):
            page.heading(f"Part {n // 2}", size=24)
            page.para(prose(30, n))
            continue
        page.text(60, 40, f"{printed} | Korea Health Panel Annual Report", size=9)
        printed += 1
        for seed in range(3):
            page.para(prose(80, seed + 3 * n))
    _, blocks = load(doc, tmp_path)
    text = all_text(blocks)
    assert "Korea Health Panel" not in text, [b.text for b in blocks if "Korea" in b.text]
    assert all(prose(80, seed + 3 * n)[:60] in text for n in (0, 3, 5) for seed in range(3))


def test_exhibit_stamps_atop_a_filings_pages_are_furniture(tmp_path):
    doc = pymupdf.open()
    stamps = {1: "Exhibit 10.1(13)", 3: "EXHIBIT A", 4: "Annex II to the Credit Agreement"}
    for n in range(6):
        page = Page(doc)
        if n in stamps:  # once each, in the corner over the exhibit's title
            page.text(440, 40, stamps[n], size=10)
        page.heading(f"Amended Credit Agreement Part {n + 1}", size=14)
        for seed in range(3):
            page.para(prose(80, seed + 3 * n))
    _, blocks = load(doc, tmp_path)
    text = all_text(blocks)
    assert not [s for s in stamps.values() if s in text], text[:300]
    assert all(prose(80, seed + 3 * n)[:60] in text for n in range(6) for seed in range(3))


def test_an_exhibits_label_over_its_chart_stays(tmp_path):
    doc = pymupdf.open()
    for n in range(3):
        page = Page(doc)
        if n == 1:  # a consultant's report labels its figures "Exhibit 2"
            page.text(200, 60, "Exhibit 2", size=10)
            bar_chart(page.page, 200, 70, [68, 90, 95, 94, 25, 27, 36, 43])
            page.y = 220
        for seed in range(3):
            page.para(prose(80, seed + 3 * n))
    _, blocks = load(doc, tmp_path)
    assert "Exhibit 2" in all_text(blocks)


def test_a_chapters_number_in_the_header_is_no_page_number_on_its_other_pages(tmp_path):
    # A manual's header names its section at its right end, "1 Getting Started" over the
    # chapter's pages; on the chapter's first page the PDF's page label is "1" too. The header stays one running header
    # with the contents pages' "Contents" version, which recurs on too few pages alone.
    doc = pymupdf.open()
    for n in range(8):
        page = Page(doc)
        page.text(60, 40, "Smart Watch GS Pro Online Help (01,en)", size=9)
        page.text(440, 40, "Contents" if n < 2 else "1 Getting Started", size=9)
        for seed in range(3):
            page.para(prose(80, seed + 3 * n))
    doc.set_page_labels(
        [
            {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
            {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1},
        ]
    )
    _, blocks = load(doc, tmp_path)
    assert "Online Help" not in all_text(blocks)


def test_a_header_set_in_pieces_that_name_its_sections_is_furniture(tmp_path):
    # A manual's header: the book's title at the left, the chapter's at the right. The second
    # chapter is two pages long, too few for its header to recur page after page.
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Product Guide", size=24)
    page.para(prose(40))
    chapters = {"1 Overview": 4, "2 Advantages": 2, "3 Functions": 4}
    for c, (chapter, pages) in enumerate(chapters.items()):
        for k in range(pages):
            page = Page(doc)
            if k == 0:
                page.heading(chapter, size=18)
            else:
                page.text(60, 40, "Product Guide", size=9)
                page.text(440, 40, chapter, size=9)
            for seed in range(3):
                page.para(prose(80, seed + 3 * k + 20 * c))
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Product Guide", *chapters]
    assert not [b.text for b in blocks if b.kind != "heading" and "Product Guide" in b.text]
