"""Bytes to text for text formats: UTF-8 (with or without BOM), UTF-16 with a BOM, else the
encoding charset-normalizer finds (Shift-JIS, cp1251, ...), said in a warning."""

from __future__ import annotations

import charset_normalizer
from charset_normalizer.md import mess_ratio

from ...errors import LoaderError

_NAMES = {
    "cp1252": "Windows-1252",
    "cp1251": "Windows-1251",
    "cp932": "Shift-JIS (cp932)",
    "shift_jis": "Shift-JIS",
    "euc_jp": "EUC-JP",
    "gb18030": "GB18030",
    "big5": "Big5",
    "koi8_r": "KOI8-R",
    "cp1250": "Windows-1250",
}
_WESTERN = ("cp1252", "latin_1", "iso8859_15")
"""Scored as well as the best guess, or reading the same text, Windows-1252 wins: most legacy files
in a company are Western, and a short one gives charset-normalizer little to tell them apart."""


def decode_text(data: bytes) -> tuple[str, tuple[str, ...]]:
    """The text and any warning about how it was decoded."""
    if b"\x00" in data[:8192]:
        # UTF-16 text has NULs; so do binaries mislabelled as text. Try the BOM before giving up.
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return data.decode("utf-16"), ()
        raise LoaderError("looks binary (NUL bytes), not text; check its type or extension")
    try:
        return data.decode("utf-8-sig"), ()
    except UnicodeDecodeError as exc:
        where = exc.start
    encoding = _guess(data)
    name = _NAMES.get(encoding, encoding)
    return data.decode(encoding, errors="replace"), (
        f"not valid UTF-8 (byte {where}); decoded as {name}, the encoding it most looks like",
    )


def _guess(data: bytes) -> str:
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    if best is None:
        return "cp1252"
    for match in matches:
        if match.encoding in _WESTERN and match.chaos <= best.chaos and match.coherence >= best.coherence:
            return "cp1252"
    try:
        western = data.decode("cp1252")
    except UnicodeDecodeError:
        return best.encoding
    # charset-normalizer scores every single-byte Western code page alike on short Latin text (it
    # took "Café au lait." for Urdu cp1006): Windows-1252 wins unless it reads as more of a mess.
    if western == str(best) or mess_ratio(western, maximum_threshold=1.0) <= best.chaos:
        return "cp1252"
    return best.encoding
