"""OCR of scanned PDF pages (#26): pages of corpus text PDFs rendered as a scanner would give them,
read back offline, and scored against the same pages' own text layer."""

from __future__ import annotations

import pytest

from ingest.config import Config
from ingest.errors import ConfigError
from ingest.loaders import load_bytes, load_file, local_document
from ingest.loaders.options import LoaderOptions, PdfOptions
from ingest.loaders.pdf.hyphens import join_lines
from ingest.loaders.pdf.ocr import page_pixels, to_lines
from ingest.loaders.pdf.paragraphs import page_units
from ingest.ocr import engine
from ingest.ocr.engine import OcrLine
from tests.pdf.scans import STAMP, recall, scanned_pdf, text_page, words

MULTI_PAGE = "docling/pdf/sources/multi_page.pdf"  # prose under numbered headings
BOOKMARKS = "docling/pdf/bookmark_sample.pdf"  # a short page: a title, a part heading, clauses
FRENCH = "unstructured/example-docs/language-docs/fr_olap.pdf"  # a paper's first page, in French


def load(path, data: bytes, ocr: str = "auto"):
    return load_bytes(data, local_document(path, data, 0), LoaderOptions(pdf=PdfOptions(ocr=ocr)))


def text_of(loaded, page: int) -> str:
    return " ".join(b.text for b in loaded.blocks if b.page == page)


@pytest.fixture(scope="module")
def no_downloads():
    """The engine built afresh with every download path of rapidocr made to fail: the models are
    the wheel's files, named by path, so nothing is fetched."""
    from rapidocr.utils import download_file

    def refuse(*args, **kwargs):
        raise AssertionError(f"rapidocr tried to download: {args} {kwargs}")

    saved = download_file.DownloadFile.run
    download_file.DownloadFile.run = staticmethod(refuse)
    engine._engine.cache_clear()
    try:
        yield
    finally:
        download_file.DownloadFile.run = saved


@pytest.mark.parametrize(("dpi", "floor"), [(300, 0.95), (150, 0.9)])
def test_a_scanned_page_reads_back_its_words(corpus, no_downloads, dpi, floor):
    """A page of 340 words of plain prose in a 10-point face: at 300 dpi a clean scan, at 150 dpi
    still some 20 pixels a line, which the detector and recogniser are trained on."""
    path = corpus / MULTI_PAGE
    truth = words(text_of(load_file(path), 1))
    loaded = load(path, scanned_pdf(path, [0], dpi))
    assert recall(truth, text_of(loaded, 1)) >= floor
    assert loaded.blocks and all(b.meta.get("ocr") is True for b in loaded.blocks)
    assert all(0.9 <= b.meta["ocr_confidence"] <= 1 for b in loaded.blocks)  # a clean render
    assert not loaded.warnings


def test_a_scan_with_a_stamp_line_is_ocred_in_auto_mode_and_not_in_never(corpus, no_downloads):
    """The stamp's one line of real text is no text layer of the page: auto reads the image, with
    the page's headings found as on text; never keeps the stamp only, and says so."""
    path = corpus / BOOKMARKS
    data = scanned_pdf(path, [0], 300, STAMP)
    truth = words(text_of(load_file(path), 1))

    auto = load(path, data)
    assert recall(truth, text_of(auto, 1)) >= 0.95
    assert all(b.meta.get("ocr") is True for b in auto.blocks)
    # The page's part title, larger than its clauses, heads them (OCR may drop a space at the dash).
    assert ["part", "i", "definitions"] in [words(b.text) for b in auto.blocks if b.kind == "heading"]
    assert not [w for w in auto.warnings if "scanned" in w]

    never = load(path, data, "never")
    assert [b.text for b in never.blocks] == [f"{STAMP} Page 1"]
    assert not [b for b in never.blocks if b.meta.get("ocr")]
    [warning] = never.warnings
    assert "page 1 is a scanned image" in warning


def test_always_reads_a_text_page_by_ocr(corpus):
    path = corpus / BOOKMARKS
    data = path.read_bytes()
    loaded = load(path, data, "always")
    assert {b.page for b in loaded.blocks} == {1, 2, 3}
    assert all(b.meta.get("ocr") is True for b in loaded.blocks)
    assert recall(words(text_of(load_file(path), 2)), text_of(loaded, 2)) >= 0.95


def test_without_the_ocr_extra_a_scan_page_says_how_to_install_it(corpus, monkeypatch):
    monkeypatch.setattr(engine, "available", lambda: False)
    monkeypatch.setattr("ingest.loaders.pdf.ocr.available", lambda: False)
    path = corpus / MULTI_PAGE
    with pymupdf_doc(path) as doc, pymupdf_doc(scanned_pdf(path, [1], 100)) as scan:
        doc.insert_pdf(scan)
        data = doc.tobytes()
    loaded = load(path, data)
    assert any("page 6 is a scanned image" in w for w in loaded.warnings)
    assert any("page 6 not OCRed" in w and "pip install 'ingest[ocr]'" in w for w in loaded.warnings)
    assert max(b.page for b in loaded.blocks) == 5


def pymupdf_doc(source):
    import pymupdf

    return pymupdf.open(source) if not isinstance(source, bytes) else pymupdf.open(stream=source, filetype="pdf")


def test_pdf_options_are_checked_and_part_of_the_loader_options():
    config = Config.model_validate(
        {"source": {"local": {"path": "."}}, "pdf": {"ocr": "never", "ocr_languages": ["en", "de"]}}
    )
    assert config.loader_options().pdf == PdfOptions(ocr="never", ocr_languages=("en", "de"))
    assert Config.model_validate({"source": {"local": {"path": "."}}}).loader_options().pdf.ocr == "auto"
    with pytest.raises((ValueError, ConfigError)):
        Config.model_validate({"source": {"local": {"path": "."}}, "pdf": {"ocr": "sometimes"}})
    with pytest.raises((ValueError, ConfigError)):
        Config.model_validate({"source": {"local": {"path": "."}}, "pdf": {"ocr_languages": []}})


def test_a_paragraph_line_the_detector_boxes_taller_stays_in_its_paragraph():
    """Boxes measured on a page of French prose rendered at 200 dpi: the detector pads one line of
    a paragraph (the one holding "(ap-") 35 pixels high among lines of 30; it is one block with
    the rest, in their size, so its line-end hyphen joins "algo-" + "rithme" as on text, while
    the heading above, apart by its space, keeps its larger size."""
    scale = 72 / 200
    heading = OcrLine("1 Introduction", (299, 1358, 520, 1400), 1.0)
    rows = [(1430, 30), (1463, 30), (1496, 35), (1532, 33), (1566, 30)]
    texts = ["Dans cet article, nous développons", "OLAP (Aligon et al., 2010a), où (ap-", "pelé QSL) un algo-"]
    texts += ["rithme glouton de construction", "automatique de résumés."]
    body = [OcrLine(t, (303, y, 1700, y + h), 0.99) for t, (y, h) in zip(texts, rows, strict=True)]
    lines = to_lines([heading, *body], scale).lines
    assert [ln.text for ln in lines] == [heading.text, *texts]
    top, *paragraph = lines
    assert len({ln.block for ln in paragraph}) == 1 and top.block != paragraph[0].block
    assert len({ln.size for ln in paragraph}) == 1
    assert top.size > paragraph[0].size
    assert "un algorithme glouton" in join_lines([ln.text for ln in paragraph])


def test_no_line_of_an_upright_page_is_read_upside_down(corpus, no_downloads):
    """A page of French prose rendered upright: every line the engine reads holds the page's own
    words (a line turned over by a direction classifier reads as "eue u e n e u un e u ue")."""
    path = corpus / FRENCH
    truth = set(words(text_of(load_bytes(text_page(path, 0), local_document(path, text_page(path, 0), 0)), 1)))
    image, _ = page_pixels(pymupdf_doc(scanned_pdf(path, [0], 300))[0])
    found = [line.text for line in engine.read_image(image)]
    assert len(found) > 30
    strangers = [text for text in found if sum(w not in truth for w in words(text)) > 0.2 * len(words(text))]
    assert not strangers


def test_two_columns_of_prose_read_by_ocr_are_a_paragraph_each():
    """Two columns of ragged prose side by side (the Pew report's text beside a chart, boxes in
    pixels at 200 dpi): the lines come back column by column, as MuPDF gives a text layer's
    blocks, so the page's line pitch is a column's own and each column is one paragraph, not a
    paragraph a line (lines interleaved top to bottom measured a pitch of a fraction of a line)."""
    scale = 72 / 200
    left = ["Three years into a turbulent", "period of American-German", "relations, with Donald Trump"]
    left += ["at the helm of American foreign", "policy and Angela Merkel", "leading Germany, there"]
    right = ["Most Americans say relations with", "Germany are good, while most", "Germans say they are bad, a"]
    right += ["gap that has held for three", "years of the survey and more", "in both publics alike."]
    found = [OcrLine(t, (180, 480 + 44 * k, 180 + 14 * len(t), 514 + 44 * k), 0.99) for k, t in enumerate(left)]
    found += [OcrLine(t, (900, 492 + 44 * k, 900 + 14 * len(t), 526 + 44 * k), 0.99) for k, t in enumerate(right)]
    lines = to_lines(found, scale).lines
    assert [ln.text for ln in lines] == left + right
    units = page_units(lines, [], 1)
    assert [u.text for u in units] == [join_lines(left), join_lines(right)]


def test_a_short_line_boxed_a_quarter_taller_is_body_type_and_a_larger_heading_is_not():
    """Boxes at 200 dpi on a page whose lines are 30 pixels high (10.9-point type): a table's
    cell "Web pages" boxed 37 pixels (the detector's padding) is body type, no larger heading;
    "2 Background", set in 14-point type and boxed 42 pixels, stays larger than the body."""
    scale = 72 / 200
    body = [
        OcrLine(f"line {k} of the body's prose, long enough", (300, 400 + 40 * k, 1500, 430 + 40 * k), 0.99)
        for k in range(8)
    ]
    cell = OcrLine("Web pages", (300, 900, 480, 937), 0.99)
    heading = OcrLine("2 Background", (300, 1100, 560, 1142), 0.99)
    lines = {ln.text: ln for ln in to_lines([*body, cell, heading], scale).lines}
    usual = lines[body[0].text].size
    assert lines["Web pages"].size == usual
    assert lines["2 Background"].size >= 1.25 * usual


def test_a_line_opening_with_a_bold_lead_in_boxed_taller_runs_on_into_its_paragraph():
    """multi_page.pdf's list item at 200 dpi: its first line opens with a bold lead-in in
    parentheses, boxed 44 pixels among lines of 33, and its sentence runs on into the next line
    ("... Introduced in 1964, this" / "machine combined ..."): one block, in the body's size, so
    the line is no heading of its own."""
    scale = 72 / 200
    texts = ["IBM MT/ST (Magnetic Tape/Selectric Typewriter): Introduced in 1964, this"]
    texts += ["machine combined IBM's Selectric typewriter with magnetic tape storage, allowing", "users to edit text."]
    found = [OcrLine(texts[0], (292, 1170, 1364, 1214), 0.99)]
    found += [OcrLine(t, (297, 1214 + 36 * k, 1433, 1247 + 36 * k), 0.99) for k, t in enumerate(texts[1:])]
    lines = to_lines(found, scale).lines
    assert len({ln.block for ln in lines}) == 1
    assert len({ln.size for ln in lines}) == 1


def scanned(page, dpi: int) -> bytes:
    """`page` rendered at `dpi` and wrapped as the only image of an image-only letter page: a scan."""
    import pymupdf

    scan = pymupdf.open()
    scan.new_page(width=612, height=792).insert_image(scan[0].rect, pixmap=page.get_pixmap(dpi=dpi))
    return scan.tobytes()


def lead_in_page(dpi: int) -> bytes:
    """A page of 10-point Helvetica scanned at `dpi`: a paragraph, a bold heading, and a paragraph
    whose first line opens with a bold lead-in filling two thirds of it, then regular type."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    lines = [  # (space above, font, text)
        (0, "helv", "The first machines that stored text for editing were built for typists in large"),
        (0, "helv", "offices, where a letter was retyped whole for every change to a single word."),
        (0, "helv", "Storage on tape or cards let a typist correct a line and print the page again."),
        (7, "hebo", "Word Processors in the Office"),
        (7, "hebo", "Wang Laboratories, Massachusetts:"),
        (0, "helv", "Several typists shared one computer and its disks, and edited documents on screens"),
        (0, "helv", "before anything was printed, which made the typewriter a printer of drafts."),
    ]
    y = 90.0
    for space, font, text in lines:
        y += space
        page.insert_text((72, y), text, fontname=font, fontsize=10)
        if text.startswith("Wang"):  # the lead-in's line runs on in regular type
            page.insert_text((72 + pymupdf.get_text_length(text, font, 10), y), " screens in 1976.", fontsize=10)
        y += 13
    return scanned(page, dpi)


@pytest.mark.parametrize("dpi", [300, 150])
def test_a_line_opening_with_a_bold_lead_in_is_body_and_a_bold_heading_a_heading(dpi, no_downloads, tmp_path):
    """Over its whole box the lead-in's line measures bold (strokes 1.4 times the body's), but its
    last third is in the body's weight: it is a paragraph under the heading, not a heading (nor, at
    150 dpi, the second line of the heading above it); the bold heading stays one."""
    data = lead_in_page(dpi)
    loaded = load(tmp_path / "lead-in.pdf", data)
    headings = [b.text for b in loaded.blocks if b.kind == "heading"]
    assert headings == ["Word Processors in the Office"]
    [lead_in] = [b for b in loaded.blocks if b.text.startswith("Wang")]
    assert lead_in.kind == "paragraph"
    assert lead_in.text == "Wang Laboratories, Massachusetts: screens in 1976."
    assert lead_in.path[-1] == "Word Processors in the Office"


def coloured_heading_page(dpi: int) -> bytes:
    """A page scanned at `dpi`: paragraphs of 9.5-point Helvetica in dark grey (grey 65, a report's
    body) and between them a heading in bold Helvetica of the same size in teal (grey 125, as a
    sustainability report's section heads)."""
    import pymupdf

    grey, teal = (0.255, 0.25, 0.26), (0.04, 0.73, 0.71)
    before = [
        "The first machines that stored text for editing were built for typists in large",
        "offices, where a letter was retyped whole for every change to a single word.",
        "Storage on tape or cards let a typist correct a line and print the page again.",
    ]
    after = [
        "Several typists shared one computer and its disks, and edited documents on screens",
        "before anything was printed, which made the typewriter a printer of drafts.",
        "Each office kept its letters on disks and printed them again when they changed.",
    ]
    lines = [(0.0, "helv", grey, t) for t in before] + [(9.0, "hebo", teal, "Word processors in the office")]
    lines += [(4.0, "helv", grey, t) for t in after]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 90.0
    for space, font, colour, text in lines:
        y += space
        page.insert_text((72, y), text, fontname=font, fontsize=9.5, color=colour)
        y += 13.5
    return scanned(page, dpi)


@pytest.mark.parametrize("dpi", [300, 150])
def test_a_bold_heading_in_a_light_colour_reads_bold(dpi, no_downloads, tmp_path):
    """The teal heading's ink is barely darker than mid-grey: counted against a fixed grey only
    its strokes' cores were ink and it read thinner than the grey body; measured at half the depth
    of its own ink it is bold, and a heading, at either resolution, and the body is not."""
    loaded = load(tmp_path / "teal.pdf", coloured_heading_page(dpi))
    assert [b.text for b in loaded.blocks if b.kind == "heading"] == ["Word processors in the office"]
    [after] = [b for b in loaded.blocks if b.text.startswith("Several typists")]
    assert after.path[-1] == "Word processors in the office"
