"""The PDF loader on layouts it was not written against, one generated PDF per failure class.

Each PDF is drawn here with pymupdf so the page holds exactly the evidence a rule reads (type,
place, repetition, drawings, the outline, page labels), and each test states what a reader of the
page sees: the furniture gone, the body kept once and in order, the headings in the paths.
"""

from __future__ import annotations

import re
import textwrap

import pymupdf
import pytest

from tests.pdf.pages import ChunkOptions, Page, all_text, chunk, chunks_of, load, prose, ruled_statement

# -- 1. doubled list markers ------------------------------------------------------------------


def test_numbered_list_marker_printed_once(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(40))
    for n, item in enumerate(
        (
            "Collect the samples from every well",
            "Send them to the lab the same day",
            "Record the results in the register",
        ),
        start=1,
    ):
        page.para(f"{n}. {item}", gap=2)
    page.para("(1) Wells near the mill are tested monthly", gap=2)
    page.para("(2) Other wells are tested once a year", gap=2)
    loaded, blocks = load(doc, tmp_path)
    text = "\n".join(c.text for c in chunks_of(loaded, blocks))
    assert "1. Collect the samples from every well" in text
    assert "(2) Other wells are tested once a year" in text
    assert not re.search(r"(\(?\d\)?[.)]?) \1 ", text), text  # "1. 1. ..." or "(1) (1) ..."


# -- 2. furniture that appears once -------------------------------------------------------------


def test_one_off_furniture_dropped_by_its_content_and_type(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.text(150, 36, "Journal of Water Studies 12 (2021) 100\u2013110", size=7)
    page.text(60, 800, "Downloaded from https://example.org/jws/article/12 on 3 May 2022", size=8)
    page.text(60, 815, "www.example.org | Vol. 12 | Issue 3 | e2748", size=8)
    page.heading("Water quality in the northern district", size=16)
    for seed in range(4):
        page.para(prose(90, seed))
    page.text(60, 760, "1 The register is kept at https://example.org/register for every district.", size=7)
    _, blocks = load(doc, tmp_path)
    text = all_text(blocks)
    for furniture in ("Journal of Water Studies", "Downloaded from", "Issue 3"):
        assert furniture not in text
    assert "The register is kept at https://example.org/register" in text  # a footnote with a link stays
    assert text.count("The survey of water quality") == 1


# -- 3. a running header that runs the page number into the chapter title -----------------------


def test_page_number_run_into_a_chapter_header(tmp_path):
    doc = pymupdf.open()
    chapters = [
        "Chapter 3. Row and column access control",
        "Chapter 4. Auditing",
        "Chapter 5. Backups",
        "Chapter 6. Restores",
        "Chapter 7. Replication",
    ]
    for i in range(10):  # each chapter's header is on two pages: too few to recur
        page = Page(doc)
        page.text(60, 40, f"{chapters[i // 2]} {15 + i}", size=9)
        for seed in range(3):
            page.para(prose(80, seed + i))
    _, blocks = load(doc, tmp_path)
    text = " ".join(all_text(blocks).split())
    assert "Row and column access control" not in text and "Replication" not in text
    assert all(prose(80, i)[:60] in text for i in range(10))


@pytest.mark.parametrize(
    "label, header", [("iv", "Safety notes and warnings iv"), ("7-45", "7-45 Installing the pump")]
)
def test_page_labels_are_printed_page_numbers(tmp_path, label, header):
    doc = pymupdf.open()
    page = Page(doc)  # one page: nothing recurs, the number is no sequence; only the label tells
    page.text(60, 40, header, size=10)
    page.para(prose(80))
    if label == "iv":
        doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 4}])
    else:
        doc.set_page_labels([{"startpage": 0, "prefix": "7-", "style": "D", "firstpagenum": 45}])
    _, blocks = load(doc, tmp_path)
    assert header.split()[1] not in all_text(blocks)
    assert prose(80)[:60] in all_text(blocks)


# -- 4. columns inside one block --------------------------------------------------------------


def test_two_columns_set_line_by_line_read_one_after_the_other(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    left = textwrap.wrap(prose(200, 0).replace("The survey", "Leftside survey"), 44)
    right = textwrap.wrap(prose(200, 7).replace(".", "") + " rightmost end.", 44)
    y = 100.0
    for a, b in zip(left, right):  # one text run per row, so MuPDF may group both columns
        page.insert_text((50, y), a, fontsize=10)
        page.insert_text((310, y), b, fontsize=10)
        y += 12.5
    _, blocks = load(doc, tmp_path)
    text = " ".join(b.text for b in blocks)
    assert " ".join(left) in text  # the left column whole, in order
    assert text.index(left[-1]) < text.index(right[0])


# -- 5. headings: outline and type together ---------------------------------------------------


def test_outline_is_one_signal_among_several(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Clean Water for Every Village", size=18)
    page.heading("Abstract", size=10)
    page.para(prose(60, 1))
    page.heading("I. INTRODUCTION", size=10, font="helv")
    page.para(prose(120, 2))
    page.heading("2.1. Sampling in the wet season", size=10, font="heit")
    page.para(prose(120, 3))
    doc.set_toc([[1, "Introduction", 1], [2, "Sampling in the wet season", 1]])
    loaded, blocks = load(doc, tmp_path)
    paths = {p for c in chunks_of(loaded, blocks) for p in c.heading_path}
    for heading in ("Clean Water for Every Village", "Abstract", "I. INTRODUCTION", "2.1. Sampling in the wet season"):
        assert heading in paths, paths


def test_author_lines_and_lead_ins_are_not_headings(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Clean Water for Every Village", size=18)
    page.para("Alice Smith, Bob Jones, Carol White, Dan Brown", size=12)
    page.para(prose(60, 1))
    page.para("The following wells were closed:", font="hebo")
    page.para(prose(60, 2))
    loaded, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == ["Clean Water for Every Village"]


def test_authors_set_side_by_side_in_large_type_are_not_headings(tmp_path):
    """A paper sets its authors in a grid under the title, each name larger than the body over its
    affiliation, three to a row: pieces of one row in one type, not headings."""
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Clean Water for Every Village", size=18)
    for row, names in enumerate((("Alice Smith", "Bob Jones", "Carol White"), ("Dan Brown", "Eve Green", "Fay Black"))):
        y = 150 + 50 * row
        for k, name in enumerate(names):
            page.text(80 + 170 * k, y, name, size=13)
            page.text(80 + 170 * k, y + 14, "Northern University", size=9)
    page.y = 280
    page.heading("Abstract", size=12)
    page.para(prose(80, 1))
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Clean Water for Every Village", "Abstract"]
    assert "Eve Green" in all_text(blocks)


def test_a_centred_title_heads_the_flush_left_headings_of_its_size(tmp_path):
    """A statement's title set centred over flush-left row groups in the same bold type: the
    groups are under the title, and the unit note in parentheses heads nothing."""
    doc = pymupdf.open()
    page = Page(doc)
    body = [prose(70, k) for k in range(4)]
    right = max(pymupdf.get_text_length(line, fontsize=10) for text in body for line in textwrap.wrap(text, 90)) + 60
    page.heading("Annual report", size=16)  # the document's title, above both
    page.para(body[0])

    def centred(text: str) -> None:
        page.y += 14
        page.text(
            (60 + right - pymupdf.get_text_length(text, fontname="hebo", fontsize=10)) / 2, page.y, text, font="hebo"
        )
        page.y += 4

    centred("CONSOLIDATED BALANCE SHEETS")
    centred("(in millions, except per share data)")
    for heading, text in (("Assets", body[1]), ("Liabilities", body[2])):
        page.heading(heading)
        page.para(text)
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == [
        "Annual report",
        "CONSOLIDATED BALANCE SHEETS",
        "Assets",
        "Liabilities",
    ]
    under = {b.text[:40]: b.path[1:] for b in blocks if b.kind == "paragraph"}
    assert under[body[1][:40]] == ("CONSOLIDATED BALANCE SHEETS", "Assets")
    assert under[body[2][:40]] == ("CONSOLIDATED BALANCE SHEETS", "Liabilities")
    assert under["(in millions, except per share data)"] == ("CONSOLIDATED BALANCE SHEETS",)


# -- 7. figure text ---------------------------------------------------------------------------


def test_chart_labels_kept_out_of_the_body(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(80, 1))
    x0, y0, x1, y1 = 100, 250, 400, 450  # axes, ticks, bars and their labels
    page.page.draw_line((x0, y1), (x1, y1))
    page.page.draw_line((x0, y0), (x0, y1))
    for k in range(6):
        y = y1 - k * 40
        page.page.draw_line((x0 - 4, y), (x0, y))
        page.text(x0 - 24, y + 3, str(k * 20), size=8)
    for k in range(5):
        x = x0 + 30 + k * 55
        page.page.draw_rect(pymupdf.Rect(x, y1 - 30 - 25 * k, x + 30, y1), fill=(0.3, 0.4, 0.8))
        page.text(x + 4, y1 + 12, str(2019 + k), size=8)
    page.y = 480
    page.para("Figure 1. Wells tested per year in the northern district.", size=9)
    page.para(prose(80, 2))
    _, blocks = load(doc, tmp_path)
    body = [b for b in blocks if b.kind != "figure"]
    assert not [b.text for b in body if re.fullmatch(r"[\d\s]+", b.text)]
    assert any(b.text.startswith("Figure 1. Wells tested per year") for b in body)
    assert all(w in all_text(body) for w in ("district found that most wells", "near the old mill"))


# -- 8. drop caps and dot leaders ---------------------------------------------------------------


def test_drop_cap_rejoins_its_word(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.text(60, 130, "T", size=36)
    page.text(88, 108, "he survey of water quality in the northern district found that most", size=10)
    page.text(88, 121, "wells met the standard while a few near the old mill held more iron.", size=10)
    page.y = 140
    page.para(prose(60, 3))
    _, blocks = load(doc, tmp_path)
    text = all_text(blocks)
    assert "The survey of water quality in the northern district" in text
    assert not any(b.text == "T" for b in blocks)


def test_contents_dot_leaders_are_not_text(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Contents", size=14)
    for n, title in enumerate(("Sampling", "Results", "Repairs"), start=1):
        page.para(f"{n}. {title} " + "." * 40 + f" {n * 4}", gap=2)
    page.para(prose(60, 3))
    _, blocks = load(doc, tmp_path)
    text = all_text(blocks)
    assert "...." not in text
    assert "Sampling 4" in text


def test_small_capitals_heading_at_body_size(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(60, 1))
    page.y += 14
    page.text(60, page.y, "II. M", size=10)  # full capitals, then small capitals a size down
    page.text(60 + pymupdf.get_text_length("II. M", fontsize=10), page.y, "ETHODS", size=8)
    page.y += 6
    page.para(prose(80, 2))
    loaded, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert any(h.replace(" ", "") == "II.METHODS" for h in headings), headings


def test_chinese_lines_join_without_a_space(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    for k, line in enumerate(
        ("水质调查发现北部地区大多数水井符合标", "准，但旧磨坊附近的几口井含铁量超", "标，已关闭维修。")
    ):
        page.insert_text((60, 100 + 13 * k), line, fontname="china-s", fontsize=10)
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks] == [
        "水质调查发现北部地区大多数水井符合标准，但旧磨坊附近的几口井含铁量超标，已关闭维修。"
    ]


def test_paragraph_cut_by_a_caption_reads_on_after_it(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    left = textwrap.wrap(prose(120, 0)[:-1] + " and the rest of this sentence", 44)
    y = 100.0
    for line in left:
        page.insert_text((50, y), line, fontsize=10)
        y += 12.5
    page.insert_text((310, 100), "Figure 2. Iron found in the wells near the mill.", fontsize=8)
    right = textwrap.wrap("goes on in the next column after the caption and ends here. " + prose(60, 4), 44)
    y = 130.0
    for line in right:
        page.insert_text((310, y), line, fontsize=10)
        y += 12.5
    _, blocks = load(doc, tmp_path)
    text = [b.text for b in blocks]
    joined = next(t for t in text if t.startswith(prose(120, 0)[:30]))
    assert "the rest of this sentence goes on in the next column after the caption and ends here." in joined
    assert text.index(joined) < text.index("Figure 2. Iron found in the wells near the mill.")


# -- tables set without rules -----------------------------------------------------------------


def test_statement_without_rules_is_a_table_of_rows(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(50, 1))
    rows = [
        ("", "2023", "2022"),
        ("Revenue", "46,298", "51,761"),
        ("Cost of sales", "(36,386)", "(40,121)"),
        ("Gross profit", "9,912", "11,640"),
        ("Operating income", "$ 1,795", "$ 2,675"),
    ]
    y = page.y + 20
    for label, a, b in rows:
        if label:
            page.text(60, y, label, size=9)
        page.text(330 - pymupdf.get_text_length(a, fontsize=9), y, a, size=9)  # figures set flush right
        page.text(430 - pymupdf.get_text_length(b, fontsize=9), y, b, size=9)
        y += 12
    page.y = y + 10
    page.para(prose(50, 2))
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert tables[0].rows == (
        ("", "2023", "2022"),
        ("Revenue", "46,298", "51,761"),
        ("Cost of sales", "(36,386)", "(40,121)"),
        ("Gross profit", "9,912", "11,640"),
        ("Operating income", "$ 1,795", "$ 2,675"),
    )
    assert tables[0].header_rows == 1
    assert not any(b.text in ("46,298", "Revenue") for b in blocks if b.kind != "table")


def test_the_years_under_a_statements_heads_go_with_them_into_every_piece(tmp_path):
    """ "Year ended December 31," over "2023 | 2022": a long table cut into pieces repeats both rows,
    so no piece leaves its columns without their periods."""
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(50, 1))

    def right(x: float, y: float, text: str) -> None:
        page.text(x - pymupdf.get_text_length(text, fontsize=9), y, text, size=9)

    y = page.y + 20
    right(430, y, "Year ended December 31,")
    right(520, y, "% change")
    y += 12
    for x, text in ((330, "2023"), (430, "2022"), (520, "23 vs. 22")):
        right(x, y, text)
    for i in range(40):
        y += 12
        page.text(60, y, f"Line item number {i}", size=9)
        for x, text in ((330, f"{1000 + i * 37:,}"), (430, f"{900 + i * 41:,}"), (520, f"{i % 9 + 1}%")):
            right(x, y, text)
    page.y = y + 22
    page.para(prose(50, 2))
    loaded, blocks = load(doc, tmp_path)
    (table,) = [b for b in blocks if b.kind == "table"]
    assert table.rows[1][1:3] == ("2023", "2022") and table.header_rows == 2
    pieces = [
        c.text for c in chunk(loaded, ChunkOptions(max_tokens=120, min_tokens=0, overlap_tokens=0), blocks=blocks)
    ]
    pieces = [p for p in pieces if "Line item number" in p]
    assert len(pieces) >= 3
    assert all("Year ended December 31," in p and "|2023|2022|" in p for p in pieces), pieces


def test_statement_stays_one_table_across_its_row_groups(tmp_path):
    """A cash flow statement: captions of row groups in bold, a label wrapped onto a second line,
    a label longer than a cell. One table in reading order, its captions rows, not headings."""
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(50, 1))
    long_label = "Proceeds from issuance of treasury stock pursuant to stock option and benefit plans"
    rows = [
        ("Cash flows from operating activities", None, None),
        ("Net income", "5,363", "4,869"),
        ("Adjustments to reconcile net income to net cash", None, None),
        ("provided by operating activities", None, None),
        ("Depreciation", "1,488", "1,544"),
        ("Deferred income taxes", "(57)", "107"),
        ("Cash flows from investing activities", None, None),
        ("Purchases of property and equipment", "(1,577)", "(1,373)"),
        (long_label, "485", "734"),
        ("Acquisitions, net of cash acquired", "13", "(2,023)"),
    ]
    y = page.y + 20
    for label, a, b in rows:
        page.text(60, y, label, size=8, font="hebo" if a is None and label[0].isupper() else "helv")
        if a is not None:
            page.text(430 - pymupdf.get_text_length(a, fontsize=8), y, a, size=8)
            page.text(510 - pymupdf.get_text_length(b, fontsize=8), y, b, size=8)
        y += 10
    page.y = y + 10
    page.para(prose(50, 2))
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert tables[0].rows == (  # the caption above the first figures stays the table's lead-in
        ("Net income", "5,363", "4,869"),
        ("Adjustments to reconcile net income to net cash provided by operating activities", "", ""),
        ("Depreciation", "1,488", "1,544"),
        ("Deferred income taxes", "(57)", "107"),
        ("Cash flows from investing activities", "", ""),
        ("Purchases of property and equipment", "(1,577)", "(1,373)"),
        (long_label, "485", "734"),
        ("Acquisitions, net of cash acquired", "13", "(2,023)"),
    )
    assert tables[0].header_rows == 0  # its first row is data
    assert not [b for b in blocks if b.kind == "heading" and "investing" in b.text.casefold()]
    assert [b.kind for b in blocks][-2:] == ["table", "paragraph"]  # the prose below reads after it


def test_text_between_two_tables_of_one_block_reads_between_them(tmp_path):
    """MuPDF lays rows, the lines between two tables and a note under them out as one block: what
    is not a table row reads where it stands, not before both tables."""
    doc = pymupdf.open()
    page = doc.new_page()
    writer, font, bold = pymupdf.TextWriter(page.rect), pymupdf.Font("helv"), pymupdf.Font("hebo")
    rows = [
        ("Net income", "5,363", "4,869"),
        ("Depreciation", "1,488", "1,544"),
        ("Deferred taxes", "(57)", "107"),
        ("Segment results follow", None, None),
        ("for the two operating segments of the", None, None),
        ("company, as the board reviews them", None, None),
        ("Capital spending", "(1,577)", "(1,373)"),
        ("Acquisitions", "13", "(2,023)"),
        ("Other", "9", "(6)"),
        ("The notes are part of this statement.", None, None),
    ]
    y = 100
    for label, a, b in rows:
        writer.append((60, y), label, font=bold if a is None else font, fontsize=8)
        if a is not None:
            writer.append((430 - font.text_length(a, 8), y), a, font=font, fontsize=8)
            writer.append((510 - font.text_length(b, 8), y), b, font=font, fontsize=8)
        y += 10
    writer.write_text(page)
    assert len(page.get_text("dict")["blocks"]) == 1  # the layout this test is about
    _, blocks = load(doc, tmp_path)
    order = [b.kind if b.kind == "table" else b.text for b in blocks]
    assert order.index("table") < next(i for i, t in enumerate(order) if "Segment results" in t)
    assert order[-1].startswith("The notes are part of this statement")
    assert [k for k in order if k == "table"] == ["table", "table"]
    between = order[order.index("table") + 1 : len(order) - 1 - order[::-1].index("table")]
    assert " ".join(between).startswith("Segment results follow")


def test_words_side_by_side_are_no_table(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    for label, value in (("Name", "Northern district survey"), ("Lead", "Water board"), ("Status", "Closed")):
        page.text(60, page.y, label, size=10)
        page.text(200, page.y, value, size=10)
        page.y += 13
    page.para(prose(60, 2))
    _, blocks = load(doc, tmp_path)
    assert not [b for b in blocks if b.kind == "table"]


def test_contents_entries_and_captions_are_no_headings(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(150, 2))  # the body's line pitch
    page.heading("Contents", size=16)
    for entry in ("1 Getting started 1", "2 Workout monitoring 14", "3 Health management 18"):
        page.heading(entry, size=11)  # set bold and apart like the headings they point to
    page.heading("TABLE 1", size=11)
    page.para(prose(150, 1))
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Contents"]


# -- overprinted (shadow, fake bold) text -------------------------------------------------------


def overprint(page: Page, y: float, text: str, size: float, offset: float, glyph_by_glyph: bool) -> None:
    """Each glyph drawn twice, `offset` apart: a title set bold or shadowed by printing it again."""
    if not glyph_by_glyph:
        for d in (offset, 0):
            page.text(60 + d, y + d, text, size=size)
        return
    x = 60.0
    for ch in text:
        for d in (offset, 0):
            page.text(x + d, y + d, ch, size=size)
        x += pymupdf.get_text_length(ch, "helv", size)


def test_overprinted_title_reads_once_as_bold(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    overprint(page, 100, "NEBRASKA HISTORIC", 21, 2.0, glyph_by_glyph=True)  # too far apart for MuPDF to merge
    overprint(page, 140, "BUILDINGS SURVEY", 21, 0.4, glyph_by_glyph=False)
    page.y = 170
    page.para("Bookkeeping of all 111 wells took three committees a full week in the summer of 2008.")
    page.para(prose(80, 2))
    loaded, blocks = load(doc, tmp_path)
    text = all_text(blocks)
    assert "NEBRASKA HISTORIC" in text and "BUILDINGS SURVEY" in text
    assert "NEE" not in text and "SURVEY BUILDINGS" not in text and text.count("BUILDINGS") == 1
    assert "Bookkeeping of all 111 wells took three committees" in text  # honest double letters stay
    assert [b.text for b in blocks if b.kind == "heading"] == ["NEBRASKA HISTORIC BUILDINGS SURVEY"]


# -- a statement's column heads at the top of every page ------------------------------------------


def test_column_heads_atop_every_statement_page_stay_with_their_table(tmp_path):
    """Statement pages open with their column-head row high on the page, the same on each page,
    and a size smaller than the rows: it recurs in the band like a running header, but it sits
    right on the figures it heads. The running header above it still goes."""
    doc = pymupdf.open()
    labels = (
        "Net sales",
        "Cost of sales",
        "Selling and administrative expenses",
        "Research expenses",
        "Operating income",
        "Interest expense",
        "Income before taxes",
        "Provision for taxes",
    )
    for n in range(4):
        page = Page(doc)
        page.text(60, 40, "Northern Water Company Annual Report", size=8)
        page.text(60, 88, "(Millions)", size=7.5)
        for x, year in ((330, "2018"), (400, "2017"), (470, "2016")):
            page.text(x - pymupdf.get_text_length(year, fontsize=7.5), 88, year, size=7.5)
        y = 99.0
        for k, label in enumerate(labels):
            page.text(60, y, label, size=9)
            for j, x in enumerate((330, 400, 470)):
                figure = f"{(n + 1) * 1000 + k * 97 + j * 31:,}"
                page.text(x - pymupdf.get_text_length(figure, fontsize=9), y, figure, size=9)
            y += 11
        page.y = y + 14
        page.para(prose(120, n))
        page.text(290, 800, str(n + 40), size=8)
    loaded, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 4
    for table in tables:
        assert table.rows[0] == ("(Millions)", "2018", "2017", "2016")
        assert table.header_rows == 1
        assert table.rows[1][0] == "Net sales"
    assert "Northern Water Company Annual Report" not in all_text(blocks)  # the running header is furniture


# -- a filing's signature block -------------------------------------------------------------------


def test_signature_block_lines_are_no_headings(tmp_path):
    """Who signed and when, set a size above the filing's small body type: no sections."""
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("SIGNATURES", size=11)
    page.para(prose(60, 1), size=8)
    page.heading("Northern Water Company", size=11)
    page.para("(Registrant)", size=11)
    page.y += 14
    page.text(60, page.y, "Date: February 7, 2019", size=11)
    page.text(300, page.y, "By: /s/ Robert J. Decker, Jr.", size=11)
    page.y += 16
    page.text(300, page.y, "Robert J. Decker, Jr.", size=11)
    page.y += 13
    page.text(300, page.y, "Senior Vice President and Controller", size=11)
    page.y += 30
    page.heading("A. Chief Executive Officer Pay Ratio", size=11)
    page.para(prose(150, 2), size=8)
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == [
        "SIGNATURES",
        "Northern Water Company",
        "A. Chief Executive Officer Pay Ratio",
    ]
    text = all_text(blocks)
    assert "Date: February 7, 2019" in text and "Robert J. Decker, Jr." in text


# -- space after a paragraph, less than a blank line ----------------------------------------------


def test_a_few_points_after_each_paragraph_part_it_from_the_next_line(tmp_path):
    """A 10-Q sets 3 pt after each paragraph and its item titles in the body's own type, each on its
    own line above its text: the title after a paragraph is no last line of that paragraph."""
    doc = pymupdf.open()
    page = Page(doc)
    titles = ["Item 2. Properties.", "Item 3. Legal Proceedings.", "Item 4. Controls and Procedures."]
    for n, title in enumerate(titles):
        page.para(title, gap=0)
        for k in (n, n + 5):  # each paragraph's last line runs as far as the others
            lines = textwrap.wrap(prose(60, k), 80)
            page.para(" ".join(lines[:-1])[:240].rsplit(" ", 1)[0] + " ends here.", width=85, gap=3)
    _, blocks = load(doc, tmp_path)
    for title in titles:
        [block] = [b for b in blocks if title in b.text]
        assert block.text == title
    text = [b for b in blocks if b.kind == "paragraph" and b.text not in titles]
    assert len(text) == 6 and all(b.text.endswith(".") for b in text)


# -- subheadings in italics at the body's size ----------------------------------------------------


def test_italic_lines_above_upright_text_are_subheadings(tmp_path):
    """A filing sets its subheadings in the body's size, in italics, each alone above its text; an
    equation, an officer's name and office, and a sentence set in italics head nothing."""
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Item 5. Market for Registrant's Common Equity", size=10)
    for n, title in enumerate(("Market Information", "Holders", "Dividends")):
        page.para(title, font="heit", gap=2)
        page.para(prose(50, n))
    page.para("f(x) = a + b", font="heit", gap=2)
    page.para(prose(30, 4))
    page.para("Robert A. Kotick, Chief Executive Officer", font="heit", gap=2)
    page.para(prose(30, 5))
    page.para("This whole sentence is set in italics for emphasis.", font="heit", gap=2)
    page.para(prose(30, 6))
    page.para("By Jacob Poushter and Mara Mordecai", font="heit", gap=2)  # a byline
    page.para(prose(30, 7))
    page.text(400, 780, "Reservoir", font="heit")  # a map's place name: no text under it
    _, blocks = load(doc, tmp_path)
    heads = [b for b in blocks if b.kind == "heading"]
    assert [b.text for b in heads] == [
        "Item 5. Market for Registrant's Common Equity",
        "Market Information",
        "Holders",
        "Dividends",
    ]
    assert all(b.level > heads[0].level for b in heads[1:])
    under = [b.text for b in blocks if b.kind == "paragraph" and b.path[-1] == "Dividends"]
    assert any("f(x) = a + b" in t for t in under) and "Reservoir" in under


# -- a head spanning a table's columns --------------------------------------------------------------


def test_a_head_over_a_tables_columns_of_figures_is_no_heading(tmp_path):
    """A filing sets "Increase/(Decrease)" in bold over the columns of figures at a ruled table's
    right, a line over the table: it heads columns, not a section. The table's title, bold at its
    left edge, and a bold heading centred over the text stay headings."""
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Consolidated Results")
    page.para(prose(60))
    page.heading("Revenues by Segment")
    page.page.insert_text((430, page.y + 12), "Increase/(Decrease)", fontsize=10, fontname="hebo")
    bottom = ruled_statement(page.page, page.y + 16, ("Consumer", "Business", "Corporate", "Total"), 10, 1)
    page.y = bottom + 10
    page.para(prose(60, 3))
    # A statement's title block: its name at the left, the company at the right of the same row,
    # over the figures; and a chapter's title set large at the right, over a table.
    page = Page(doc)
    page.page.insert_text((60, 100), "Balance Sheets", fontsize=10, fontname="hebo")
    page.page.insert_text((380, 100), "Northern Water Company", fontsize=10, fontname="hebo")
    bottom = ruled_statement(page.page, 104, ("Cash", "Wells", "Pipes", "Total assets"), 10, 2)
    page.page.insert_text((380, bottom + 40), "Outlook", fontsize=20, fontname="hebo")
    ruled_statement(page.page, bottom + 48, ("Cash", "Wells", "Pipes", "Total assets"), 10, 3)
    _, blocks = load(doc, tmp_path)
    titles = ("Balance Sheets", "Northern Water Company", "Outlook")
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == ["Consolidated Results", "Revenues by Segment", *titles]
    assert sum(b.kind == "table" for b in blocks) == 3
    assert "Increase/(Decrease)" in all_text(blocks)
