"""Load an OpenDocument text document (.odt) or spreadsheet (.ods).

Which one the file is comes from its content (office:body's child), not its name: an .ods
renamed .odt is still read as the spreadsheet it is; a presentation or drawing is refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePosixPath

from ...blocks import Document, Loaded
from ...errors import LoaderError
from ..word.outline import place, root_of
from .inline import InlineReader, read_changes
from .package import Package, kind_name, read_meta
from .sheets import sheet_blocks
from .styles import Styles
from .text import TextReader

ODT = "application/vnd.oasis.opendocument.text"
ODS = "application/vnd.oasis.opendocument.spreadsheet"


def load(data: bytes, document: Document) -> Loaded:
    pkg = Package(data)
    root, body, kind = pkg.body()
    styles = Styles([pkg.xml("styles.xml"), root])
    meta = read_meta(pkg)
    doc_meta = {**document.meta, **{k: v for k, v in meta.items() if k != "title"}}

    def fallback_title() -> str:
        return meta.get("title") or document.title or PurePosixPath(document.name).stem

    if kind == "text":
        changes = read_changes(body)
        reader = TextReader(styles, InlineReader(changes))
        items = list(reader.items(body))
        title, root_heading = root_of(items, fallback_title)
        blocks = tuple(place(items, title, root_heading))
        marks = [*(m for b in blocks for m in b.marks), *(m for b in blocks for *_, m in b.meta.get("cell_marks", ()))]
        comments = tuple(dict(m.attrs) for m in marks if m.kind == "comment")
        if comments:
            doc_meta["comments"] = comments
        return Loaded(replace(document, title=title, meta=doc_meta), blocks, warnings=tuple(reader.warnings))
    if kind == "spreadsheet":
        title = fallback_title()
        sheet_list, notes, cell_comments = sheet_blocks(body, styles, title)
        if cell_comments:  # as the Excel loader: every comment, also those on a sheet with no text
            doc_meta["comments"] = tuple(cell_comments)
        return Loaded(replace(document, title=title, meta=doc_meta), tuple(sheet_list), warnings=tuple(notes))
    raise LoaderError(
        f"this is an OpenDocument {kind_name(kind)}, not a text document or spreadsheet; "
        "ingest reads .odt and .ods files"
    )
