"""Links that open the place a chunk came from, for citations: a Google Doc at the chunk's
heading, a PDF at its page, a Google Sheet at its tab, a Google Slides deck at its slide, anything
else from Drive at the file.

Worked out from the document (its Drive link and type, in `meta`) and the heading blocks the
chunk sits under (a Docs heading's `heading_id`, a sheet heading's `sheet`), so a loader only
describes where things are and never builds URLs. Local files get no link: their path is the
citation.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Literal

from .blocks import Block, Chunk, Document

GOOGLE_DOC = "application/vnd.google-apps.document"
GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet"
GOOGLE_SLIDES = "application/vnd.google-apps.presentation"
_ANCHOR_KEYS: dict[str, Literal["heading_id", "sheet", "slide_id"]] = {
    GOOGLE_DOC: "heading_id",
    GOOGLE_SLIDES: "slide_id",
}
"""The heading fact a Drive type's links anchor on (a sheet's tab name otherwise)."""
PDF = "application/pdf"


class ChunkLinks:
    """Links for one document's chunks. `watch` passes the blocks through to the chunker,
    noting heading anchors as they go by (a chunk comes out after the heading that opens its
    path went in), so the block stream is never held whole."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.drive_type = str(document.meta.get("drive_mime_type") or "")
        self._key = _ANCHOR_KEYS.get(self.drive_type, "sheet")
        self._anchors: dict[tuple[str, ...], str] = {}
        self._tabs: Mapping[str, int] = document.meta.get("drive_sheet_tabs") or {}

    def watch(self, blocks: Iterable[Block]) -> Iterator[Block]:
        for b in blocks:
            if b.kind == "heading" and b.meta.get(self._key):
                self._anchors[b.path] = str(b.meta[self._key])
            yield b

    def link(self, c: Chunk) -> Chunk:
        if not self.drive_type:
            return c
        return replace(c, url=chunk_url(self.document, self.drive_type, c, self._anchors, self._tabs))


def chunk_url(
    document: Document, drive_type: str, c: Chunk, anchors: Mapping[tuple[str, ...], str], tabs: Mapping[str, int]
) -> str:
    """The link for chunk `c` of a Drive document of type `drive_type` (its MIME type in Drive)."""
    if drive_type == GOOGLE_DOC:
        base = f"https://docs.google.com/document/d/{document.id}/edit"
        heading = _deepest(anchors, c.heading_path)
        return f"{base}#heading={heading}" if heading else base
    if drive_type == GOOGLE_SLIDES:
        # A slide's id is known where the export names its notes page after it (pptx loader).
        base = f"https://docs.google.com/presentation/d/{document.id}/edit"
        slide = _deepest(anchors, c.heading_path)
        return f"{base}#slide=id.{slide}" if slide else base
    if drive_type == GOOGLE_SHEET:
        base = f"https://docs.google.com/spreadsheets/d/{document.id}/edit"
        sheet = _deepest(anchors, c.heading_path)
        return f"{base}#gid={tabs[sheet]}" if sheet in tabs else base
    if document.mime_type == PDF and drive_type == PDF and c.page_start is not None:
        return f"{document.uri.split('#', 1)[0]}#page={c.page_start}"
    return document.uri


def _deepest(anchors: Mapping[tuple[str, ...], str], path: tuple[str, ...]) -> str:
    """The anchor of the deepest heading on `path` that has one ("" if none)."""
    for n in range(len(path), 0, -1):
        if path[:n] in anchors:
            return anchors[path[:n]]
    return ""
