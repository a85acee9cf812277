"""A filing's parts and items: "ITEM 5." set apart from its title on the same row, and the PART /
Item series as the outline every heading of their type sits in (found on FinanceBench 10-Ks,
where items were flat siblings of their own subsections)."""

from __future__ import annotations

import textwrap

import pymupdf

from tests.pdf.pages import Page, load, other_information, prose


def filing_page(doc: pymupdf.Document, part: str | None, items: list[tuple[str, str, list[str]]], seed: int) -> None:
    """A page of a 10-K: an optional centred PART line; each item's label at the margin and its
    title at a tab stop on the same row (both bold, body size), then subsections in bold."""
    page = Page(doc)
    if part:
        page.text(280, page.y, part, font="hebo")
        page.y += 20
    for label, title, subsections in items:
        page.y += 14
        page.text(60, page.y, label, font="hebo")
        for k, line in enumerate(textwrap.wrap(title, 60)):  # a long title wraps at its tab stop
            page.y += 12 if k else 0
            page.text(120, page.y, line, font="hebo")
        page.y += 8
        for k, sub in enumerate(subsections):
            page.heading(sub)
            page.para(prose(60, seed + k))


ITEM_5 = "MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND ISSUER PURCHASES OF EQUITY SECURITIES"


def test_an_item_label_joins_its_title_and_items_hold_their_subsections(tmp_path):
    doc = pymupdf.open()
    filing_page(doc, "PART I", [("ITEM 1.", "BUSINESS", ["Overview", "Competition"])], 0)
    filing_page(doc, None, [("ITEM 2.", "PROPERTIES", ["Resorts"])], 1)
    filing_page(doc, "PART II", [("ITEM 5.", ITEM_5, ["Common Stock Information", "Dividend Policy"])], 2)
    filing_page(doc, None, [("ITEM 6.", "SELECTED FINANCIAL DATA", ["Overview"])], 3)
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert f"ITEM 5. {ITEM_5}" in headings, headings
    assert not any(b.text.startswith("MARKET FOR") for b in blocks)
    dividend = next(b for b in blocks if b.kind == "heading" and b.text == "Dividend Policy")
    assert dividend.path[-3:] == ("PART II", f"ITEM 5. {ITEM_5}", "Dividend Policy")
    resorts = next(b for b in blocks if b.kind == "heading" and b.text == "Resorts")
    assert resorts.path[-3:] == ("PART I", "ITEM 2. PROPERTIES", "Resorts")
    overview = [b.path[-2:] for b in blocks if b.kind == "heading" and b.text == "Overview"]
    assert overview == [("ITEM 1. BUSINESS", "Overview"), ("ITEM 6. SELECTED FINANCIAL DATA", "Overview")]


def test_a_plain_label_beside_text_is_no_heading(tmp_path):
    # A contents page lists "Item 5." and its title in plain type: no heading is made of it, and
    # a heading that opens with a label but numbers no series ranks as any other of its type.
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Contents")
    for n, title in enumerate(("Business", "Properties", "Legal Proceedings"), start=1):
        page.y += 14
        page.text(60, page.y, f"Item {n}.")
        page.text(120, page.y, title)
    page.heading("Section 3 Scope")
    page.para(prose(60))
    page.heading("Overview")
    page.para(prose(60, 1))
    _, blocks = load(doc, tmp_path)
    headings = [b for b in blocks if b.kind == "heading"]
    assert [b.text for b in headings] == ["Contents", "Section 3 Scope", "Overview"]
    assert headings[1].level == headings[2].level


def test_parts_on_a_contents_page_head_nothing(tmp_path):
    # The contents page sets "PART I" and "PART II" in capitals over plain "Item N." entries, each
    # with its title, its page number and a line on what it holds: entries, not headings, or its
    # PART II would hold Items 1 and 2.
    doc = pymupdf.open()
    page = Page(doc)
    page.y = 200
    for part, items in (("PART I", ("Business", "Properties")), ("PART II", ("Market", "Selected Data"))):
        page.y += 30
        page.text(60, page.y, part)
        for title in items:
            page.y += 24
            page.text(70, page.y, f"Item {len(title)}.")
            page.text(130, page.y, title)
            page.text(500, page.y, str(3 + len(title)))
            page.y += 12
            page.text(130, page.y, f"What the {title.lower()} section reports on, in short.", size=8)
    filing_page(doc, "PART I", [("ITEM 1.", "BUSINESS", ["Overview"])], 0)
    filing_page(doc, None, [("ITEM 2.", "PROPERTIES", ["Resorts"])], 1)
    filing_page(doc, "PART II", [("ITEM 5.", "MARKET", ["Dividend Policy"])], 2)
    _, blocks = load(doc, tmp_path)
    assert not [b.text for b in blocks if b.kind == "heading" and b.page == 1]
    resorts = next(b for b in blocks if b.kind == "heading" and b.text == "Resorts")
    assert resorts.path[1:] == ("PART I", "ITEM 2. PROPERTIES", "Resorts")


def test_items_in_plain_type_leave_their_part_a_heading(tmp_path):
    # A 10-Q sets its items in plain type, each over the prose that answers it: no contents page,
    # and the bold "Part II - Other Information" over them stays a heading.
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Part I - Financial Information")
    page.para(prose(50))
    page.heading("Part II - Other Information")
    for n, title in enumerate(("Legal Proceedings.", "Risk Factors.", "Defaults.", "Exhibits."), start=1):
        page.y += 14
        page.text(60, page.y, f"Item {n}. {title}")
        page.para(prose(30, n))
    _, blocks = load(doc, tmp_path)
    assert "Part II - Other Information" in [b.text for b in blocks if b.kind == "heading"]


def test_a_contracts_short_sections_are_no_contents_page(tmp_path):
    # A contract's sections are a line or two each, their titles run into their text: prose, not
    # contents entries, so the page's bold ARTICLE headings stay headings.
    doc = pymupdf.open()
    page = doc.new_page()
    y = 80.0
    for article, title, sections in (
        (
            "ARTICLE I",
            "DEFINITIONS AND TERM",
            [
                "1.1 Term. This Agreement starts on the Effective Date.",
                "1.2 Renewal. It renews each year unless ended.",
                "1.3 Notices. Notices are given in writing.",
            ],
        ),
        (
            "ARTICLE II",
            "PAYMENT",
            ["2.1 Fees. The Client pays the fees in Schedule A.", "2.2 Taxes. Fees exclude taxes."],
        ),
    ):
        for line in (article, title):
            page.insert_text((72, y), line, fontname="hebo", fontsize=12)
            y += 18
        y += 12
        for section in sections:
            page.insert_text((72, y), f"Section {section}", fontname="helv", fontsize=11)
            y += 34  # a paragraph each
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == ["ARTICLE I DEFINITIONS AND TERM", "ARTICLE II PAYMENT"], headings
    fees = next(b for b in blocks if b.text.startswith("Section 2.1"))
    assert fees.path[-1] == "ARTICLE II PAYMENT"


def test_a_bold_sentence_that_opens_with_a_label_is_no_heading(tmp_path):
    # A form's instruction in bold: "Part 2" goes on in a lower-case word, as prose does, so the
    # label gives it no licence to be a heading that ends in a stop.
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Application for Membership", size=16)
    page.para(prose(40, 0))
    page.heading("Part 2 of this form must be completed by the employer of the applicant.")
    page.para(prose(40, 1))
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Application for Membership"]


def test_sections_numbered_afresh_in_each_chapter_sit_under_their_chapter(tmp_path):
    # Four chapters, each with a Section 1 and a Section 2: the sections' numbers are fewer than
    # the chapters', their headings are not.
    doc = pymupdf.open()
    for c, chapter in enumerate(("Origins", "Growth", "Crisis", "Renewal"), start=1):
        page = Page(doc)
        page.heading(f"Chapter {c}. {chapter}")
        page.para(prose(50, c))
        for s, section in enumerate(("Early years", "Later years"), start=1):
            page.heading(f"Section {s}. {section}")
            page.para(prose(60, 10 * c + s))
    _, blocks = load(doc, tmp_path)
    later = [b.path[-2:] for b in blocks if b.kind == "heading" and b.text.startswith("Section 2")]
    assert later[1] == ("Chapter 2. Growth", "Section 2. Later years"), later
    chapters = [b.path[1:] for b in blocks if b.kind == "heading" and b.text.startswith("Chapter")]
    assert chapters == [
        ("Chapter 1. Origins",),
        ("Chapter 2. Growth",),
        ("Chapter 3. Crisis",),
        ("Chapter 4. Renewal",),
    ]


ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")


def test_a_heading_in_the_articles_type_after_the_last_article_stands_beside_them(tmp_path):
    # A contract's nine ARTICLEs in 12 pt bold, each holding its sections in 10 pt bold; after
    # ARTICLE IX, "SIGNATURES", "EXHIBIT A" and "Schedule of Definitions" set like the articles,
    # with no label: the articles' level, not under ARTICLE IX.
    doc = pymupdf.open()
    page = Page(doc)
    for k, roman in enumerate(ROMAN):
        if k and k % 3 == 0:
            page = Page(doc)
        page.heading(f"ARTICLE {roman}", size=12)
        page.heading(f"Section {k + 1}.1 Scope of the terms")
        page.para(prose(40, k))
    page = Page(doc)
    for title in ("SIGNATURES", "EXHIBIT A", "Schedule of Definitions"):
        page.heading(title, size=12)
        page.para(prose(30, len(title)))
    _, blocks = load(doc, tmp_path)
    levels = {b.text: (b.level, b.path[1:]) for b in blocks if b.kind == "heading"}
    article = levels["ARTICLE IX"][0]
    for title in ("SIGNATURES", "EXHIBIT A", "Schedule of Definitions"):
        assert levels[title] == (article, (title,)), levels[title]
    assert levels["Section 9.1 Scope of the terms"][1] == ("ARTICLE IX", "Section 9.1 Scope of the terms")


def test_items_set_centred_or_flush_left_stand_at_one_level(tmp_path):
    # A 10-K centres its short item titles ("ITEM 4. MINE SAFETY DISCLOSURES") and sets the long
    # ones flush left: one series, one level, neither item under the other.
    doc = pymupdf.open()
    items = ("ITEM 1. BUSINESS", "ITEM 4. MINE SAFETY", f"ITEM 5. {ITEM_5[:60]}", "ITEM 7. MANAGEMENT'S DISCUSSION")
    for k, item in enumerate(items):
        page = Page(doc)
        if k % 2:
            # centred over the prose, which runs from 60 to about 443
            page.text(251 - pymupdf.get_text_length(item, "hebo", 10) / 2, page.y + 14, item, font="hebo")
            page.y += 22
        else:
            page.heading(item)
        page.heading("Overview")
        for seed in range(3):
            page.para(prose(60, seed + 3 * k))
    _, blocks = load(doc, tmp_path)
    paths = [b.path[1:] for b in blocks if b.kind == "heading" and b.text.startswith("ITEM")]
    assert paths == [(item,) for item in items], paths


def test_items_in_plain_type_are_headings_when_they_number_a_series(tmp_path):
    # A 10-Q sets Part II's items in the body's own type, each alone on its line over the prose
    # that answers it: headings, as the series they number shows. An item whose title runs into its
    # answer ("Item 3. Defaults. None.") and a line of prose that opens with a reference stay prose.
    doc = pymupdf.open()
    page = Page(doc)
    titles = ("Item 1. Legal Proceedings.", "Item 1A. Risk Factors.", "Item 2. Unregistered Sales of Equity.")
    other_information(page, titles)
    page.para("Item 3. Defaults Upon Senior Securities. None.", gap=14)
    page.para("Item 6. Exhibits.", gap=4)
    page.para(prose(30, 5))
    page.para("Section 4 of the plan, as amended.", gap=4)
    page.para(prose(30, 6))
    _, blocks = load(doc, tmp_path)
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings[1:] == ["Part II - Other Information", *titles, "Item 6. Exhibits."]
    answer = next(b for b in blocks if b.text.startswith(prose(40, 1)[:30]))
    assert answer.path[-2:] == ("Part II - Other Information", "Item 1A. Risk Factors.")
    assert any(b.kind == "paragraph" and b.text.startswith("Item 3. Defaults") for b in blocks)


def test_a_reference_in_plain_type_numbers_no_series(tmp_path):
    # One line in plain type that opens with a label ("Item 7. See the annual report.") above prose:
    # no series of items, no heading.
    doc = pymupdf.open()
    page = Page(doc)
    page.heading("Overview")
    page.para(prose(50))
    page.para("Item 7. Management Discussion.", gap=4)
    page.para(prose(50, 2))
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Overview"]
