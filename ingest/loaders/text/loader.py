"""Plain text: paragraphs separated by blank lines, each with its offsets in the file."""

from __future__ import annotations

import re
from dataclasses import replace

from ...blocks import Block, Document, Loaded
from .decoding import decode_text

_PARAGRAPH = re.compile(r"\S(?:.*\S)?(?:\n[ \t]*\S.*)*", re.MULTILINE)


def load(data: bytes, document: Document) -> Loaded:
    text, warnings = decode_text(data)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    title = document.title or document.name
    path = (title,)
    blocks = []
    for m in _PARAGRAPH.finditer(text):
        start, end = m.start(), m.start() + len(m.group().rstrip())
        blocks.append(Block("paragraph", text[start:end], path, start=start, end=end))
    return Loaded(replace(document, title=title), tuple(blocks), text=text, warnings=warnings)
