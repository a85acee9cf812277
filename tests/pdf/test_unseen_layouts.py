"""The PDF loader on the failure classes `benchmarks/pdf_unseen.py` found on documents nobody tuned
it on (10-Ks, manuals, papers), one generated PDF each, drawn with the evidence the rule reads."""

from __future__ import annotations

import textwrap

import pymupdf

from tests.pdf.pages import Page, all_text, chunks_of, load, prose


def run(page: pymupdf.Page, x: float, y: float, pieces: list[tuple[str, str]], size: float = 10) -> None:
    """One line set in pieces of different fonts ("Go to " + bold "Settings")."""
    for text, font in pieces:
        page.insert_text((x, y), text, fontsize=size, fontname=font)
        x += pymupdf.get_text_length(text, fontname=font, fontsize=size)


def test_chapter_running_header_recurs_page_after_page(tmp_path):
    doc = pymupdf.open()
    chapters = ("Pumps", "Valves", "Filters", "Meters", "Pipes")
    for c, title in enumerate(chapters):
        for i in range(4):  # four pages a chapter: a fifth of the document, too few for the share
            page = Page(doc)
            if i == 0:
                page.y = 40
                page.heading(title, size=20)
            else:
                page.text(480, 40, title, size=8)
            for seed in range(3):
                page.para(prose(80, seed + 4 * c + i))
    loaded, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == list(chapters)  # the title set large atop its chapter stays, once
    assert not [b for b in blocks if b.kind != "heading" and b.text in chapters]
    paths = {c.heading_path[-1] for c in chunks_of(loaded, blocks)}
    assert set(chapters) <= paths


def test_page_number_in_the_header_corner_is_no_gutter(tmp_path):
    doc = pymupdf.open()
    for n in range(1, 7):
        page = Page(doc)
        page.text(54, 40, str(n), size=9)  # left of the body's edge, as a gutter's numbers are
        page.text(420, 40, "M. Salem" if n % 2 else "Pathogenetics", size=9)
        for seed in range(3):
            page.para(prose(80, seed + n), x=72)
    _, blocks = load(doc, tmp_path)
    assert not [b.text for b in blocks if b.text.strip().isdigit()]
    assert all(prose(80, seed + 1)[:60] in all_text(blocks) for seed in range(3))


def test_bold_heading_close_to_text_with_bold_words(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((60, 100), "System Navigation Gestures", fontsize=10, fontname="hebo")
    run(
        page,
        60,
        114,
        [
            ("Go to ", "helv"),
            ("Settings", "hebo"),
            (" > ", "helv"),
            ("System updates", "hebo"),
            (" and make sure that ", "helv"),
            ("Gestures", "hebo"),
            (" is selected.", "helv"),
        ],
    )
    run(page, 60, 140, [("3 ", "hebo"), ("Touch the floating shutter to take a photo.", "helv")])
    page.insert_text((60, 158), "Take Timed Photos", fontsize=10, fontname="hebo")
    page.insert_text(
        (60, 172), "The camera timer lets you set a countdown before the photo is taken.", fontsize=10, fontname="helv"
    )
    y = 200
    for seed in range(3):
        page.insert_text((60, y), prose(14, seed), fontsize=10, fontname="helv")
        y += 14
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == ["System Navigation Gestures", "Take Timed Photos"]
    text = all_text(blocks)
    assert "Go to Settings > System updates and make sure that Gestures is selected." in text
    assert "Touch the floating shutter to take a photo." in text


def test_heading_low_on_the_page_heads_its_text(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    seed = 0
    while page.y < 740:  # the text runs down into the page's bottom band
        page.para(prose(20, seed))
        seed += 1
    page.text(60, page.y + 22, "Customizing the Down button", size=16, font="hebo")
    page.text(60, page.y + 40, "Press the Up button to open the app list, then go to Settings.", size=10)
    page.text(290, 825, "7", size=9)
    page = Page(doc)
    page.para(prose(110, 6))
    loaded, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Customizing the Down button"]
    below = next(b for b in blocks if b.text.startswith("Press the Up button"))
    assert below.path[-1] == "Customizing the Down button" and below.meta.get("band") is None
    assert "7" not in [b.text for b in blocks]


def test_numbered_heading_in_capitals_over_two_lines(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.para(prose(120, 1))
    page.y += 10
    page.para(
        "4.3.2 AN AUXILIARY CONFIDENCE LOSS CAN DRAMATICALLY IMPROVE GENERALIZATION ON NLP TASKS", width=70, gap=6
    )
    page.para(prose(120, 2))
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == [
        "4.3.2 AN AUXILIARY CONFIDENCE LOSS CAN DRAMATICALLY IMPROVE GENERALIZATION ON NLP TASKS"
    ]


def test_headings_of_two_columns_on_one_row(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for x, number, seed in ((50, "4.2 Citation Evaluation", 0), (310, "4.3 Text-Citation Alignment", 5)):
        y = 100.0
        for line in textwrap.wrap(prose(90, seed), 44):
            page.insert_text((x, y), line, fontsize=10)
            y += 12.5
        page.insert_text((x, y + 10), number, fontsize=10, fontname="hebo")
        y += 26
        for line in textwrap.wrap(prose(90, seed + 2), 44):
            page.insert_text((x, y), line, fontsize=10)
            y += 12.5
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["4.2 Citation Evaluation", "4.3 Text-Citation Alignment"]


def test_years_heading_a_statement_are_no_page_number(tmp_path):
    doc = pymupdf.open()
    for n in range(1, 4):
        page = Page(doc)
        if n == 2:  # a statement's column heads in small type atop the page, the last a year
            for x, piece in ((60, "(Millions)"), (380, "2018"), (440, "2017"), (500, "2016")):
                page.text(x, 50, piece, size=7)
        for seed in range(3):
            page.para(prose(80, seed + n))
        page.text(290, 820, str(n), size=9)
    _, blocks = load(doc, tmp_path)
    assert "(Millions) 2018 2017 2016" in [b.text for b in blocks]
    assert not [b.text for b in blocks if b.text.strip().isdigit()]  # the page numbers go


def test_statement_titles_atop_pages_in_a_row_are_no_running_header(tmp_path):
    doc = pymupdf.open()
    statements = ("Income", "Comprehensive Income", "Balance Sheet", "Cash Flows")
    for n in range(16):
        page = Page(doc)
        if 5 <= n < 9:  # like lines page after page, but each names its own statement
            page.text(200, 40, f"Acme Inc. and Subsidiaries Consolidated Statement of {statements[n - 5]}", size=9)
        for seed in range(3):
            page.para(prose(80, seed + n))
    _, blocks = load(doc, tmp_path)
    kept = [b.text for b in blocks if b.text.startswith("Acme Inc.")]
    assert kept == [f"Acme Inc. and Subsidiaries Consolidated Statement of {s}" for s in statements]


def test_two_columns_first_lines_in_the_top_band_are_not_one_header(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((50, 52), "Card income", fontsize=10, fontname="hebo")
    page.insert_text((320, 54), "Note 6 - Interest income and expense", fontsize=12, fontname="hebo")
    for x, seed in ((50, 0), (320, 4)):
        y = 75.0
        for line in textwrap.wrap(prose(150, seed), 44):
            page.insert_text((x, y), line, fontsize=9)
            y += 11.5
    _, blocks = load(doc, tmp_path)
    assert "Note 6 - Interest income and expense" in [b.text for b in blocks if b.kind == "heading"]
    assert not [b.text for b in blocks if "Card income" in b.text and "Note 6" in b.text]


def test_header_pieces_in_other_types_beside_the_page_number_stay_one_line(tmp_path):
    doc = pymupdf.open()
    page = Page(doc)
    page.text(60, 40, "[Ch. XIX.", size=7)
    page.text(250, 40, "BRITISH HUSBANDRY.", size=10, font="hebo")
    page.text(520, 40, "400", size=7)
    for seed in range(4):
        page.para(prose(90, seed), size=9)
    _, blocks = load(doc, tmp_path)
    text = all_text(blocks)
    assert "BRITISH HUSBANDRY" not in text and "XIX" not in text and "400" not in text
    assert all(prose(90, seed)[:60] in text for seed in range(4))


def test_short_chapters_running_titles_and_an_appendixs_page_labels_are_furniture(tmp_path):
    # A report whose chapters are two pages long: each chapter's later page carries its title in
    # the header (too few pages in a row to recur), and the appendix's pages are labelled "A-1",
    # "A-2" by the PDF and printed so alone at their foot.
    doc = pymupdf.open()
    chapters = ("Chapter 1: Background", "Chapter 2: Findings", "Chapter 3: Methods")
    for c, chapter in enumerate(chapters):
        for k in range(2):
            page = Page(doc)
            if k:
                page.text(60, 40, chapter, size=8, font="heit")
            else:
                page.heading(chapter.replace(":", "."), size=18)
            page.text(300, 800, f"A-{2 * c + k + 1}" if c == 2 else str(2 * c + k + 1), size=9)
            for seed in range(3):
                page.para(prose(80, 10 * c + 2 * k + seed))
    doc.set_page_labels(
        [
            {"startpage": 0, "prefix": "", "style": "D", "firstpagenum": 1},
            {"startpage": 4, "prefix": "A-", "style": "D", "firstpagenum": 5},
        ]
    )
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == [c.replace(":", ".") for c in chapters]
    text = all_text(b for b in blocks if b.kind != "heading")
    assert not any(chapter in text for chapter in chapters), text[:200]
    assert "A-5" not in text and "A-6" not in text


def manual_page(doc: pymupdf.Document, title: str, steps: tuple[str, ...], seed: int) -> None:
    """A manual's page: a section title, numbered steps, a grey box with a bold "NOTE" over the
    note's lines, and the section's text going on under the box."""
    page = Page(doc, width=420, height=595)
    page.page.insert_text((40, 70), title, fontsize=16, fontname="hebo")
    y = 100.0
    for k, step in enumerate(steps, 1):
        page.page.insert_text((40, y), f"{k}.", fontsize=9)
        for line in textwrap.wrap(f"{step}. {prose(14, k + seed)}", 62):
            page.page.insert_text((56, y), line, fontsize=9)
            y += 12
        y += 4
    page.page.draw_rect((40, y + 8, 380, y + 70), color=None, fill=(0.9, 0.9, 0.9))
    page.page.insert_text((50, y + 22), "NOTE", fontsize=9, fontname="hebo")
    note = textwrap.wrap(prose(30, 7 + seed), 66)
    page.page.insert_text((50, y + 34), "\n".join(note), fontsize=9)
    after = textwrap.wrap(prose(30, 11 + seed), 70)
    page.page.insert_text((40, y + 92), "\n".join(after), fontsize=9)


def test_a_notes_title_in_a_shaded_box_heads_only_the_box(tmp_path):
    doc = pymupdf.open()
    manual_page(doc, "1 Getting started", ("Unpack the scale", "Insert the batteries"), 0)
    manual_page(doc, "2 Weighing", ("Step onto the scale", "Read your weight"), 1)
    _, blocks = load(doc, tmp_path)
    for page, title in ((1, "1 Getting started"), (2, "2 Weighing")):
        body = [b for b in blocks if b.page == page and b.kind in ("paragraph", "list_item")]
        assert [b.kind for b in body] == ["list_item", "list_item", "paragraph", "paragraph"]
        assert body[2].path[-2:] == (title, "NOTE")  # the note's own text
        assert body[3].path[-1] == title and "NOTE" not in body[3].path  # the section's text after it


def test_a_chapters_title_in_a_shaded_banner_heads_the_chapter(tmp_path):
    # A banner holds a chapter's title and a line under it: no aside, the chapter's text after
    # the banner is the chapter's.
    doc = pymupdf.open()
    for c, chapter in enumerate(("Background", "Findings")):
        page = Page(doc)
        page.page.draw_rect((50, 60, 545, 130), color=None, fill=(0.2, 0.3, 0.5))
        page.page.insert_text((60, 90), f"Chapter {c + 1}. {chapter}", fontsize=18, fontname="hebo")
        page.page.insert_text((60, 115), f"What the survey found on {chapter.lower()}", fontsize=10)
        page.y = 150
        page.heading(f"{c + 1}.1 Overview", size=12)
        for seed in range(3):
            page.para(prose(80, seed + 3 * c))
    _, blocks = load(doc, tmp_path)
    last = [b for b in blocks if b.kind == "paragraph" and b.page == 2][-1]
    assert last.path[-2:] == ("Chapter 2. Findings", "2.1 Overview"), last.path
