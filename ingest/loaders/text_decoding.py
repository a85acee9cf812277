"""Bytes to text for text formats: UTF-8 (with or without BOM), else a stated fallback."""

from __future__ import annotations


def decode_text(data: bytes) -> tuple[str, tuple[str, ...]]:
    """The text and any warning about how it was decoded."""
    if b"\x00" in data[:8192]:
        # UTF-16 text has NULs; so do binaries mislabelled as text. Try the BOM before giving up.
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return data.decode("utf-16"), ()
        from ..errors import LoaderError

        raise LoaderError("looks binary (NUL bytes), not text; check its type or extension")
    try:
        return data.decode("utf-8-sig"), ()
    except UnicodeDecodeError as exc:
        return data.decode("cp1252", errors="replace"), (
            f"not valid UTF-8 (byte {exc.start}); decoded as Windows-1252",
        )
