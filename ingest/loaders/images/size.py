"""Whether an image is big enough to hold readable text, from its pixel dimensions alone (read
from the file's header by Pillow, which decodes no pixels): OCR costs the engine's start and a
detector pass however small the image, and a mail's icons and spacers hold nothing to read."""

from __future__ import annotations

import io
from collections.abc import Iterator

MIN_LINE_PX = 10
"""Pixels across one line of the smallest type OCR reads: words set 10 pixels high (ascender to
descender) were read whole, at 8 and 9 pixels not at all (rendered with Pillow's own font, read
by the packaged PP-OCRv6 models). An image thinner than this, either way, holds no line."""

MIN_WORD_PX = 24
"""Pixels along the shortest word worth reading ("Paid") in that smallest type. An image whose
longer side is shorter (a 16x16 or 20x20 icon) holds no word, whichever way it is set."""


def too_small(data: bytes) -> tuple[int, int] | None:
    """The image's (width, height) when no frame of it can hold a readable word, else None (also
    when the header cannot be read: the OCR path then says what is wrong with the file)."""
    try:
        sizes = list(_frame_sizes(data))
    except Exception:  # Pillow's own errors for a damaged or unknown header
        return None
    if sizes and all(min(w, h) < MIN_LINE_PX or max(w, h) < MIN_WORD_PX for w, h in sizes):
        return sizes[0]
    return None


def _frame_sizes(data: bytes) -> Iterator[tuple[int, int]]:
    """Each frame's size (a multi-page TIFF's pages): headers only, no pixel is decoded."""
    from PIL import Image  # pillow: a runtime dependency (python-pptx needs it too)

    with Image.open(io.BytesIO(data)) as image:
        for n in range(getattr(image, "n_frames", 1)):
            image.seek(n)
            yield image.size
