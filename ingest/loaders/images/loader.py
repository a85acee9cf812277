"""Image files read by OCR: each image (each page of a multi-page TIFF) becomes a page of a PDF
(pymupdf converts it, sized from the image's own resolution) that the PDF loader reads with
`ocr: always`. So an image's lines go through the same path as a scanned PDF page's: headings
from the type size, page furniture, columns and paragraphs, each block marked `meta["ocr"]`.
An image too small to hold a word (an icon, a spacer: `size.py`) is not OCRed, and a warning
names it, as one OCR finds no text in."""

from __future__ import annotations

from dataclasses import replace

import pymupdf

from ...blocks import Document, Loaded
from ...errors import LoaderError
from ...ocr.engine import INSTALL_HINT, available
from ..options import PdfOptions
from ..pdf import loader as pdf_loader
from .size import MIN_LINE_PX, MIN_WORD_PX, too_small

_TYPES = {"image/png": "png", "image/jpeg": "jpeg", "image/tiff": "tiff"}
_MAGIC = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg", b"II*\x00": "tiff", b"MM\x00*": "tiff"}
"""How each format's files begin. MuPDF guesses a stream's type from its content, so bytes that
are no image (an HTML error page saved as .jpg) would be opened as what they are and OCRed."""


def load(data: bytes, document: Document, options: PdfOptions | None = None) -> Loaded:
    named = _TYPES.get(document.mime_type, "png")
    kind = next((k for magic, k in _MAGIC.items() if data.startswith(magic)), None)
    if kind is None:  # a file of another type under an image's name (a .jpg that is a PNG is read)
        raise LoaderError(
            f"not a readable {named.upper()} image (it does not start as a PNG, JPEG or TIFF file does); "
            "the file is damaged or not an image",
            subject=document.uri,
        )
    if (size := too_small(data)) is not None:  # said, as an image OCR finds no text in is
        said = (
            f"{document.uri}: not OCRed: {size[0]}x{size[1]} pixels is too small to hold readable text "
            f"(a word needs {MIN_WORD_PX}x{MIN_LINE_PX})"
        )
        return Loaded(replace(document, title=document.title or document.name), (), warnings=(said,))
    if not available():
        raise LoaderError(f"an image is read by OCR: {INSTALL_HINT}", subject=document.uri)
    try:
        with pymupdf.open(stream=data, filetype=kind) as image:
            if image.page_count == 0:
                raise LoaderError(f"the {kind.upper()} file holds no image", subject=document.uri)
            pdf = image.convert_to_pdf()
    except LoaderError:
        raise
    except Exception as exc:  # MuPDF's own: "unknown image file format", a truncated stream
        raise LoaderError(
            f"not a readable {kind.upper()} image ({exc}); the file is damaged or not an image", subject=document.uri
        ) from exc
    languages = options.ocr_languages if options is not None else PdfOptions().ocr_languages
    return pdf_loader.load(pdf, document, PdfOptions(ocr="always", ocr_languages=languages))
