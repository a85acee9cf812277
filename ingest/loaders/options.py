"""Options of the built-in loaders, each under its loader's name at the config's top level
(`pptx: {notes: false}`), checked when the config loads and handed to the loader with each
document. A loader's options are part of the settings stamp of its MIME types, so changing them
re-reads exactly those documents."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..options import StrictOptions


class PptxOptions(StrictOptions):
    notes: bool = True
    """Speaker notes as blocks of their slide (False: left out)."""


class PdfOptions(StrictOptions):
    ocr: Literal["auto", "always", "never"] = "auto"
    """auto: OCR the pages whose text layer cannot be read (a scan, glyph codes, images and no
    text); always: every page, its text layer ignored; never: no OCR (such pages are warnings)."""
    ocr_languages: tuple[str, ...] = Field(default=("en",), min_length=1)
    """Languages of the scans (PaddleOCR's codes: en, de, fr, ch, japan...); the packaged model reads
    Latin scripts, Chinese and Japanese, and says so in a warning for any other."""


_READ_AS = {"image": "pdf"}
"""Loaders that take another's options: an image is read as a scanned PDF page, so `pdf`'s
`ocr_languages` are its languages too (its `ocr` is always: OCR is the only way to read it)."""


class LoaderOptions(StrictOptions):
    """Every built-in loader's options, by loader name (the names of `BUILTIN_LOADERS`)."""

    pptx: PptxOptions = PptxOptions()
    pdf: PdfOptions = PdfOptions()

    def of(self, loader: str) -> StrictOptions | None:
        """The options of the built-in loader named `loader`, or None if it takes none."""
        loader = _READ_AS.get(loader, loader)
        value = getattr(self, loader, None) if loader in type(self).model_fields else None
        return value if isinstance(value, StrictOptions) else None
