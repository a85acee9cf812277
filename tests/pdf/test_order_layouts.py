"""Reading order and body text on layouts found failing on the pdfeval dev set, one generated PDF
per cause: each page holds only the evidence the rule reads (type, place, drawings), and each test
states what a reader of the page sees."""

from __future__ import annotations

import textwrap

import pymupdf
import pytest

from ingest.loaders.pdf.lines import TEXT_FLAGS
from ingest.loaders.pdf.shaded_lines import rejoin_shaded_lines
from tests.pdf.pages import load, prose


def bars(page: pymupdf.Page, x0: float, y0: float, x1: float, y1: float) -> None:
    """A bar chart with axes, ticks and tick labels in the box."""
    page.draw_line((x0, y1), (x1, y1))
    page.draw_line((x0, y0), (x0, y1))
    for k in range(5):
        y = y1 - k * (y1 - y0) / 5
        page.draw_line((x0 - 4, y), (x0, y))
        page.insert_text((x0 - 18, y + 3), str(k * 20), fontsize=7)
    step = (x1 - x0) / 5
    for k in range(5):
        x = x0 + 8 + k * step
        page.draw_rect(pymupdf.Rect(x, y1 - 20 - 12 * k, x + step / 2, y1), fill=(0.3, 0.4, 0.8))
        page.insert_text((x, y1 + 10), str(k + 1), fontsize=7)


def column(page: pymupdf.Page, x: float, y: float, text: str, size: float = 10, width: int = 44) -> float:
    for line in textwrap.wrap(text, width):
        page.insert_text((x, y), line, fontsize=size)
        y += size * 1.25
    return y


@pytest.mark.parametrize("top", [560, 500], ids=["caption-in-bottom-band", "caption-above-band"])
def test_caption_under_a_figure_low_in_a_column_reads_in_its_column(tmp_path, top):
    # Left column: text, a chart at the foot of the column, its caption in small type under it;
    # right column: text to the page's foot. The caption is neither a footer nor a footnote: a
    # figure, not the column's text, stands right above it, so it reads before the right column.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    column(page, 50, 90, prose(150, 0))
    bars(page, 80, top, 270, top + 160)
    page.insert_text((50, top + 200), "Fig. 9. Iron removed from the wells in five cycles.", fontsize=7.5)
    column(page, 310, 90, "Second column. " + prose(330, 3))
    _, blocks = load(doc, tmp_path)
    text = [b.text for b in blocks if b.kind != "figure"]
    caption = text.index("Fig. 9. Iron removed from the wells in five cycles.")
    second = next(i for i, t in enumerate(text) if t.startswith("Second column."))
    assert caption < second
    assert next(b.kind for b in blocks if b.text.startswith("Fig. 9.")) == "paragraph"


def test_footnote_under_its_column_text_still_reads_after_the_page(tmp_path):
    # The same page with the chart taken away: small type right under the column's text is a
    # footnote, read after the page's body as before.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = column(page, 50, 90, prose(300, 0))
    page.insert_text((50, y + 14), "* Corresponding author at the northern district office.", fontsize=7.5)
    column(page, 310, 90, "Second column. " + prose(330, 3))
    _, blocks = load(doc, tmp_path)
    note = next(b for b in blocks if b.text.startswith("* Corresponding author"))
    assert note.kind == "footnote"
    assert blocks.index(note) > next(i for i, b in enumerate(blocks) if b.text.startswith("Second column."))


def test_figure_callouts_side_by_side_read_each_with_its_label(tmp_path):
    # A designed report's callouts: two figures in large type on one row, each with a label of
    # one or two lines in small type right under it, beside a column of text. MuPDF reads the two
    # figures as one line; each figure goes with its own label.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    column(page, 53, 140, prose(160, 0), size=9.5)
    page.insert_text((354, 195), "72%*", fontsize=22)
    page.insert_text((451, 195), "81%**", fontsize=22)
    page.insert_text((339, 208), "of employees", fontsize=9.5)
    page.insert_text((445, 208), "of people", fontsize=9.5)
    page.insert_text((449, 221), "leaders", fontsize=9.5)
    column(page, 339, 250, "participated in our training programs, respectively. " + prose(30, 2), size=9.5, width=36)
    _, blocks = load(doc, tmp_path)
    text = [b.text for b in blocks]
    assert "72%* of employees" in text
    assert "81%** of people leaders" in text
    assert text.index("72%* of employees") < text.index("81%** of people leaders")


def test_figures_of_a_row_in_body_type_stay_one_row(tmp_path):
    # Figures in the page's usual type side by side, a gap apart, are one row (a table's), not
    # callouts: only figures set well above the page's type are split.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = column(page, 53, 100, prose(200, 0), size=9.5, width=100)
    page.insert_text((53, y + 20), "Revenue", fontsize=9.5)
    page.insert_text((300, y + 20), "1,200", fontsize=9.5)
    page.insert_text((340, y + 20), "1,150", fontsize=9.5)
    page.insert_text((300, y + 32), "of which", fontsize=9.5)
    _, blocks = load(doc, tmp_path)
    assert any("1,200 1,150" in b.text for b in blocks)


def test_a_large_figure_over_a_row_of_figures_is_no_callout(tmp_path):
    # A table's larger total over a row of smaller figures with note letters: no label in words,
    # so no callout; the total is not run into the row.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = column(page, 53, 100, prose(200, 0), size=9.5, width=100)
    page.insert_text((300, y + 40), "45", fontsize=20)
    page.insert_text((292, y + 54), "17 (b) 6 (c)", fontsize=8)
    _, blocks = load(doc, tmp_path)
    assert not any(b.text.startswith("45 17") for b in blocks)


def test_notes_under_a_table_low_on_the_page_stay_footnotes(tmp_path):
    # A ruled table at the foot of the text, its notes in small type under it: the table's own
    # notes, still footnotes (only a figure over small type makes that its caption).
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = column(page, 50, 90, prose(320, 0), width=90)
    top = y + 10
    for r in range(3):
        for c, x in enumerate((50, 250, 400)):
            page.draw_rect(pymupdf.Rect(x, top + 20 * r, x + (200 if c == 0 else 150), top + 20 * (r + 1)))
            page.insert_text(
                (x + 4, top + 20 * r + 14), ("Wells", "2023", "2024")[c] if r == 0 else f"{r}{c}0", fontsize=10
            )
    page.insert_text((50, top + 80), "(a) Wells closed for repair are counted in the year they reopened.", fontsize=7.5)
    _, blocks = load(doc, tmp_path)
    assert any(b.kind == "table" for b in blocks)
    assert next(b.kind for b in blocks if b.text.startswith("(a) Wells closed")) == "footnote"


def test_a_sidebar_shading_each_of_its_lines_reads_as_one_column_beside_a_charts_notes(tmp_path):
    # A shaded sidebar (Pew's "Understanding the over-time change in views of China") paints each
    # line of its narrow column over a fill of its own, in the box's colour; beside it, a chart's
    # title, bars and notes. MuPDF ends a block at each fill: the column came out a block a line,
    # and its lines were read among the notes'.
    beige = (0.93, 0.92, 0.89)
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect((60, 100, 540, 500), color=None, fill=beige)
    page.insert_text((75, 120), "Understanding the change in views", fontsize=12, fontname="hebo")
    side = textwrap.wrap(prose(90, 1), 28)
    y = 140.0
    for k, line in enumerate(side):
        # The fills end at the column's edge; one line runs 2 pt past its fill, as Pew's do.
        end = 75 + pymupdf.get_text_length(line, fontsize=10) - 2 if k == 3 else 214
        page.draw_rect((66, y - 11, end, y + 4), color=None, fill=beige)
        page.insert_text((75, y), line, fontsize=10)
        y += 15
    page.insert_text((228, 140), "Views have grown more negative", fontsize=12, fontname="hebo")
    for k, h in enumerate((60, 90, 120, 150)):
        page.draw_rect((240 + 50 * k, 330 - h, 270 + 50 * k, 330), color=None, fill=(0.2, 0.4, 0.6))
    notes = textwrap.wrap("Note: " + prose(70, 4), 55)
    page.insert_text((228, 345), "\n".join(notes), fontsize=8)
    _, blocks = load(doc, tmp_path)
    texts = [b.text for b in blocks if b.kind == "paragraph"]
    assert texts == [" ".join(side), " ".join(notes)], texts


def test_a_title_over_two_columns_first_headings_leaves_them_in_their_columns(tmp_path):
    # A paper's title spans both columns; under it each column opens with a short heading on the
    # same row ("1 Introduction" and, at the right column's top, "3.1 Data"). The title leaves the
    # headings' wide gap a sliver, which was taken for the gutter of columns that started above:
    # the two headings were read as one row before the columns.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((150, 80), "Structure-first chunking of company documents", fontsize=16, fontname="hebo")
    for x, heads in ((72, ("1 Introduction", "2 Related Work")), (320, ("3.1 Data", "4 Results"))):
        y = 110.0
        for k, head in enumerate(heads):
            page.insert_text((x, y), head, fontsize=11, fontname="hebo")
            y += 16
            for line in textwrap.wrap(prose(70, k + x), 46):
                page.insert_text((x, y), line, fontsize=9)
                y += 11
            y += 12
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings[1:] == ["1 Introduction", "2 Related Work", "3.1 Data", "4 Results"], headings


def test_a_prose_line_within_a_labels_reach_of_a_chart_stays_in_its_paragraph(tmp_path):
    # A column of prose beside a bar chart, one of its lines (four words) ending a few points from
    # the chart's axis: set between lines of its own block, it is the paragraph's, not a label of
    # the chart (Pew's sidebar lost "China," we have tracked the" so).
    doc = pymupdf.open()
    page = doc.new_page()
    side = textwrap.wrap(prose(80, 1), 26)
    side[5] = "wellspring measurements were high"
    page.insert_text((72, 120), "\n".join(side), fontsize=10)
    for k in range(6):
        page.draw_rect((246 + 40 * k, 270 - 15 * k, 271 + 40 * k, 300), color=None, fill=(0.2, 0.4, 0.6))
        page.insert_text((251 + 40 * k, 312), str(2015 + k), fontsize=7)
    page.draw_line((241, 300), (496, 300))
    page.draw_line((241, 140), (241, 300))
    for k in range(5):
        page.draw_line((237, 300 - 40 * k), (241, 300 - 40 * k))
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "paragraph"] == [" ".join(side)]


def test_a_line_running_past_its_own_shading_stays_in_the_block_above():
    # Pew's sidebar: each line over a fill of its own, one line running 2 pt past its fill's end.
    doc = pymupdf.open()
    page = doc.new_page()
    lines = textwrap.wrap(prose(40, 2), 26)
    lines[2] = "wellspring measurements were high"
    y = 120.0
    for line in lines:
        end = 72 + pymupdf.get_text_length(line, fontsize=10)
        page.draw_rect((66, y - 11, max(214, end - 2), y + 4), color=None, fill=(0.93, 0.92, 0.89))
        page.insert_text((72, y), line, fontsize=10)
        y += 15
    blocks = page.get_text("dict", textpage=page.get_textpage(flags=TEXT_FLAGS))["blocks"]
    assert len({b["number"] for b in blocks if b["type"] == 0}) == len(lines)  # MuPDF: a block a line
    rejoin_shaded_lines(blocks)
    assert len({b["number"] for b in blocks if b["type"] == 0}) == 1
