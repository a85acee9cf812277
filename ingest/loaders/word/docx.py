"""Word .docx loader: headings, lists, tables (merged cells), notes, headers and footers, tracked changes, comments.

Parts are read straight from the package with lxml rather than through python-docx: python-docx
hides tracked insertions and deletions, text boxes, notes and comment ranges, and cannot open
ISO-Strict files; reading the XML directly is also faster. The loader describes (marks for changes
and comments, merged-cell positions, header/footer parts in the furniture layer); cleaners decide.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import PurePosixPath
from typing import Literal

from lxml import etree

from ...blocks import Block, BlockMeta, Document, ListNumber, Loaded, Mark, ParagraphForm
from ...errors import LoaderError
from .docx_inline import MC, InlineReader, Paragraph, R, W
from .docx_numbering import Numbering, Styles, parse_int, xml_val
from .docx_tables import read_table
from .numbers import roman
from .outline import Item, Table, place, root_of
from .spans import trim

MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
# ISO-Strict documents use other namespace URIs for the same vocabulary.
_STRICT = (
    (
        b"http://purl.oclc.org/ooxml/wordprocessingml/main",
        b"http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    ),
    (
        b"http://purl.oclc.org/ooxml/officeDocument/relationships",
        b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    ),
    (b"http://purl.oclc.org/ooxml/officeDocument/math", b"http://schemas.openxmlformats.org/officeDocument/2006/math"),
)
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)
_DC = "{http://purl.org/dc/elements/1.1/}"
_CP = "{http://schemas.openxmlformats.org/package/2006/metadata/core-properties}"
_DCTERMS = "{http://purl.org/dc/terms/}"
_CORE_FIELDS = (
    ("author", _DC + "creator"),
    ("subject", _DC + "subject"),
    ("description", _DC + "description"),
    ("keywords", _CP + "keywords"),
    ("category", _CP + "category"),
    ("last_modified_by", _CP + "lastModifiedBy"),
    ("created", _DCTERMS + "created"),
    ("modified", _DCTERMS + "modified"),
)
_NOTE_SKIP = frozenset({"separator", "continuationSeparator", "continuationNotice"})


def load(data: bytes, document: Document) -> Loaded:
    pkg = _Package(data, document.uri)
    return _Reader(pkg, document).read()


class _Package:
    """The ZIP container: parts by name and their relationships."""

    def __init__(self, data: bytes, subject: str):
        self.subject = subject
        if not data:
            raise LoaderError("the file is empty (0 bytes); re-export it from Word or remove it", subject=subject)
        if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
            raise LoaderError(
                "this is an OLE compound file: a legacy .doc or a password-protected .docx; "
                "save it from Word as an unprotected .docx",
                subject=subject,
            )
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile as exc:
            raise LoaderError(
                f"not a .docx: not a ZIP archive ({exc}); the file may be truncated or mislabelled", subject=subject
            ) from exc
        self._names = set(self._zip.namelist())
        main = self.target("", "officeDocument")
        if main is None:
            main = "word/document.xml" if "word/document.xml" in self._names else None
        if main is None:
            raise LoaderError(
                "ZIP archive has no Word main document part (word/document.xml); is it a .docx?", subject=subject
            )
        self.main = main

    def xml(self, name: str | None) -> etree._Element | None:
        if not name or name not in self._names:
            return None
        try:
            raw = self._zip.read(name)
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise LoaderError(f"corrupt ZIP entry {name}: {exc}; the file is damaged", subject=self.subject) from exc
        for strict, transitional in _STRICT:
            raw = raw.replace(strict, transitional)
        try:
            return etree.fromstring(raw, _PARSER)
        except etree.XMLSyntaxError as exc:
            raise LoaderError(f"malformed XML in {name}: {exc}; the file is damaged", subject=self.subject) from exc

    def rels(self, part: str) -> list[tuple[str, str, str, bool]]:
        """(id, type's last segment, target, external) for each relationship of `part`."""
        folder, base = posixpath.split(part)
        root = self.xml(posixpath.join(folder, "_rels", base + ".rels"))
        out = []
        for rel in root.iter(_REL) if root is not None else ():
            target = rel.get("Target", "")
            external = rel.get("TargetMode") == "External"
            if not external:
                target = (
                    target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
                )
            out.append((rel.get("Id", ""), rel.get("Type", "").rsplit("/", 1)[-1], target, external))
        return out

    def target(self, part: str, rel_type: str) -> str | None:
        return next((t for _, kind, t, ext in self.rels(part) if kind == rel_type and not ext), None)


class _Reader:
    def __init__(self, pkg: _Package, document: Document):
        self.pkg = pkg
        self.document = document
        rels = pkg.rels(pkg.main)
        self._hyperlinks = {rid: t for rid, kind, t, ext in rels if kind == "hyperlink"}
        by_kind: dict[str, list[str]] = {}
        for _, kind, target, ext in rels:
            if not ext:
                by_kind.setdefault(kind, []).append(target)
        self._parts = by_kind
        self._rid_target = {rid: t for rid, _, t, ext in rels if not ext}
        self.styles = Styles(pkg.xml(self._part("styles")))
        self.numbering = Numbering(pkg.xml(self._part("numbering")), self.styles)
        self._notes = {kind: self._note_elements(kind) for kind in ("footnote", "endnote")}
        self._labels: dict[tuple[str, str], str] = {}
        self.comments: dict[str, dict[str, str]] = {}
        self.comments = self._read_comments()
        self.warnings: list[str] = []

    # -- parts ---------------------------------------------------------------------------------

    def _part(self, kind: str) -> str | None:
        found = self._parts.get(kind)
        return found[0] if found else None

    def _note_elements(self, kind: str) -> dict[str, etree._Element]:
        root = self.pkg.xml(self._part(kind + "s"))
        if root is None:
            return {}
        return {n.get(W + "id", ""): n for n in root.iterfind(W + kind) if n.get(W + "type") not in _NOTE_SKIP}

    def _note_label(self, kind: str, nid: str) -> str:
        if nid not in self._notes[kind]:
            return ""
        key = (kind, nid)
        if key not in self._labels:
            n = sum(1 for k in self._labels if k[0] == kind) + 1
            self._labels[key] = str(n) if kind == "footnote" else roman(n).lower()
        return self._labels[key]

    def _read_comments(self) -> dict[str, dict[str, str]]:
        root = self.pkg.xml(self._part("comments"))
        out = {}
        for c in root.iterfind(W + "comment") if root is not None else ():
            text, marks = self._flatten(c)
            out[c.get(W + "id", "")] = {
                "author": c.get(W + "author", ""),
                "date": c.get(W + "date", ""),
                "text": _without_deletions(text, marks).strip(),
            }
        return out

    def _inline(self) -> InlineReader:
        return InlineReader(self._hyperlinks, self.comments, self._note_label)

    # -- reading -------------------------------------------------------------------------------

    def read(self) -> Loaded:
        root = self.pkg.xml(self.pkg.main)
        if root is None or root.tag != W + "document":
            raise LoaderError(
                f"the package's main part {self.pkg.main} is not a Word document "
                "(a spreadsheet or presentation named .docx?); open it in its own application",
                subject=self.pkg.subject,
            )
        body = root.find(W + "body")
        if body is None:
            raise LoaderError(f"{self.pkg.main} has no w:body; the file is damaged", subject=self.pkg.subject)
        items = list(self._body(body))
        title, root_heading = root_of(items, self._fallback_title)
        blocks = [
            *self._furniture(body, "header", title),
            *place(items, title, root_heading),
            *self._furniture(body, "footer", title),
        ]
        meta = {**self.document.meta, **self._core_properties()}
        if self.comments:
            meta["comments"] = tuple({"id": cid, **c} for cid, c in self.comments.items())
        document = replace(self.document, title=title, meta=meta)
        return Loaded(document=document, blocks=tuple(blocks), text=None, warnings=tuple(self.warnings))

    def _body(self, body: etree._Element) -> Iterator[Item]:
        reader = self._inline()
        keep_lead = False
        for el in _block_elements(body):
            if el.tag == W + "tbl":
                keep_lead = False
                table, notes = self._table(el)
                if table.rows:  # a table whose rows were all deleted is left empty by some tools
                    yield Item("table", table=table)
                yield from self._note_items(notes)
                continue
            if el.tag == W + "altChunk":
                self.warnings.append("an embedded alternative-format chunk (altChunk) was skipped")
                continue
            para = reader.paragraph(el)
            item = self._classify(el, para, keep_lead)
            keep_lead = para.mark_change is not None
            if item is not None:
                yield item
            for box in para.boxes:
                text, marks = self._flatten(box)
                if text:
                    yield Item("paragraph", text, marks, meta={"textbox": True})
            yield from self._note_items(para.notes)

    def _classify(self, p: etree._Element, para: Paragraph, keep_lead: bool) -> Item | None:
        ppr = p.find(W + "pPr")
        form = self._form(ppr)
        marker = self.numbering.next(form.list_id, form.number.level)[0] if form.number is not None else ""
        text, marks = trim(para.text, para.marks, lead=not keep_lead, trail=para.mark_change is None)
        if para.mark_change is not None:  # the paragraph mark is a tracked "\n" the cleaner resolves
            kind, attrs = para.mark_change
            text, marks = text + "\n", [*marks, Mark(kind, len(text), len(text) + 1, attrs)]
        if not text:
            return None
        meta: BlockMeta = {"style": form.style} if form.style else {}
        change = ppr.find(W + "pPrChange") if ppr is not None else None
        if change is not None:  # what the paragraph was before: the cleaner's `reject` gives it back
            before = self._form(change.find(W + "pPr"))
            if (before.kind, before.style, before.rank, before.level, before.number) != (
                form.kind,
                form.style,
                form.rank,
                form.level,
                form.number,
            ):
                attrs = {"author": change.get(W + "author", ""), "date": change.get(W + "date", "")}
                meta["form_before"] = replace(before, attrs=attrs)
        if form.number is not None:
            meta["number"] = form.number
        if form.kind == "heading" and form.rank is not None:
            meta["rank"] = form.rank
            if form.number is not None and marker and not form.number.bullet:  # numbered headings keep their numbers
                prefix = marker + form.number.suffix
                meta["marker"] = marker
                text, marks = (
                    prefix + text,
                    [replace(m, start=m.start + len(prefix), end=m.end + len(prefix)) for m in marks],
                )
            return Item("heading", text, marks, rank=form.rank, level=form.level, meta=meta)
        if form.kind == "list_item":
            meta.update(BlockMeta(marker=marker, list_id=form.list_id))
        return Item(form.kind, text, marks, level=form.level, meta=meta)

    def _form(self, ppr: etree._Element | None) -> ParagraphForm:
        """What paragraph properties make of a paragraph: heading (by style or outline level), list
        item (by its own or its style's numbering) or a kind its style hints at."""
        sid = xml_val(ppr, "pStyle") or self.styles.default
        style = self.styles.name(sid) if sid else ""
        outline = parse_int(xml_val(ppr, "outlineLvl"))
        rank = (outline + 1 if 0 <= outline <= 8 else None) if outline is not None else self.styles.rank(sid)
        num = self._num(ppr, sid)
        number = self.numbering.number(*num) if num is not None else None
        list_id = num[0] if num is not None else ""
        if rank is not None:
            return ParagraphForm("heading", style, rank, max(rank, 1), number, list_id)
        if num is not None:
            return ParagraphForm("list_item", style, None, num[1], number, list_id)
        return ParagraphForm(self.styles.hint(sid) or "paragraph", style, None, 0, None, list_id)

    def _num(self, ppr: etree._Element | None, sid: str | None) -> tuple[str, int] | None:
        numpr = ppr.find(W + "numPr") if ppr is not None else None
        style_num = self.styles.num(sid)
        num_id = xml_val(numpr, "numId") or (style_num[0] if style_num else None)
        ilvl = parse_int(xml_val(numpr, "ilvl"))
        if ilvl is None:
            ilvl = style_num[1] if style_num and style_num[1] is not None else 0
        if not num_id or num_id == "0":  # numId 0 switches numbering off
            return None
        return num_id, ilvl

    def _table(self, tbl: etree._Element) -> tuple[Table, list[tuple[str, str]]]:
        notes: list[tuple[str, str]] = []

        numbers: list[ListNumber] = []

        def cell(tc: etree._Element) -> tuple[str, list[Mark]]:
            return self._flatten(tc, notes, numbers)

        table = read_table(tbl, cell)
        if next(tbl.iter(W + "cellIns", W + "cellDel"), None) is not None:
            self.warnings.append(
                "a table has tracked inserted or deleted cells (w:cellIns / w:cellDel): their text is read "
                "as it stands, in every track_changes mode"
            )
        return replace(table, numbers=tuple(numbers)), notes

    def _note_items(self, notes: list[tuple[str, str]]) -> Iterator[Item]:
        for kind, nid in notes:
            el = self._notes[kind].get(nid)
            if el is None:
                continue
            text, marks = self._flatten(el)
            if text:
                label = self._labels.get((kind, nid), "")
                yield Item("footnote", text, marks, meta={"note": kind, "id": nid, "label": label})

    def _flatten(
        self, parent: etree._Element, notes: list | None = None, numbers: list[ListNumber] | None = None
    ) -> tuple[str, list[Mark]]:
        """A story (cell, note, text box, header, comment) as one text: paragraphs joined by "\\n"."""
        reader = self._inline()
        parts: list[str] = []
        marks: list[Mark] = []
        pos = 0

        def add(text: str, more: list[Mark]) -> None:
            nonlocal pos
            marks.extend(replace(m, start=m.start + pos, end=m.end + pos) for m in more)
            parts.append(text)
            pos += len(text)

        for el in _block_elements(parent):
            if el.tag == W + "tbl":  # a nested table reads row by row, cells separated by spaces
                table = read_table(el, lambda tc: self._flatten(tc, notes, numbers))
                cell_marks: dict[tuple[int, int], list[Mark]] = {}
                for r, c, m in table.cell_marks:
                    cell_marks.setdefault((r, c), []).append(m)
                row_marks = dict(table.row_marks)
                for r, row in enumerate(table.rows):
                    start = pos
                    for c, value in enumerate(row):
                        if value:
                            add(value, cell_marks.get((r, c), []))
                            add(" ", [])
                    if r in row_marks and pos > start:
                        marks.append(replace(row_marks[r], start=start, end=pos))
                    add("\n", [])
                continue
            if el.tag != W + "p":
                continue
            para = reader.paragraph(el)
            if numbers is not None:  # list paragraphs in body tables count towards the body's list numbers
                self._advance_numbering(el, numbers)
            add(para.text, para.marks)
            for box in para.boxes:
                add("\n", [])
                add(*self._flatten(box, notes))
            if notes is not None:
                notes.extend(para.notes)
            change = para.mark_change
            add("\n", [Mark(change[0], 0, 1, change[1])] if change else [])
        return trim("".join(parts), marks)

    def _advance_numbering(self, p: etree._Element, numbers: list[ListNumber]) -> None:
        ppr = p.find(W + "pPr")
        num = self._num(ppr, xml_val(ppr, "pStyle") or self.styles.default)
        if num is not None:
            number = self.numbering.next(*num)[1]
            if number is not None:
                numbers.append(number)

    def _furniture(self, body: etree._Element, part: Literal["header", "footer"], title: str) -> Iterator[Block]:
        """Header or footer parts every section references, each once, as paragraphs of the furniture layer."""
        seen: set[str] = set()
        for sect in body.iter(W + "sectPr"):
            for ref in sect.iterfind(W + part + "Reference"):
                target = self._rid_target.get(ref.get(R + "id", ""))
                if not target or target in seen:
                    continue
                seen.add(target)
                root = self.pkg.xml(target)
                if root is None:
                    continue
                text, marks = self._flatten(root)
                if text:
                    meta = BlockMeta(part=part, type=ref.get(W + "type", "default"))
                    yield Block("paragraph", text, path=(title,), marks=tuple(marks), meta=meta, layer="furniture")

    def _fallback_title(self) -> str:
        """The title from the core properties, else the one the source gave, else the file name."""
        return self._core_title() or self.document.title or PurePosixPath(self.document.name).stem

    def _core_title(self) -> str:
        root = self._core()
        el = root.find(_DC + "title") if root is not None else None
        return " ".join((el.text or "").split()) if el is not None else ""

    def _core(self) -> etree._Element | None:
        return self.pkg.xml(self.pkg.target("", "core-properties") or "docProps/core.xml")

    def _core_properties(self) -> dict[str, str]:
        """The core properties besides the title that are filled in (author, subject, keywords,
        dates...), under the names the OpenDocument loader gives them; dates as their day."""
        root = self._core()
        out = {}
        for key, tag in _CORE_FIELDS:
            el = root.find(tag) if root is not None else None
            value = " ".join((el.text or "").split()) if el is not None else ""
            if value:
                out[key] = value[:10] if key in ("created", "modified") else value
        return out


def _block_elements(parent: etree._Element) -> Iterator[etree._Element]:
    """Paragraphs and tables in reading order, through content controls and custom XML."""
    for el in parent:
        tag = el.tag
        if tag in (W + "p", W + "tbl", W + "altChunk"):
            yield el
        elif tag == W + "sdt":
            content = el.find(W + "sdtContent")
            if content is not None:
                yield from _block_elements(content)
        elif tag in (W + "customXml", W + "ins", W + "del", W + "moveFrom", W + "moveTo", W + "txbxContent"):
            yield from _block_elements(el)
        elif tag == MC + "AlternateContent":
            choice = el.find(MC + "Choice")
            if choice is not None:
                yield from _block_elements(choice)


def _without_deletions(text: str, marks: list[Mark]) -> str:
    keep = [True] * len(text)
    for m in marks:
        if m.kind == "deletion":
            keep[m.start : m.end] = [False] * (m.end - m.start)
    return "".join(c for c, k in zip(text, keep) if k)
