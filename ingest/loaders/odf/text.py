"""An .odt text document as Items: headings by outline level, paragraphs, nested lists with their
markers, tables with header rows and spans, notes after the paragraph citing them, text boxes,
and tracked changes as marks; then placed under heading paths as the Word loader places its own."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from lxml import etree

from ...blocks import BlockMeta, Mark
from ..word.numbers import roman
from ..word.outline import TITLE_RANK, Item, Table
from ..word.spans import trim
from .grid import rows
from .inline import InlineReader, Paragraph
from .package import OFFICE, TABLE, TEXT
from .styles import ListLevel, Styles

_MAX_LEVEL = 10
"""ODF's outline and list levels run 1-10."""
# Declarations and index templates: not the document's text.
_SKIP = frozenset(
    {
        TEXT + "tracked-changes",
        TEXT + "sequence-decls",
        TEXT + "variable-decls",
        TEXT + "user-field-decls",
        TEXT + "dde-connection-decls",
        TEXT + "soft-page-break",
        TABLE + "calculation-settings",
        TABLE + "content-validations",
        TABLE + "named-expressions",
        OFFICE + "forms",
    }
)


class TextReader:
    def __init__(self, styles: Styles, inline: InlineReader):
        self.styles = styles
        self.inline = inline
        self.warnings: list[str] = []
        self._lists: dict[str, list[int]] = {}
        """The counters of the last list of each list style, for lists that continue it."""
        self._clipped = False
        self._joined = False
        """The paragraph before ended in an inserted break."""

    def items(self, parent: etree._Element) -> Iterator[Item]:
        for el in parent:
            tag = el.tag
            if not isinstance(tag, str) or tag in _SKIP or tag.endswith("-source"):
                continue
            if tag in (TEXT + "p", TEXT + "h"):
                yield from self._paragraph(el)
            elif tag == TEXT + "list":
                yield from self._list(el, "", 1, None)
            elif tag == TABLE + "table":
                yield from self._table(el)
            elif tag in (TEXT + "change-start", TEXT + "change-end", TEXT + "change"):
                mark = self.inline.marker(el)
                if mark is not None:  # a whole paragraph deleted: its text, marked, in its place
                    text = self.inline.deleted(el.get(TEXT + "change-id", ""))
                    yield Item("paragraph", text, [mark])
            else:  # sections, index bodies, frames anchored to the page: the blocks inside
                boxes = self.inline.frames(el)
                if boxes:
                    yield from self._boxes(Paragraph(boxes=boxes))
                else:
                    yield from self.items(el)

    def _paragraph(self, el: etree._Element, list_meta: BlockMeta | None = None, level: int = 0) -> Iterator[Item]:
        para = self.inline.paragraph(el)
        inserted = self.inline.open_insertion()
        # Around a tracked break the spaces stay: `reject` joins the two paragraphs with them.
        text, marks = trim(para.text, para.marks, lead=not self._joined, trail=inserted is None)
        self._joined = inserted is not None
        if inserted is not None:  # a tracked paragraph break, as the Word loader marks one
            text, marks = text + "\n", [*marks, Mark("insertion", len(text), len(text) + 1, inserted)]
        style_id = el.get(TEXT + "style-name", "")
        style = self.styles.name(style_id)
        meta: BlockMeta = {"style": style} if style else {}
        if text:
            if el.tag == TEXT + "h":
                outline = _level(el.get(TEXT + "outline-level")) or self.styles.outline_level(style_id) or 1
                meta["rank"] = outline
                yield Item("heading", text, marks, rank=outline, level=outline, meta=meta)
            elif self.styles.is_title(style_id):
                meta["rank"] = TITLE_RANK
                yield Item("heading", text, marks, rank=TITLE_RANK, level=1, meta=meta)
            elif list_meta is not None:
                yield Item("list_item", text, marks, level=level, meta={**meta, **list_meta})
            else:
                yield Item("paragraph", text, marks, meta=meta)
        yield from self._boxes(para)
        yield from self._notes(para)

    def _boxes(self, para: Paragraph) -> Iterator[Item]:
        for box in para.boxes:
            for item in self.items(box):
                if item.kind == "paragraph":
                    item.meta = {**item.meta, "textbox": True}
                yield item

    def _notes(self, para: Paragraph) -> Iterator[Item]:
        for kind, nid, label, body in para.notes:
            text, marks = self._flatten(body)
            if text:
                yield Item("footnote", text, marks, meta={"note": kind, "id": nid, "label": label})

    # -- lists ---------------------------------------------------------------------------------

    def _list(self, el: etree._Element, style: str, level: int, counts: list[int] | None) -> Iterator[Item]:
        style = el.get(TEXT + "style-name") or style
        if counts is None:  # a top-level list: fresh numbers, unless it continues the last of its style
            continues = el.get(TEXT + "continue-numbering") == "true" or el.get(TEXT + "continue-list")
            counts = list(self._lists.get(style, [])) if continues else []
            counts += [0] * (_MAX_LEVEL + 1 - len(counts))
            top = True
        else:
            top = False
        depth = min(level, _MAX_LEVEL)
        for item in el:
            if item.tag not in (TEXT + "list-item", TEXT + "list-header"):
                continue
            numbered = item.tag == TEXT + "list-item"
            form = self.styles.list_level(style, depth)
            first = True
            for child in item:
                if child.tag == TEXT + "list":
                    yield from self._list(child, style, level + 1, counts)
                elif child.tag in (TEXT + "p", TEXT + "h"):
                    marker = ""
                    if first and numbered:
                        start = _level(item.get(TEXT + "start-value"))
                        counts[depth] = start if start is not None else (counts[depth] or form.start - 1) + 1
                        counts[depth + 1 :] = [0] * (len(counts) - depth - 1)
                        marker = _marker(form, counts, depth)
                    first = False
                    meta = BlockMeta(marker=marker, ordered=form.ordered)
                    if style:
                        meta["list_id"] = style
                    yield from self._paragraph(child, meta, depth - 1)
                elif child.tag == TABLE + "table":
                    yield from self._table(child)
        if top:
            self._lists[style] = counts

    # -- tables --------------------------------------------------------------------------------

    def _table(self, el: etree._Element) -> Iterator[Item]:
        grid: dict[tuple[int, int], str] = {}
        cell_marks: list[tuple[int, int, Mark]] = []
        merges: list[tuple[int, int, int, int]] = []
        notes: list[Paragraph] = []
        header_rows = 0
        counting = True
        height = width = 0
        for row in rows(el, lambda cell: True):
            self._clipped = self._clipped or row.clipped
            counting = counting and row.header
            header_rows += counting
            height = row.row + 1
            width = max(width, row.width)
            for cell in row.cells:
                text, marks, cell_notes = self._cell(cell.el)
                grid[(row.row, cell.col)] = text
                cell_marks.extend((row.row, cell.col, m) for m in marks)
                notes.extend(cell_notes)
                if cell.col_span > 1 or cell.row_span > 1:
                    merges.append((row.row, cell.col, row.row + cell.row_span - 1, cell.col + cell.col_span - 1))
        if self._clipped:
            self.warnings.append("a table repeats a filled row or cell more than 1000 times: the first 1000 are kept")
            self._clipped = False
        if not height or not width:
            return
        merges = [(r0, c0, min(r1, height - 1), min(c1, width - 1)) for r0, c0, r1, c1 in merges]
        covered = tuple(
            (r, c)
            for r0, c0, r1, c1 in merges
            for r in range(r0, r1 + 1)
            for c in range(c0, c1 + 1)
            if (r, c) != (r0, c0)
        )
        table_rows = tuple(tuple(grid.get((r, c), "") for c in range(width)) for r in range(height))
        guessed = header_rows == 0 and height > 1
        yield Item(
            "table",
            table=Table(
                rows=table_rows,
                header_rows=1 if guessed else header_rows,
                header_guessed=guessed,
                covered=covered,
                cell_marks=tuple(cell_marks),
                row_marks=(),
                merges=tuple(merges),
            ),
        )
        for para in notes:
            yield from self._notes(para)

    def _cell(self, cell: etree._Element) -> tuple[str, list[Mark], list[Paragraph]]:
        notes: list[Paragraph] = []
        text, marks = self._flatten(cell, notes)
        return text, marks, notes

    def _flatten(self, parent: etree._Element, notes: list[Paragraph] | None = None) -> tuple[str, list[Mark]]:
        """A cell or note as one text: its paragraphs (in lists and nested tables too) joined by newlines."""
        parts: list[str] = []
        marks: list[Mark] = []
        pos = 0
        for p in parent.iter(TEXT + "p", TEXT + "h"):
            if _inside_note(p, parent):
                continue
            para = self.inline.paragraph(p)
            text, more = trim(para.text, para.marks)
            if not text:
                continue
            if parts:
                parts.append("\n")
                pos += 1
            marks.extend(replace(m, start=m.start + pos, end=m.end + pos) for m in more)
            parts.append(text)
            pos += len(text)
            if notes is not None:
                notes.append(para)
        return "".join(parts), marks


def _inside_note(p: etree._Element, stop: etree._Element) -> bool:
    """`p` belongs to a note body or comment under `stop` (read apart, not as the cell's text)."""
    el = p.getparent()
    while el is not None and el is not stop:
        if el.tag in (TEXT + "note-body", OFFICE + "annotation", TEXT + "tracked-changes"):
            return True
        el = el.getparent()
    return False


def _level(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


def _marker(form: ListLevel, counts: list[int], depth: int) -> str:
    if not form.ordered:
        return form.bullet
    if not form.num_format:
        return ""
    return f"{form.prefix}{_number(counts[depth], form.num_format)}{form.suffix}"


def _number(n: int, fmt: str) -> str:
    if fmt in ("a", "A"):
        s = ""
        while n > 0:
            n, r = divmod(n - 1, 26)
            s = chr(ord("a") + r) + s
        return s.upper() if fmt == "A" else s
    if fmt in ("i", "I"):
        s = roman(n)
        return s.upper() if fmt == "I" else s.lower()
    return str(n)
