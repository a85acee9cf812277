"""Org-mode files: `*` headings (more stars, deeper) and paragraphs at blank lines."""

from __future__ import annotations

import re
from dataclasses import replace

from ingest import Block, Document, Loaded
from ingest.loaders import FormatLoader

_HEADING = re.compile(r"(\*+)\s+(.*)")
_LINE = re.compile(r".*\n?")


def load_org(data: bytes, document: Document) -> Loaded:
    text = data.decode("utf-8").replace("\r\n", "\n")
    title = document.title or document.name
    path: tuple[str, ...] = (title,)
    blocks: list[Block] = []
    para: list[int] = []  # start and end of the paragraph being read

    def flush() -> None:
        if para:
            blocks.append(Block("paragraph", text[para[0] : para[1]], path, start=para[0], end=para[1]))
            para.clear()

    for m in _LINE.finditer(text):
        line, start = m.group().rstrip("\n"), m.start()
        heading = _HEADING.fullmatch(line)
        if heading or not line.strip():
            flush()
        if heading:
            level = len(heading.group(1))
            path = path[:level] + (heading.group(2).strip(),)
            blocks.append(Block("heading", path[-1], path, level=level, start=start, end=start + len(line)))
        elif line.strip():
            para[:] = [para[0] if para else start, start + len(line.rstrip())]
    flush()
    return Loaded(replace(document, title=title), tuple(blocks), text=text)


org_loader = FormatLoader(name="org", load=load_org, mime_types=("text/org",), extensions=(".org",))
