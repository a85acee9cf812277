"""benchmarks/pdf_unseen.py's proxies on a generated PDF whose furniture, outline and page numbers
are known: it finds what is there, and counts what ingest leaves and what a plain dump leaves."""

from __future__ import annotations

import textwrap

import pdf_unseen  # benchmarks/ is on the test path
import pymupdf

from tests.pdf.pages import Page, prose


def report(tmp_path):
    doc = pymupdf.open()
    for n in range(1, 9):
        page = Page(doc)
        page.text(60, 40, "Annual Water Report", size=8)
        if n in (1, 5):
            page.y = 60
            page.heading(f"Chapter {n // 4 + 1} Wells and pumps" if n == 1 else "Chapter 2 Filters", size=16)
        for seed in range(3):  # each paragraph one text object, as a word processor writes it
            lines = textwrap.wrap(prose(80, seed + n), 90)
            page.page.insert_text((60, page.y + 12.5), "\n".join(lines), fontsize=10, lineheight=1.25)
            page.y += 12.5 * len(lines) + 8
        page.text(290, 820, str(n + 2), size=9)  # printed numbers run two ahead of the index
    doc.set_toc([[1, "Wells and pumps", 1], [1, "Filters", 5]])
    path = tmp_path / "report.pdf"
    doc.save(path)
    return path


def test_ingest_leaves_no_furniture_and_finds_the_outlines_headings_without_it(tmp_path):
    path = report(tmp_path)
    _, row = pdf_unseen.measure_ingest(str(path))
    assert (row["furn_strs"], row["furn_lines"]) == (1, 8)  # the running title, on every page
    assert row["furn_leaked"] == 0 and row["pgnum"] == 0
    assert row["toc_off"] == (2, 2) and row["toc_on"] == (2, 2)
    assert row["order"][1] > 10 and row["order"][0] == row["order"][1]


def test_a_plain_text_dump_leaks_what_ingest_drops(tmp_path):
    path = report(tmp_path)
    with pymupdf.open(path) as doc:
        raw = pdf_unseen.read_raw(doc)
        pages = [page.get_text("text") for page in doc]
    row = pdf_unseen.figures(raw, pdf_unseen.markdown_output(pages), None, [])
    assert row["furn_leaked"] == 8 and row["furn_strs_leaked"] == 1
    assert row["pgnum"] == 8  # every printed number, found by its steady offset from the index
