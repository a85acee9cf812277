"""Chinese, Japanese and Korean pages, written with pymupdf's built-in CJK fonts: lines wrapped
inside a sentence join with no space, headings are found by size, chunks end at CJK stops, and two
columns set solid with a gutter under an em are read one after the other."""

from __future__ import annotations

import pymupdf

from ingest.chunker import ChunkOptions, chunk
from tests.pdf.pages import load

ZH = (
    "本报告介绍了北方地区水质调查的主要结果。大多数水井符合标准，但旧工厂附近的几口井含铁量超过限值，"
    "已经关闭维修。调查人员在三个季度内采集了样本！结果是否可靠？专家认为数据质量良好。"
)
ZH_B = "专家建议每月检测一次水质并公布结果，居民可以在网站上查询。" * 4
JA = "日本語の文書では単語の間に空白を入れません。行の終わりで文が続いても空白は入りません。" * 3
JA_B = "別の段落は右の段に組まれています。読む順序は左の段の後です。" * 3
KO = (
    "이 보고서는 북부 지역의 수질 조사 결과를 소개합니다. 대부분의 우물은 기준을 충족했지만 오래된 공장 "
    "근처의 몇몇 우물은 철분 함량이 한도를 초과하여 수리를 위해 폐쇄되었습니다. 조사원들은 세 분기 동안 "
    "표본을 채취했습니다."
)
KO_B = "전문가들은 매달 한 번씩 수질을 검사하고 결과를 공개할 것을 권고했습니다. 주민들은 웹사이트에서 결과를 확인할 수 있습니다."

KO_WORDS = "대한민국의 경제는 지난해 수출 증가에 힘입어 꾸준히 성장하였다"


def _wrap(text: str, n: int) -> list[str]:
    return [text[i : i + n].strip() for i in range(0, len(text), n)]


def _two_columns(font: str, left: str, right: str, per_line: int, gutter: float, size: float = 10) -> pymupdf.Document:
    # The producer sets the page row by row, left line then right line, and MuPDF puts both
    # columns' lines in one block: only the gutter tells them apart.
    doc = pymupdf.open()
    page = doc.new_page()
    a, b = _wrap(left, per_line), _wrap(right, per_line)
    for k in range(max(len(a), len(b))):
        y = 100 + 14 * k
        if k < len(a):
            page.insert_text((60, y), a[k], fontsize=size, fontname=font)
        if k < len(b):
            page.insert_text((60 + per_line * size + gutter, y), b[k], fontsize=size, fontname=font)
    return doc


def test_a_chinese_paragraph_wrapped_over_lines_joins_with_no_space(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((60, 80), "第一章 调查结果", fontsize=16, fontname="china-s")
    for k, line in enumerate(_wrap(ZH, 30)):
        page.insert_text((60, 110 + 14 * k), line, fontsize=10, fontname="china-s")
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks if b.kind == "heading"] == ["第一章 调查结果"]
    assert [b.text for b in blocks if b.kind == "paragraph"] == [ZH]


def test_chunks_of_chinese_text_end_at_its_full_stops(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    for k, line in enumerate(_wrap(ZH * 6, 30)):
        page.insert_text((60, 80 + 14 * k), line, fontsize=10, fontname="china-s")
    loaded, blocks = load(doc, tmp_path)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=80, min_tokens=0, overlap_tokens=20), blocks=blocks))
    assert len(chunks) > 3
    stops = tuple("。！？")
    for c in chunks:
        body = c.text.split("\n")[-1]
        assert body.endswith(stops), body  # a chunk never ends inside a sentence
        assert body[:1] != "，"


def test_two_chinese_columns_a_narrow_gutter_apart_are_read_in_turn(tmp_path):
    doc = _two_columns("china-s", ZH, ZH_B, 20, gutter=8)
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks] == [ZH, ZH_B.rstrip()]


def test_two_japanese_columns_a_narrow_gutter_apart_are_read_in_turn(tmp_path):
    doc = _two_columns("japan", JA, JA_B, 20, gutter=8)
    _, blocks = load(doc, tmp_path)
    text = "\n".join(b.text for b in blocks)
    assert JA in text and JA_B in text


def test_two_korean_columns_a_narrow_gutter_apart_are_read_in_turn(tmp_path):
    doc = _two_columns("korea", KO, KO_B, 24, gutter=8)
    _, blocks = load(doc, tmp_path)
    texts = [b.text for b in blocks]
    assert len(texts) == 2, texts
    # (The test wraps lines inside words, so the joins hold spaces the text has not.)
    assert [t.replace(" ", "") for t in texts] == [KO.replace(" ", ""), KO_B.replace(" ", "")]


def test_a_latin_line_with_a_gap_under_an_em_stays_one_line(tmp_path):
    # A justified Latin line may space its words wide: a gap under an em is no gutter there.
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((60, 100), "The survey of water quality in", fontsize=10)
    page.insert_text(
        (60 + pymupdf.get_text_length("The survey of water quality in", fontsize=10) + 7, 100),
        "the northern district found",
        fontsize=10,
    )
    page.insert_text((60, 114), "that most wells met the standard.", fontsize=10)
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks] == [
        "The survey of water quality in the northern district found that most wells met the standard."
    ]


def test_korean_words_painted_apart_keep_their_spaces(tmp_path):
    # Each word painted at its own place, no space glyph between: MuPDF returns the syllables
    # run together; the gaps are the page's word spaces.
    doc = pymupdf.open()
    page = doc.new_page()
    font = pymupdf.Font("korea")
    text = KO_WORDS
    x = 60.0
    for word in text.split():
        page.insert_text((x, 100), word, fontname="korea", fontsize=11)
        x += font.text_length(word, fontsize=11) + 4.0
    _, blocks = load(doc, tmp_path)
    assert [b.text for b in blocks] == [text]


def test_a_broken_unicode_map_half_of_a_surrogate_pair_is_no_text(corpus, tmp_path):
    # A Korean deck whose font maps a glyph to a lone high surrogate: the spaces put back between
    # Hangul words are read from the glyphs, where MuPDF leaves the surrogate in; unencodable, it
    # failed the whole document when the chunk's id was hashed.
    for name in ("skipped_1page.pdf", "skipped_2pages.pdf"):
        doc = pymupdf.open(corpus / "docling" / "pdf" / "sources" / name)
        loaded, blocks = load(doc, tmp_path, name)
        text = "\n".join(c.text for c in chunk(loaded, ChunkOptions(overlap_tokens=0), blocks))
        text.encode()
        assert "방지 기술" in text


def test_korean_words_painted_apart_keep_their_spaces_in_a_ruled_tables_cells(tmp_path):
    # The same painting inside a ruled table: its cells are filled from MuPDF's words, which ran
    # each cell's syllables together ("지역이름").
    doc = pymupdf.open()
    _korean_table(doc.new_page(), ROWS, 100.0)
    _, blocks = load(doc, tmp_path)
    assert [b.rows for b in blocks if b.kind == "table"] == [ROWS]


def test_a_korean_page_reads_its_glyphs_once_for_its_lines_and_its_tables_cells(tmp_path, monkeypatch):
    # The spaces of the page's lines and of its table's cells come from one character-level
    # read of the page ("rawdict", the costly one), not one read per pass that needs it.
    doc = pymupdf.open()
    page = doc.new_page()
    _korean_table(page, ROWS, 100.0)
    _korean_words(page, 60.0, 200.0, KO_WORDS)
    reads = []
    read = pymupdf.TextPage.extractRAWDICT
    monkeypatch.setattr(pymupdf.TextPage, "extractRAWDICT", lambda self, *a: reads.append(1) or read(self, *a))
    _, blocks = load(doc, tmp_path)
    assert [b.rows for b in blocks if b.kind == "table"] == [ROWS]
    assert [b.text for b in blocks if b.kind == "paragraph"] == [KO_WORDS]
    assert len(reads) == 1


ROWS = (("지역 이름", "조사 결과 요약"), ("북부 지역", "대부분 기준 충족"), ("남부 지역", "일부 우물 폐쇄"))


def _korean_words(page: pymupdf.Page, x: float, y: float, text: str, size: float = 10) -> None:
    """Each word painted at its own place, no space glyph between."""
    font = pymupdf.Font("korea")
    for word in text.split():
        page.insert_text((x, y), word, fontname="korea", fontsize=size)
        x += font.text_length(word, fontsize=size) + 4.0


def _korean_table(page: pymupdf.Page, rows: tuple[tuple[str, ...], ...], top: float) -> None:
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            _korean_words(page, 65.0 + c * 200, top + r * 20 + 14, text)
    for r in range(len(rows) + 1):
        page.draw_line((60, top + r * 20), (460, top + r * 20), width=0.5)
    for x in (60, 260, 460):
        page.draw_line((x, top), (x, top + 20 * len(rows)), width=0.5)
