"""Text-layer quality as a fact of every PDF page (#25 items 1 and 6), on copies of corpus PDFs
made here with pymupdf: cut short, fonts stripped of their Unicode maps, pages rasterised with a
stamp line of real text left on them."""

from __future__ import annotations

import re
import sqlite3

import pymupdf
import pytest

from ingest.errors import LoaderError, UnreadableText
from ingest.loaders import load_bytes, load_file, local_document
from ingest.loaders.options import LoaderOptions, PdfOptions
from ingest.loaders.pdf.text_layer import character_counts, glyph_code_shaped, judge_page
from tests.local_job import ingest, write_config

MULTI_PAGE = "docling/pdf/sources/multi_page.pdf"  # simple TrueType subset fonts
CUT_SHORT = [
    MULTI_PAGE,
    "unstructured/example-docs/pdf/list-item-example.pdf",  # Type0 fonts, Identity-H
    "unstructured/example-docs/pdf/interface-config-guide-p93.pdf",
    "freelaw_doctor/doctor/test_assets/recap_documents/ca5_00516242060.pdf",
    "docling/pdf/sources/skipped_1page.pdf",  # Korean
    "docling/pdf/sources/right_to_left_02.pdf",  # Arabic
]
STAMP = "Case 1:09-cv-01234 Document 12 Filed 2/2/09"


NO_OCR = LoaderOptions(pdf=PdfOptions(ocr="never"))
"""What the loader does where it does not OCR (`pdf: {ocr: never}`, or no OCR extra installed)."""


def load_variant(path, data: bytes, options: LoaderOptions = NO_OCR):
    return load_bytes(data, local_document(path, data, path.stat().st_mtime), options)


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text))


def strip_unicode_maps(data: bytes) -> bytes:
    """The PDF with every font's ToUnicode map removed, as some PDF writers leave their fonts."""
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for xref in range(1, doc.xref_length()):
            if doc.xref_get_key(xref, "ToUnicode")[0] != "null":
                doc.xref_set_key(xref, "ToUnicode", "null")
        return doc.tobytes()


def rasterised(data: bytes, pages: set[int], stamp: str | None = STAMP) -> bytes:
    """The PDF with `pages` (0-based) replaced by an image of themselves, as a scanner gives them,
    and a court's e-filing stamp written as one line of real text at the top of each."""
    out = pymupdf.open()
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for k, page in enumerate(doc):
            if k not in pages:
                out.insert_pdf(doc, from_page=k, to_page=k)
                continue
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=page.get_pixmap(dpi=60))
            if stamp:
                new.insert_text((40, 20), f"{stamp} Page {k + 1}", fontsize=9)
    return out.tobytes()


@pytest.mark.parametrize("name", CUT_SHORT)
def test_a_pdf_cut_short_never_indexes_cipher(corpus, name):
    """Cut at 40, 60 and 80% of its bytes, a PDF is refused naming the file, or what it gives is
    the original's text (words it had), with a warning naming the file as damaged."""
    path = corpus / name
    data = path.read_bytes()
    good = load_file(path)
    good_words = words(" ".join(b.text for b in good.blocks))
    for share in (0.4, 0.6, 0.8):
        try:
            loaded = load_variant(path, data[: int(len(data) * share)])
        except LoaderError as exc:
            assert path.name in str(exc)
            continue
        got = words(" ".join(b.text for b in loaded.blocks))
        assert len(got - good_words) <= 0.05 * len(got), (share, sorted(got - good_words)[:20])
        # Cut short, it lost its cross-reference table: read, but said to be damaged, never silent.
        assert any(path.name in w and "the file is damaged" in w for w in loaded.warnings), (share, loaded.warnings)


def test_the_issue_case_fails_saying_the_file_is_damaged(corpus):
    path = corpus / MULTI_PAGE
    data = path.read_bytes()
    with pytest.raises(UnreadableText, match=r"multi_page\.pdf: the text layer cannot be read \(the file is damaged"):
        load_variant(path, data[: int(len(data) * 0.4)])


@pytest.mark.parametrize(
    "name, reason",
    [
        (MULTI_PAGE, r"letters or digits"),  # simple fonts: codes read as punctuation
        ("docling/pdf/sources/right_to_left_02.pdf", r"not text"),  # Type0 fonts: glyph ids
        # Type0 subset fonts, Identity-H: glyph ids read as letters shifted by 29 ("7LWOH" for "Title")
        ("unstructured/example-docs/pdf/list-item-example.pdf", r"glyph codes"),
        ("unstructured/example-docs/pdf/header-test-doc.pdf", r"glyph codes"),
    ],
)
def test_fonts_without_a_unicode_map_fail_the_document(corpus, name, reason):
    path = corpus / name
    with pytest.raises(UnreadableText, match=rf"{re.escape(path.name)}: the text layer cannot be read: .*{reason}"):
        load_variant(path, strip_unicode_maps(path.read_bytes()))


def test_olmocr_earnings_without_unicode_maps_fails(shared):
    path = shared / "pdfeval/olmocr/pdfs/earnings.pdf"
    with pytest.raises(UnreadableText, match=r"earnings\.pdf.*not text.*OCR"):
        load_variant(path, strip_unicode_maps(path.read_bytes()))


def test_a_garbage_page_in_a_readable_pdf_is_skipped_with_a_warning(corpus):
    """One page whose fonts lost their maps among good pages: its cipher is not indexed, the rest is."""
    path = corpus / MULTI_PAGE
    good = path.read_bytes()
    with (
        pymupdf.open(stream=good, filetype="pdf") as doc,
        pymupdf.open(stream=strip_unicode_maps(good), filetype="pdf") as bad,
    ):
        doc.insert_pdf(bad, from_page=4, to_page=4)  # a sixth page: the fifth, without its maps
        data = doc.tobytes()
    loaded = load_variant(path, data)
    assert len(loaded.warnings) == 1 and "page 6 skipped: the text layer cannot be read" in loaded.warnings[0]
    assert max(b.page for b in loaded.blocks) == 5
    assert words(" ".join(b.text for b in loaded.blocks)) <= words(" ".join(b.text for b in load_file(path).blocks))


def test_a_scan_with_a_stamp_line_warns_for_every_page_and_the_stamp_heads_nothing(corpus):
    path = corpus / MULTI_PAGE
    loaded = load_variant(path, rasterised(path.read_bytes(), {0, 1}, STAMP))
    [warning] = [w for w in loaded.warnings if "scanned" in w]
    assert "multi_page.pdf: pages 1, 2 are scanned images" in warning and "OCR" in warning
    assert not [b for b in loaded.blocks if b.page in (1, 2) and b.kind == "heading"]
    assert all(not any(STAMP in part for part in b.path) for b in loaded.blocks)
    stamps = [b for b in loaded.blocks if b.page in (1, 2)]
    assert stamps and all(STAMP in b.text for b in stamps)  # the stamp's words are kept, as text


def test_a_rasterised_page_in_a_text_pdf_is_named_and_the_rest_keeps_its_headings(corpus):
    path = corpus / MULTI_PAGE
    good = load_file(path)
    loaded = load_variant(path, rasterised(path.read_bytes(), {2}, STAMP))
    [warning] = loaded.warnings
    assert ": page 3 is a scanned image (an image fills" in warning
    kept = [b.text for b in good.blocks if b.kind == "heading" and b.page != 3]
    assert [b.text for b in loaded.blocks if b.kind == "heading"] == kept


def test_the_court_filing_of_two_scanned_pages_warns_for_both(corpus):
    """#25 item 6: two image pages with e-filing stamps; "XXXXXXXX" (a redaction typed on page 1)
    was the document's heading and its only root."""
    path = corpus / "freelaw_doctor/doctor/test_assets/recap_extract/gov.uscourts.cand.203070.27.0.pdf"
    loaded = load_variant(path, path.read_bytes())
    [warning] = loaded.warnings
    assert "pages 1, 2 are scanned images" in warning and "OCR" in warning
    assert not [b for b in loaded.blocks if b.kind == "heading"]
    assert all(b.path == (loaded.document.title,) for b in loaded.blocks)
    assert loaded.document.title != "XXXXXXXX"


def test_an_ocred_scan_is_usable():
    """A scan with an invisible OCR text layer over the image is text: its lines cover the page."""
    line = (50.0, 0.0, 550.0, 14.0)
    boxes = [(line[0], y, line[2], y + 14.0) for y in range(60, 760, 18)]
    text = "The quarterly report shows revenue growth in every region. " * 40
    verdict = judge_page(1, text, boxes, 612.0 * 792.0, lambda: 1.0)
    assert verdict.usable and verdict.verdict == "usable"


@pytest.mark.parametrize(
    "text",
    [
        "Net revenue (1,234) 5,678 (9.0)% $ 12,345 — 6.7 % ...................... 12",  # a statement
        "Introduction .................................................... 1\nMethods ........ 7",  # contents
        "∀x ∈ ℝ: f(x) = ∑ᵢ aᵢ xⁱ ≤ ‖x‖² + (α·β)/γ, where α, β, γ > 0",  # a formula
        "ভারতের প্রথম প্রধানমন্ত্রী জওহরলাল নেহরু ছিলেন।",  # Bengali: vowel signs are marks
        "उत्तर प्रदेश भारत का सबसे अधिक जनसंख्या वाला राज्य है।",  # Hindi
    ],
)
def test_dense_real_text_is_usable(text):
    assert judge_page(1, text, [(0, 0, 600, 700)], 612.0 * 792.0, lambda: 0.0).usable


def test_character_counts_read_leaders_once_and_control_codes_as_no_text():
    assert character_counts("Name ........ 12") == (7, 0, 6)  # the leader counts as one "."
    chars, unmapped, letters = character_counts("7KH\x03\x15\x13\x030RVW")
    assert (chars, unmapped) == (11, 4)


def test_a_truncated_copy_over_a_good_file_keeps_its_chunks(tmp_path, corpus):
    """#25 item 1 through `ingest run` twice: the good PDF, then its first 40% saved over it. The
    second run fails naming the file (exit 1) and the index still holds the good chunks."""
    docs = tmp_path / "docs"
    docs.mkdir()
    good = (corpus / MULTI_PAGE).read_bytes()
    target = docs / "multi_page.pdf"
    target.write_bytes(good)
    cfg = write_config(tmp_path, docs)
    index = tmp_path / "index.sqlite"

    def stored() -> list[str]:
        with sqlite3.connect(index) as db:
            return [row[0] for row in db.execute("SELECT text FROM chunks ORDER BY chunk_index")]

    first = ingest("run", cfg, "--quiet", "--log-format", "text")
    assert first.returncode == 0, first.stderr
    before = stored()
    assert len(before) >= 5 and "word processor" in " ".join(before).lower()
    target.write_bytes(good[: int(len(good) * 0.4)])
    summary = tmp_path / "summary.json"
    second = ingest("run", cfg, "--quiet", "--log-format", "text", "--summary-json", summary)
    assert second.returncode == 1, second.stderr
    assert "multi_page.pdf" in second.stderr and "the file is damaged" in second.stderr
    assert stored() == before
    assert '"failed": 1' in summary.read_text()


def test_a_scan_warning_is_in_the_run_log_and_summary(tmp_path, corpus):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "filing.pdf").write_bytes(rasterised((corpus / MULTI_PAGE).read_bytes(), {0, 1}, STAMP))
    summary = tmp_path / "summary.json"
    config = write_config(tmp_path, docs, extra="pdf: {ocr: never}\n")
    proc = ingest("run", config, "--quiet", "--log-format", "text", "--summary-json", summary)
    assert proc.returncode == 0, proc.stderr
    assert "filing.pdf" in proc.stderr and "pages 1, 2 are scanned images" in proc.stderr
    assert "pages 1, 2 are scanned images" in summary.read_text() and '"warnings": 1' in summary.read_text()


SHIFTED = "0RGXOH 2QH ,QWURGXFWLRQ WR 3URGXFW 'HYHORSPHQW DQG 4XDOLW\\ $VVXUDQFH 7KLV PRGXOH FRYHUV"
"""'Module One Introduction to Product Development and Quality Assurance This module covers' as a
subset font's glyph ids give it without the font's Unicode map."""


def test_glyph_ids_read_as_letters_are_garbage_only_from_a_font_without_a_unicode_map():
    assert glyph_code_shaped(SHIFTED)
    box = [(0.0, 0.0, 500.0, 12.0)] * 10
    garbage = judge_page(1, SHIFTED, box, 600 * 800, lambda: 0.0, unmapped_fonts=lambda: True)
    assert garbage.verdict == "garbage" and "glyph codes" in garbage.why
    # Every font maps its glyphs: capitals glued to digits are what the page says.
    assert judge_page(1, SHIFTED, box, 600 * 800, lambda: 0.0, unmapped_fonts=lambda: False).usable


@pytest.mark.parametrize(
    "text",
    [
        'THIS AGREEMENT (THE "AGREEMENT") IS MADE BETWEEN ACME CORP. ("ACME") AND THE BUYER ("BUYER") '
        "AS OF 1 JANUARY 2024. THE SELLER SHALL DELIVER THE GOODS IN ACCORDANCE WITH SECTION 4.",
        "Net revenue (GAAP) rose 12% to $4,512 million; adjusted EBITDA (non-GAAP) was $1,020 million.",
        "ICT 기술변화에 따른 미래 보안기술 전망 보고서 보안분야 기술 동향과 전망",
    ],
)
def test_capitals_symbols_and_uncased_scripts_are_not_glyph_codes(text):
    assert not glyph_code_shaped(text)


def test_a_composite_font_without_a_unicode_map_that_maps_its_glyphs_itself_is_read(corpus):
    """skipped_1page's Korean fonts are Type0, Identity-H, with no ToUnicode as written: MuPDF reads
    the embedded fonts' own tables, and the text is Korean, not glyph codes."""
    loaded = load_file(corpus / "docling/pdf/sources/skipped_1page.pdf")
    assert "보안기술" in " ".join(b.text for b in loaded.blocks)
