"""Bounds on what one document may cost, checked before a parser sees it, so a hostile or broken
file fails on its own with a clear reason instead of taking the run's memory.

- Office files (.docx, .xlsx, .pptx, .odt, .ods) are ZIP archives: one that declares more unzipped bytes than
  `max_unzipped_mb`, or inflates past it when streamed (a header can lie), is refused: a zip bomb
  of a few kilobytes can inflate to gigabytes.
- Text formats (Markdown, plain text, CSV) are parsed whole, at 10 to 16 bytes of memory per byte
  of text (measured: 20 MB of Markdown peaks at 240 MB, 100 MB at 0.9 to 1.6 GB), so they are
  bounded by size, `max_text_mb`, rather than streamed: streaming would need a block parser that
  keeps its place across pieces, and the chunker's section and overlap rules see a whole document.

Documents over 8 MB also run one at a time among the workers (`parallel.HEAVY_BYTES`), so the
peaks of two large files never add up.
"""

from __future__ import annotations

import io
import zipfile

from ..config import LimitsConfig
from ..errors import LoaderError

_MB = 1024 * 1024
_READ = 1 << 20

ZIP_TYPES = frozenset(
    {
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.ms-excel.sheet.macroEnabled.12",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "application/vnd.oasis.opendocument.text",
        "application/vnd.oasis.opendocument.spreadsheet",
    }
)
TEXT_TYPES = frozenset({"text/markdown", "text/plain", "text/csv"})


def check_input(data: bytes, mime_type: str, limits: LimitsConfig) -> None:
    """Raise `LoaderError` saying what is too big if `data` is over a limit for its type."""
    if mime_type in TEXT_TYPES and len(data) > limits.max_text_mb * _MB:
        raise LoaderError(
            f"is {len(data) / _MB:.0f} MB of text, over the limit of {limits.max_text_mb:g} MB for text files "
            "(limits.max_text_mb); split it, or raise the limit if the machine has the memory (10 to 16 times "
            "the file's size)"
        )
    if mime_type in ZIP_TYPES:
        check_archive(data, int(limits.max_unzipped_mb * _MB))


def check_archive(data: bytes, limit: int) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # not a ZIP at all: the loader says so in its own words
    with archive:
        members = archive.infolist()
        declared = sum(m.file_size for m in members)
        if declared > limit:
            raise LoaderError(_too_big(f"declare {declared / _MB:,.0f} MB", limit))
        total = 0
        for member in members:
            try:
                with archive.open(member) as part:
                    while block := part.read(_READ):
                        total += len(block)
                        if total > limit:
                            raise LoaderError(_too_big(f"inflate past {limit / _MB:g} MB", limit))
            except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError, ValueError):
                return  # a damaged or encrypted part: the loader reports it


def _too_big(what: str, limit: int) -> str:
    return (
        f"is an Office file (a ZIP archive) whose parts {what} unzipped, over the limit of "
        f"{limit / _MB:g} MB (limits.max_unzipped_mb); it looks like a zip bomb, or raise the limit"
    )
