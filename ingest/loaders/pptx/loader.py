"""PowerPoint .pptx: each slide a section under its title, its shapes in reading order.

The loader describes what the deck says: titles as headings, body paragraphs and list items with
their levels and markers, tables with merged cells, speaker notes marked as such, slide numbers,
footers and dates in the furniture layer, each block on its slide's page. Pictures, charts and
SmartArt carry no text python-pptx exposes and are left out.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from lxml import etree
from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.exc import PackageNotFoundError

from ...blocks import Block, BlockMeta, Document, Layer, Loaded
from ...errors import LoaderError
from ...table_text import render_table
from ..options import PptxOptions
from .paragraphs import A, P, Para, paragraphs
from .shapes import in_reading_order

MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation"

_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_TITLES = frozenset({PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.VERTICAL_TITLE})
_FURNITURE = frozenset({PP_PLACEHOLDER.DATE, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER, PP_PLACEHOLDER.HEADER})
_GOOGLE_NOTES_SHAPE = re.compile(r"Google Shape;\d+;(.+):notes")
"""How Google Slides names the shapes of a slide's notes page in a .pptx export: the notes page's
id is the slide's object id followed by ":notes", the id a `#slide=id.` link needs."""
_DAMAGED = (KeyError, ValueError, zipfile.BadZipFile, zlib.error, EOFError, etree.XMLSyntaxError)


def load(data: bytes, document: Document, options: PptxOptions | None = None) -> Loaded:
    options = options or PptxOptions()
    deck = _open(data)
    root = " ".join((document.title or document.name).split())
    blocks: list[Block] = []
    hidden: list[int] = []
    for n, slide in enumerate(deck.slides, 1):
        if slide._element.get("show") in ("0", "false"):
            hidden.append(n)  # PowerPoint numbers them all the same: the page stays the slide's place
            continue
        try:
            blocks.extend(_slide(slide, n, root, options))
        except _DAMAGED as exc:
            raise LoaderError(
                f"slide {n} cannot be read ({type(exc).__name__}: {exc}); the file may be damaged"
            ) from exc
    warnings: tuple[str, ...] = ()
    if hidden:
        listed = ", ".join(map(str, hidden))
        warnings = (f"hidden slide{'s' if len(hidden) > 1 else ''} {listed} left out (shown in no presentation)",)
    return Loaded(replace(document, title=root), tuple(blocks), warnings=warnings)


def _open(data: bytes) -> Any:
    if not data:
        raise LoaderError("the file is empty (0 bytes); export it again from PowerPoint or remove it")
    if data[:8] == _OLE:
        raise LoaderError(
            "this is an OLE compound file: a legacy .ppt or a password-protected .pptx; "
            "save it from PowerPoint as an unprotected .pptx"
        )
    try:
        names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    except zipfile.BadZipFile as exc:
        raise LoaderError(f"not a .pptx: not a ZIP archive ({exc}); the file may be truncated or mislabelled") from exc
    if "ppt/presentation.xml" not in names:
        raise LoaderError("ZIP archive has no PowerPoint presentation part (ppt/presentation.xml); is it a .pptx?")
    try:
        return Presentation(io.BytesIO(data))
    except (PackageNotFoundError, *_DAMAGED) as exc:
        raise LoaderError(f"damaged .pptx ({type(exc).__name__}: {exc}); the file may be truncated") from exc


@dataclass(slots=True)
class _Item:
    kind: str
    text: str
    level: int = 0
    layer: Layer = "body"
    meta: BlockMeta = field(default_factory=BlockMeta)
    rows: tuple[tuple[str, ...], ...] | None = None
    header_rows: int = 0


def _slide(slide: Any, n: int, root: str, options: PptxOptions) -> Iterator[Block]:
    title = ""
    items: list[_Item] = []
    for shape in in_reading_order(slide.shapes):
        kind = _placeholder_type(shape)
        if kind in _TITLES and not title and shape.has_text_frame:
            title = " ".join(shape.text_frame.text.split())
            continue
        if getattr(shape, "has_table", False):
            items.append(_table(shape.table))
        elif shape.has_text_frame:
            layer: Layer = "furniture" if kind in _FURNITURE else "body"
            for p in paragraphs(shape.text_frame._txBody, _inherited_styles(shape, kind)):
                items.append(_paragraph(p, layer))
    notes = list(_notes(slide)) if options.notes else []
    if not title:
        title = _first_line(items)
    if not title and not items and not notes:
        return  # a slide of pictures only: nothing to read or cite
    title = title or f"Slide {n}"
    path = (root, title)
    meta: BlockMeta = {}
    slide_id = _google_slide_id(slide)
    if slide_id:
        meta["slide_id"] = slide_id
    yield Block("heading", title, path=path, level=1, page=n, meta=meta)
    for item in [*items, *notes]:
        yield Block(
            item.kind,
            item.text,
            path=path,
            level=item.level,
            rows=item.rows,
            header_rows=item.header_rows,
            page=n,
            meta=item.meta,
            layer=item.layer,
        )


def _placeholder_type(shape: Any) -> Any:
    return shape.placeholder_format.type if shape.is_placeholder else None


def _paragraph(p: Para, layer: Layer, notes: bool = False) -> _Item:
    meta: BlockMeta = {"speaker_notes": True} if notes else {}
    if p.marker:
        meta["marker"] = p.marker
        meta["ordered"] = p.ordered
        return _Item("list_item", p.text, p.level, layer, meta)
    return _Item("paragraph", p.text, 0, layer, meta)


def _first_line(items: list[_Item]) -> str:
    """An untitled slide's title: the first line of its first body paragraph, taken out of it so
    the text is read once."""
    for i, item in enumerate(items):
        if item.layer == "body" and item.rows is None:
            first, _, rest = item.text.partition("\n")
            if rest.strip():
                item.text = rest.strip()
            else:
                del items[i]
            return " ".join(first.split())
    return ""


def _inherited_styles(shape: Any, kind: Any) -> list[etree._Element]:
    """The list styles a shape's paragraphs inherit, nearest first: its layout's placeholder, the
    master's, then the master's title, body or other text style."""
    styles: list[etree._Element] = []
    base = shape
    while kind is not None:
        try:
            base = base._base_placeholder
        except (AttributeError, KeyError):  # a master placeholder, or a type with no base
            break
        if base is None:
            break
        found = base._element.find(f"{P}txBody/{A}lstStyle")
        if found is not None:
            styles.append(found)
    master = shape.part.slide_layout.slide_master._element
    which = "otherStyle" if kind is None or kind in _FURNITURE else "titleStyle" if kind in _TITLES else "bodyStyle"
    text_style = master.find(f"{P}txStyles/{P}{which}")
    if text_style is not None:
        styles.append(text_style)
    return styles


def _table(table: Any) -> _Item:
    rows: list[tuple[str, ...]] = []
    covered: list[tuple[int, int]] = []
    merges: list[tuple[int, int, int, int]] = []
    for r, row in enumerate(table.rows):
        cells = []
        for c, cell in enumerate(row.cells):
            if cell.is_spanned:
                covered.append((r, c))
                cells.append("")
                continue
            cells.append(cell.text.replace("\v", "\n").strip())
            if cell.is_merge_origin:
                merges.append((r, c, r + cell.span_height - 1, c + cell.span_width - 1))
        rows.append(tuple(cells))
    # A table says its first row is a header (`firstRow`); where it does not, the first row is
    # taken as one, as for Word tables, and marked as guessed.
    declared = bool(table.first_row)
    guessed = not declared and len(rows) > 1
    header_rows = 1 if declared or guessed else 0
    shape = (len(rows), len(rows[0]) if rows else 0)
    meta: BlockMeta = {
        "covered": tuple(covered),
        "merges": tuple(merges),
        "header_guessed": guessed,
        "marks_shape": shape,
    }
    return _Item("table", render_table(rows, header_rows), rows=tuple(rows), header_rows=header_rows, meta=meta)


def _notes(slide: Any) -> Iterator[_Item]:
    if not slide.has_notes_slide:
        return
    frame = slide.notes_slide.notes_text_frame
    if frame is None:
        return
    for p in paragraphs(frame._txBody, []):
        yield _paragraph(p, "body", notes=True)


def _google_slide_id(slide: Any) -> str:
    """The slide's object id in Google Slides, where the deck is a Google export (see
    `_GOOGLE_NOTES_SHAPE`); "" otherwise. Read without creating a notes page."""
    if not slide.has_notes_slide:
        return ""
    for shape in slide.notes_slide.shapes:
        m = _GOOGLE_NOTES_SHAPE.fullmatch(shape.name or "")
        if m:
            return m.group(1)
    return ""
