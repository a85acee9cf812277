"""Image files read by OCR (#26): pages of corpus text PDFs rendered as PNG, JPEG and multi-page
TIFF, scored against the pages' own text layer."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from ingest.errors import LoaderError
from ingest.loaders import load_bytes, load_file, local_document, options_for
from ingest.loaders.options import LoaderOptions, PdfOptions
from tests.local_job import ingest
from tests.pdf.scans import page_png, recall, words

BOOKMARKS = "docling/pdf/bookmark_sample.pdf"  # three short pages: a title line, headings, clauses


def text_of(loaded, page: int) -> str:
    return " ".join(b.text for b in loaded.blocks if b.page == page)


def load_as(tmp_path: Path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return load_bytes(data, local_document(path, data, 0))


def test_a_png_page_is_read_with_its_headings(tmp_path, corpus):
    path = corpus / BOOKMARKS
    loaded = load_as(tmp_path, "agreement.png", page_png(path, 0, 300))
    assert recall(words(text_of(load_file(path), 1)), text_of(loaded, 1)) >= 0.95
    assert {b.page for b in loaded.blocks} == {1}
    assert all(b.meta.get("ocr") is True and b.meta["ocr_confidence"] >= 0.9 for b in loaded.blocks)
    assert ["part", "i", "definitions"] in [words(b.text) for b in loaded.blocks if b.kind == "heading"]
    assert not loaded.warnings


def test_a_multi_page_tiff_is_read_page_by_page(tmp_path, corpus):
    path = corpus / BOOKMARKS
    images = [Image.open(io.BytesIO(page_png(path, k, 150))).convert("L") for k in (0, 2)]
    out = io.BytesIO()
    images[0].save(out, format="TIFF", save_all=True, append_images=images[1:], compression="tiff_lzw", dpi=(150, 150))
    loaded = load_as(tmp_path, "scan.tiff", out.getvalue())
    truth = load_file(path)
    assert {b.page for b in loaded.blocks} == {1, 2}
    assert recall(words(text_of(truth, 1)), text_of(loaded, 1)) >= 0.9
    assert recall(words(text_of(truth, 3)), text_of(loaded, 2)) >= 0.9  # the TIFF's 2nd page: the PDF's 3rd


@pytest.mark.parametrize("name", ["photo.jpg", "scan.png", "fax.tif"])
def test_a_file_that_is_no_image_is_an_error_naming_it(tmp_path, name):
    with pytest.raises(LoaderError, match=rf"{name}: not a readable (JPEG|PNG|TIFF) image.*damaged or not an image"):
        load_as(tmp_path, name, b"<html>not an image</html>")


def test_ingest_plugins_lists_the_image_loader(tmp_path):
    proc = ingest("plugins", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    listed = proc.stdout.split("  image  (built in)\n", 1)[1].split("\n\n")[0]
    assert "image/png, image/jpeg, image/tiff" in listed and ".tiff" in listed and ".jpg" in listed


def test_the_pdf_ocr_languages_are_the_images_too(tmp_path, corpus):
    """An image is read as a scanned PDF page: `pdf: {ocr_languages}` says what its text is in,
    so a language the model does not read is a warning on an image as on a scan."""
    data = page_png(corpus / BOOKMARKS, 2, 150)
    path = tmp_path / "scan.png"
    path.write_bytes(data)
    arabic = LoaderOptions(pdf=PdfOptions(ocr_languages=("en", "ar")))
    loaded = load_bytes(data, local_document(path, data, 0), arabic)
    assert loaded.blocks and any("does not read ar" in w for w in loaded.warnings)
    assert options_for("image/png", arabic) == arabic.pdf  # and so in the images' settings stamp


def png(size: tuple[int, int], text: str = "", type_px: int = 0) -> bytes:
    """A white PNG of `size` pixels with `text` in black, set `type_px` pixels high, or a dark
    mark in its middle (an icon's ink, which holds no word)."""
    from PIL import ImageDraw, ImageFont

    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    if text:
        draw.text((2, 2), text, fill="black", font=ImageFont.load_default(size=type_px))
    else:
        w, h = size
        draw.rectangle((w // 4, h // 4, 3 * w // 4, 3 * h // 4), fill=(20, 60, 160))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "size"), [("favicon.png", (16, 16)), ("spacer.png", (600, 1)), ("rule.png", (4, 300))]
)
def test_an_image_too_small_to_hold_a_word_is_not_ocred_and_a_warning_names_it(tmp_path, name, size):
    loaded = load_as(tmp_path, name, png(size))
    assert loaded.blocks == ()
    [warning] = loaded.warnings
    assert name in warning and f"not OCRed: {size[0]}x{size[1]} pixels is too small to hold readable text" in warning
    assert loaded.document.title  # indexed under its name, as an image OCR finds nothing in


def test_small_text_in_a_small_image_is_still_read(tmp_path):
    """A label 12 pixels high in a 70x16 image (a signature's one line) is OCRed: the size rule
    leaves every image that can hold a word to OCR."""
    loaded = load_as(tmp_path, "label.png", png((70, 16), "Invoice due", 12))
    assert [words(b.text) for b in loaded.blocks] == [["invoice", "due"]]
    assert not any("too small" in w for w in loaded.warnings)
