"""Ruled tables: the loader finds, from the rules it collects while reading the text, the tables
pymupdf's own table finder (`page.find_tables()`, default "lines" strategy) finds over whole pages,
with the same rows and cells, on every PDF of the corpus, and no others; but where the finder
cuts cells at the edges of fills laid inside a fill of their colour, which show no edge (the
Persian prospectus shades each label cell and, again, each of its lines), and the order of a
right-to-left table's cells, which the loader reads from the right."""

from __future__ import annotations

import re

import pymupdf
import pytest

from ingest.loaders import load_file
from ingest.loaders.pdf.framed_prose import framed_prose
from ingest.loaders.pdf.lines import raw_text, restore_glyph_order, span_text
from ingest.loaders.pdf.tables import header_rows, right_to_left_rows

RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
WITH_TABLES = {  # found by the finder on these pages; the test fails if it finds none there
    "docling/pdf/sources/2305.03393v1-pg9.pdf": {1},
    "docling/pdf/sources/right_to_left_03.pdf": {1},
}
FRAMED = "unstructured/example-docs/pdf/list-item-example.pdf"  # two columns of prose drawn with rules
SHADED_TWICE = {"docling/pdf/sources/right_to_left_03.pdf"}  # checked in test_right_to_left.py


def corpus_pdfs(corpus) -> list[str]:
    return sorted(str(p.relative_to(corpus)) for p in corpus.rglob("*.pdf"))


def finder_tables(path) -> list[tuple[int, tuple[float, ...], list[tuple[str, ...]]]]:
    """(page, bbox, rows) per table the finder sees, kept by the loader's rule: two or more rows
    with text and two or more columns, and not prose in frames (`framed_prose`, tested on its own). Right-to-left cells, which the finder returns reversed,
    are read from MuPDF's words (logical order) inside the finder's own cell boxes."""
    if hasattr(pymupdf, "no_recommend_layout"):
        pymupdf.no_recommend_layout()
    out = []
    with pymupdf.open(path) as doc:
        if doc.needs_pass:
            return []
        for page in doc:
            textpage = page.get_textpage(flags=pymupdf.TEXT_MEDIABOX_CLIP)
            words = page.get_text("words", textpage=textpage)
            # Ligature glyphs in right-to-left words are put in reading order as the loader does
            # (tested on its own in test_pdf_groundtruth), so only the table structure is compared.
            text = [b for b in page.get_text("dict", textpage=textpage)["blocks"] if b["type"] == 0]
            glyphs = restore_glyph_order(raw_text(textpage), text, span_text(text))
            if glyphs is not None:
                words = glyphs.words(words)
            for table in page.find_tables().tables:
                rows = []
                for row, texts in zip(table.rows, table.extract()):
                    cells = []
                    for box, text in zip(row.cells, texts):
                        if box is not None and RTL.search(text or ""):
                            text = " ".join(
                                w[4]
                                for w in sorted(words, key=lambda w: w[5:8])
                                if box[0] <= (w[0] + w[2]) / 2 < box[2] and box[1] <= (w[1] + w[3]) / 2 < box[3]
                            )
                        cells.append(" ".join((text or "").split()))
                    rows.append(tuple(cells))
                rows = [r for r in rows if any(r)]
                if len(rows) >= 2 and max(len(r) for r in rows) >= 2 and not framed_prose(rows):
                    out.append((page.number + 1, table.bbox, rows))
    return out


@pytest.mark.parametrize("name", sorted(WITH_TABLES))
def test_corpus_tables_are_where_the_finder_sees_them(corpus, name):
    assert {page for page, _, _ in finder_tables(corpus / name)} == WITH_TABLES[name]


def test_every_corpus_pdf_gets_the_finders_tables(corpus):
    names = corpus_pdfs(corpus)
    assert len(names) >= 20 and set(WITH_TABLES) <= set(names)
    for name in names:
        if name in SHADED_TWICE:
            continue
        try:
            loaded = load_file(corpus / name)
        except Exception:
            assert not finder_tables(corpus / name), name  # scans and broken files have no tables
            continue
        got = [b for b in loaded.blocks if b.kind == "table"]
        expected = finder_tables(corpus / name)
        assert len(got) == len(expected), name
        for block, (page, bbox, rows) in zip(got, expected):
            assert block.page == page, name
            assert all(abs(a - b) <= 1.0 for a, b in zip(block.bbox, bbox)), (name, block.bbox, bbox)
            assert [len(r) for r in block.rows] == [len(r) for r in rows], name
            if right_to_left_rows(rows):
                rows = [r[::-1] for r in rows]
            for got_row, row in zip(block.rows, rows):
                for mine, theirs in zip(got_row, row):
                    if RTL.search(theirs):
                        assert mine == theirs, name
                    else:  # MuPDF's words may keep a space the finder's characters close up
                        assert mine.replace(" ", "") == theirs.replace(" ", ""), name


def test_a_ruled_layout_of_prose_is_read_as_text(corpus):
    # The finder sees a table of two columns, each a module's paragraph and bulleted list.
    assert pymupdf.open(corpus / FRAMED)[0].find_tables().tables
    assert not finder_tables(corpus / FRAMED)
    blocks = [b for b in load_file(corpus / FRAMED).blocks if b.page == 1]
    assert not [b for b in blocks if b.kind == "table"]
    heads = [b.text for b in blocks if b.kind == "heading"]
    assert [h.split()[:2] for h in heads] == [["Module", "One"], ["Module", "Two:"], ["Module", "Three:"]]
    items = [b.text for b in blocks if b.kind == "list_item"]
    assert "What are product types?" in items and "Design thinking and innovation" in items


def test_table_words_stay_out_of_the_text(corpus):
    loaded = load_file(corpus / "docling/pdf/sources/right_to_left_03.pdf")
    tables = [b for b in loaded.blocks if b.kind == "table"]
    assert len(tables) == 2  # the letterhead's two framed cells on one row are no table
    for block in loaded.blocks:
        if block.kind != "table" and block.bbox is not None:
            cx, cy = (block.bbox[0] + block.bbox[2]) / 2, (block.bbox[1] + block.bbox[3]) / 2
            assert not any(t.bbox[0] <= cx <= t.bbox[2] and t.bbox[1] <= cy <= t.bbox[3] for t in tables)


@pytest.mark.parametrize(
    "first, header",
    [
        (("", "2023", "2022"), 1),
        (("(Millions)", "2018", "2017", "2016"), 1),
        (("", "December 31, 2022", ""), 1),
        (("Segment", "Three months ended June 30, 2023", ""), 1),
        (("", "\u2014", ""), 1),
        (("Net sales", "1,234", "5,678"), 0),
        (("Net income", "$ 5,363 $", "4,869"), 0),
        (("Margin", "10.2%", ""), 0),
        (("Loss", "(1,577)", ""), 0),
        (("", "Weighted-average remaining contractual term in years", "Aggregate intrinsic value"), 1),
        # A paragraph the grid caught above its rows: repeated as a header, it filled every piece.
        (
            (
                "",
                "In March 2022, June 2022, September 2022, and December 2022, we paid dividends of $0.0025 per share, totaling $4 million for 2022.",
                "",
            ),
            0,
        ),
    ],
)
def test_first_row_is_the_header_unless_it_holds_an_amount_or_prose(first, header):
    assert header_rows([first, ("Other", "1", "2")]) == header
    assert header_rows([first]) == 0  # one row heads nothing


def test_rows_of_years_under_the_first_head_row_are_heads_too():
    title = ("", "Year ended December 31,", "", "% change")
    years = ("", "2023", "2022", "23 vs. 22")
    data = ("Net sales", "$ 14,189", "$ 14,082", "1%")
    assert header_rows([title, years, data, data]) == 2
    assert header_rows([title, years]) == 1  # a data row stays
    assert header_rows([title, ("", "2023", "", ""), data]) == 1  # one year: no comparative columns
    assert header_rows([title, ("", "2023", "2022", "1,234"), data]) == 1  # an amount: a data row
