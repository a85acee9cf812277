"""HTML loader: decode by the page's own declaration, parse with lxml.html, walk the tree
(walk.py), place the items under their headings (word/outline.py, shared with Word and Docs)."""

from __future__ import annotations

from dataclasses import replace

import lxml.html
from lxml import etree

from ...blocks import Block, Document, Loaded
from ...errors import LoaderError
from ..word.outline import Item, place, root_of
from .decoding import decode_html
from .walk import Classify, Walker, collapse

_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True)


def load(data: bytes, document: Document) -> Loaded:
    if not data.strip():
        raise LoaderError("the file is empty; nothing to read")
    text, warnings = decode_html(data)
    page = read_page(text)
    return Loaded(*blocks_of(page, document), warnings=warnings)


def parse(text: str) -> etree._Element:
    """The page's tree; the text is re-encoded so that a declaration inside it cannot mislead lxml."""
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8"), parser=_PARSER)
    except etree.ParserError as exc:  # lxml's "Document is empty": markup with nothing in it
        raise LoaderError(f"no HTML content ({exc})") from exc
    return root


class Page:
    """A parsed page: its items, its `<title>` and its language."""

    def __init__(self, root: etree._Element, classify: Classify | None = None) -> None:
        title = root.find(".//title")
        self.title = collapse("".join(str(t) for t in title.itertext())) if title is not None else ""
        self.lang = (root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang") or "").strip()
        self.items: list[Item] = Walker(root, classify).read(root)


def read_page(text: str, classify: Classify | None = None) -> Page:
    return Page(parse(text), classify)


def blocks_of(page: Page, document: Document) -> tuple[Document, tuple[Block, ...]]:
    """The document (its title: the page's one top heading, else `<title>`, else the file's) and blocks."""
    title, root_heading = root_of(page.items, lambda: page.title or document.title or document.name)
    meta = {**document.meta, **({"lang": page.lang} if page.lang else {})}
    blocks = tuple(place(page.items, title, root_heading))
    return replace(document, title=title, meta=meta), blocks
