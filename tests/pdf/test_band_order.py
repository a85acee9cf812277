"""Text of a page's top band is read where it sits: a band line under the heading that opens the
page belongs to that heading's section, not to the section before it."""

from __future__ import annotations

import textwrap

import pymupdf

from tests.pdf.pages import load, prose


def test_a_top_band_line_below_the_pages_first_heading_is_read_under_it(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((16, 64), "Item 2.02 Results of Operations", fontsize=9, fontname="hebo")
    note = "The company completed the exchange offer that separates its consumer business."
    page.insert_text((16, 90), note, fontsize=7, fontname="helv")  # in the top band, apart from the body
    page.insert_text((16, 131), "Item 9.01 Financial Statements and Exhibits", fontsize=9, fontname="hebo")
    y = 150.0
    for k in range(6):
        for line in textwrap.wrap(prose(60, k), 110):
            page.insert_text((16, y), line, fontsize=9, fontname="helv")
            y += 11
        y += 8
    loaded, _ = load(doc, tmp_path)
    texts = [b.text for b in loaded.blocks]
    [band] = [b for b in loaded.blocks if b.text == note]
    assert band.meta["band"] == "top"  # still a band block, for the cleaners to judge
    first, second = texts.index("Item 2.02 Results of Operations"), texts.index(band.text)
    assert first < second < texts.index("Item 9.01 Financial Statements and Exhibits")
    assert band.path[-1] == "Item 2.02 Results of Operations"
