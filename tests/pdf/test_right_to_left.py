"""Right-to-left pages: tables read from the right, shaded cells kept whole, a cursive word cut
in two touching pieces read as one, glyphs a PDF painted out of place put back where the page
shows them. Each generated page holds only the evidence the rule reads."""

from __future__ import annotations

import pymupdf

from ingest.loaders import load_file
from tests.pdf.pages import load, prose

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # has Arabic and Persian glyphs
ROWS = (("تاریخ ارائه مدارک", "1403/09/19"), ("شماره جلسه کمیته عرضه", "436"), ("مشاور پذیرش", "کارگزاری آرمون بورس"))


def _rtl(page: pymupdf.Page, right: float, y: float, text: str, size: float = 11) -> None:
    """Right-to-left text ending at `right`, its glyphs painted left to right as most producers do."""
    font = pymupdf.Font(fontfile=FONT)
    x = right - font.text_length(text, fontsize=size)
    page.insert_text((x, y), text if text.isascii() else text[::-1], fontsize=size, fontname="dv", fontfile=FONT)


def _grid(page: pymupdf.Page, x0: float, x1: float, split: float, top: float, heights: list[float]) -> None:
    ys = [top]
    for h in heights:
        ys.append(ys[-1] + h)
    for y in ys:
        page.draw_line((x0, y), (x1, y), width=0.5)
    for x in (x0, split, x1):
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)


def test_a_right_to_left_table_reads_its_right_cell_first(tmp_path):
    # A form: the label in the right cell, its value in the left. A reader of the script takes
    # the label first, so the table's first column is the right-hand one.
    doc = pymupdf.open()
    page = doc.new_page()
    _grid(page, 80, 500, 280, 100, [24] * len(ROWS))
    for k, (label, value) in enumerate(ROWS):
        y = 100 + 24 * k + 16
        _rtl(page, 494, y, label)
        _rtl(page, 274, y, value)
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert [row[0] for row in tables[0].rows] == [label for label, _ in ROWS]
    assert tables[0].rows[0][1] == "1403/09/19"


def test_a_left_to_right_table_keeps_its_left_cell_first(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    rows = (("Date filed", "2024-12-09"), ("Meeting number", "436"), ("Adviser", "Armoon Brokerage"))
    _grid(page, 80, 500, 280, 100, [24] * len(rows))
    for k, (label, value) in enumerate(rows):
        page.insert_text((86, 100 + 24 * k + 16), label, fontsize=11)
        page.insert_text((286, 100 + 24 * k + 16), value, fontsize=11)
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert [row[0] for row in tables[0].rows] == [label for label, _ in rows]


def test_a_shaded_cell_shaded_again_line_by_line_stays_one_cell(tmp_path):
    # A word processor shades a label cell and, again, each line of its paragraph, in the same
    # colour: the inner fills show no edge, so the label wrapped over two lines is one cell, not
    # two rows with its second line under an empty value cell.
    doc = pymupdf.open()
    page = doc.new_page()
    shade = (0.9, 0.88, 0.93)
    heights = [24, 44, 24]
    _grid(page, 80, 500, 280, 100, heights)
    labels = (["Date filed"], ["How the base price is set", "after admission"], ["Adviser"])
    values = ("2024-12-09", "world prices", "Armoon Brokerage")
    top = 100.0
    for h, label, value in zip(heights, labels, values):
        page.draw_rect(pymupdf.Rect(280.5, top + 0.5, 499.5, top + h - 0.5), color=None, fill=shade, width=0)
        for k, text in enumerate(label):
            line = pymupdf.Rect(285, top + 1 + 21 * k, 495, top + 22 + 21 * k)
            page.draw_rect(line, color=None, fill=shade, width=0)
            page.insert_text((290, top + 16 + 21 * k), text, fontsize=11)
        page.insert_text((86, top + 16), value, fontsize=11)
        top += h
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    assert [row[-1] for row in tables[0].rows] == ["Date filed", "How the base price is set after admission", "Adviser"]
    assert all(row[0] for row in tables[0].rows)  # no row of a label's second line alone


def test_shading_over_another_colour_still_divides(tmp_path):
    # White cells painted over a grey table, on a white page: each white cell shows against the
    # grey painted between, so its edges still make the grid.
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(page.rect, color=None, fill=(1, 1, 1), width=0)
    page.draw_rect(pymupdf.Rect(80, 100, 500, 176), color=None, fill=(0.5, 0.5, 0.5), width=0)
    for r in range(3):
        for c, (a, b) in enumerate(((81, 279), (281, 499))):
            top = 101 + 25 * r
            page.draw_rect(pymupdf.Rect(a, top, b, top + 24), color=None, fill=(1, 1, 1), width=0)
            page.insert_text((a + 6, top + 16), f"cell {r} {c}", fontsize=11)
    _, blocks = load(doc, tmp_path)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1 and len(tables[0].rows) == 3


def test_a_cursive_word_in_two_touching_pieces_is_one_word(tmp_path):
    # "کالای" painted as two runs whose glyphs touch (the producer moved the pen between them):
    # joined letters on the page are one word, not "کالا ی".
    doc = pymupdf.open()
    page = doc.new_page()
    font = pymupdf.Font(fontfile=FONT)
    y = 100
    right = 500.0
    text = "شرکت بورس کالای ایران"
    for word in text.split():
        pieces = [word[:-1], word[-1]] if word == "کالای" else [word]
        for piece in pieces:
            width = font.text_length(piece, fontsize=12)
            page.insert_text((right - width, y), piece[::-1], fontsize=12, fontname="dv", fontfile=FONT)
            right -= width
        right -= font.text_length(" ", fontsize=12)
    page.insert_text((60, 140), prose(30), fontsize=10)
    _, blocks = load(doc, tmp_path)
    assert any(b.text == text for b in blocks), [b.text for b in blocks]


def test_glyphs_painted_out_of_place_read_as_the_page_shows_them(corpus):
    # The Persian prospectus's letterhead paints a word's final letter before the word
    # ("ی کالا" for "کالای") and lays a space over its letters; read right to left by the
    # glyphs' places, the title is as printed. Its table's label cells are shaded line by line
    # too: the wrapped labels stay whole, each beside its value.
    loaded = load_file(corpus / "docling/pdf/sources/right_to_left_03.pdf")
    texts = [b.text for b in loaded.blocks]
    assert "اميدنامه پذيرش در بازار اصلی - کالای داخلی" in texts
    table = [b for b in loaded.blocks if b.kind == "table"][-1]
    assert ("نحوة تعيين قيمت پايه پس از پذيرش کالا در بورس", "بر اساس قيمت های جهانی") in table.rows
    # The Egyptian programme sets a comma after a word and MuPDF returns it before ("،وعليه").
    text = " ".join(b.text for b in load_file(corpus / "docling/pdf/sources/right_to_left_02.pdf").blocks)
    assert text.startswith("وعليه، فإن الحكومة") and "،وعليه" not in text


def test_pieces_of_one_row_read_from_the_right(tmp_path):
    # A right-to-left page with a row of two short pieces set far apart (two blocks): the one on
    # the right is read first, as the lines of the paragraphs are.
    doc = pymupdf.open()
    page = doc.new_page()
    words = "تعتبر البرمجة من الأدوات القوية التي يمكن أن تعزز الإنتاجية وتساعد في إيجاد حلول فعالة".split()
    for k in range(6):
        _rtl(page, 520, 100 + 16 * k, " ".join(words[k % 3 : k % 3 + 10]))
    _rtl(page, 520, 220, "الرقم الأول")
    _rtl(page, 160, 220, "الرقم الثاني")
    _, blocks = load(doc, tmp_path)
    text = "\n".join(b.text for b in blocks)
    assert text.index("الرقم الأول") < text.index("الرقم الثاني"), text


A = "تعتبر البرمجة من الأدوات القوية التي يمكن أن تعزز الإنتاجية وتساعد في إيجاد حلول فعالة للمشكلات".split()
B = "يمتلك كل منهما ميزات فريدة تجعلها مثالية لتحليل البيانات مما يسهل على المحللين إجراء تحليلات معقدة".split()


def _ragged(words: list[str], width: float, n: int, size: float = 11) -> list[str]:
    font = pymupdf.Font(fontfile=FONT)
    out: list[str] = []
    cur: list[str] = []
    for w in words * 4:
        if cur and font.text_length(" ".join([*cur, w]), fontsize=size) > width:
            out.append(" ".join(cur))
            cur = []
        cur.append(w)
    return out[:n]


def test_two_right_to_left_columns_set_ragged_left_are_read_right_column_first(tmp_path):
    # Each line starts at its column's right edge and ends where its words do: MuPDF, which
    # groups lines from their left edges, makes a block of each row, one line of each column in
    # it. The lines stacked from one right edge are one column's, and the right column is read
    # first, each column one paragraph.
    doc = pymupdf.open()
    page = doc.new_page()
    width = 225.0
    right, left = _ragged(A, width, 8), _ragged(B, width, 8)
    for k, (a, b) in enumerate(zip(right, left)):
        _rtl(page, 540, 100 + 15 * k, a)
        _rtl(page, 540 - width - 30, 100 + 15 * k, b)
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks] == [" ".join(right), " ".join(left)]


def test_a_ragged_left_paragraph_is_one_paragraph_and_a_short_last_line_ends_it(tmp_path):
    # Lines of one right-to-left paragraph end at different places on the left (ragged), which
    # is no indent; the paragraph's short last line, closing a sentence, ends it.
    doc = pymupdf.open()
    page = doc.new_page()
    first = _ragged(A, 300, 5)
    first[-1] = " ".join(first[-1].split()[:2]) + "."
    second = _ragged(B, 300, 4)
    y = 100.0
    for text in first:
        _rtl(page, 540, y, text)
        y += 15
    for text in second:
        _rtl(page, 540, y, text)
        y += 15
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks] == [" ".join(first), " ".join(second)]


def test_an_english_line_quoting_an_arabic_phrase_reads_from_the_left(tmp_path):
    # MuPDF returns the word after the phrase as a piece of its own on the row; the row is
    # English, so that piece ends the line rather than opening it.
    doc = pymupdf.open()
    page = doc.new_page()
    lead = "The committee met in Cairo to discuss the proposal. " * 3
    html = f"<p style='font-size:11px'>{lead}The motto <span dir='rtl'>العلم نور</span> was printed on the banner.</p>"
    page.insert_htmlbox((72, 72, 520, 400), html)
    _, blocks = load(doc, tmp_path)
    text = " ".join(b.text for b in blocks)
    assert text.startswith(lead.strip()) and text.endswith("was printed on the banner."), text


def test_an_english_table_with_one_hebrew_column_keeps_its_left_cell_first(tmp_path):
    # The Hebrew names hold more letters than the English heads and numbers, but one column of
    # three is Hebrew: the table is English, read from the left.
    doc = pymupdf.open()
    page = doc.new_page()
    names = ("משה כהן ובניו", "שרה לוי ושות", "דוד מזרחי בעמ", "רחל אברהם")
    rows = [("ID", "Donor", "Amount"), *((str(k), name, str(100 * k)) for k, name in enumerate(names, start=1))]
    xs, top, height = (60, 120, 400, 520), 100, 22
    for k in range(len(rows) + 1):
        page.draw_line((xs[0], top + k * height), (xs[-1], top + k * height), width=0.5)
    for x in xs:
        page.draw_line((x, top), (x, top + height * len(rows)), width=0.5)
    for k, row in enumerate(rows):
        for j, cell in enumerate(row):
            if cell.isascii():
                page.insert_text((xs[j] + 4, top + k * height + 15), cell, fontsize=10)
            else:
                _rtl(page, xs[j + 1] - 4, top + k * height + 15, cell, size=10)
    page.insert_text((60, 260), prose(12), fontsize=11)
    _, blocks = load(doc, tmp_path)
    (table,) = [b for b in blocks if b.kind == "table"]
    assert table.rows[:2] == (("ID", "Donor", "Amount"), ("1", names[0], "100")), table.rows
