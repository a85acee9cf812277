"""An HTML file's bytes to text, by the document's own word: a byte-order mark, else the encoding
its `<meta charset>` (or `http-equiv` Content-Type, or XML declaration) declares in its first
bytes, as a browser's prescan reads it; else UTF-8, else the encoding it most looks like."""

from __future__ import annotations

import codecs

from lxml import etree

from ...errors import LoaderError
from ..text.decoding import decode_text

PRESCAN_BYTES = 4096
"""How far a declaration is looked for: browsers prescan the first 1024 bytes; pages exported by
tools put long comments or styles first, so a little more."""

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))

# WHATWG Encoding: these labels mean windows-1252 on the web (pages say latin-1 and use cp1252's quotes).
_WEB_ALIASES = {"iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "us-ascii": "cp1252",
                "ascii": "cp1252", "latin-1": "cp1252"}  # fmt: skip


def decode_html(data: bytes) -> tuple[str, tuple[str, ...]]:
    """The page's text and any warning about how it was decoded."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, errors="replace"), ()
    if b"\x00" in data[:PRESCAN_BYTES]:
        raise LoaderError("looks binary (NUL bytes), not HTML; check its type or extension")
    declared = declared_encoding(data[:PRESCAN_BYTES])
    if declared is not None:
        codec = _codec(declared)
        if codec is None:
            text, warnings = decode_text(data)
            return text, (f"declares an unknown encoding {declared!r}", *warnings)
        try:
            return data.decode(codec), ()
        except UnicodeDecodeError as exc:
            return data.decode(codec, errors="replace"), (
                f"declares {declared} but is not valid {declared} (byte {exc.start}); bad bytes replaced",
            )
    return decode_text(data)


def declared_encoding(head: bytes) -> str | None:
    """The encoding the page's start declares, read with the HTML parser (never a pattern)."""
    if head.startswith(b"<?xml"):
        decl = head.split(b"?>", 1)[0].decode("latin-1")
        for part in decl.split()[1:]:
            name, _, value = part.partition("=")
            if name == "encoding":
                return value.strip("'\"") or None
    try:
        root = etree.fromstring(head, etree.HTMLParser(encoding="iso-8859-1", recover=True, no_network=True))
    except (etree.XMLSyntaxError, ValueError):
        return None
    if root is None:
        return None
    for meta in root.iter("meta"):
        if meta.get("charset"):
            return meta.get("charset", "").strip()
        if (meta.get("http-equiv") or "").strip().lower() == "content-type":
            for param in (meta.get("content") or "").split(";"):
                name, _, value = param.partition("=")
                if name.strip().lower() == "charset":
                    return value.strip().strip("'\"") or None
    return None


def _codec(label: str) -> str | None:
    label = label.strip().lower()
    label = _WEB_ALIASES.get(label, label)
    if label in ("utf-16", "utf-16le", "utf-16be"):
        return "utf-8"  # a page read as bytes without a UTF-16 BOM is not UTF-16 (WHATWG does the same)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None
