"""Google Docs: the JSON of the Docs API's `documents.get` as blocks.

What the API gives is kept the way the Word loader keeps it, so the same cleaners apply:
suggestions (read with `suggestionsViewMode=SUGGESTIONS_INLINE`) become `insertion` / `deletion`
marks, for the track_changes cleaner; links become `link` marks; table cells carry their marks in
`meta["cell_marks"]` and merged cells in `meta["covered"]` / `meta["merges"]`; headers and footers
are furniture; footnotes follow the paragraph that cites them. Headings come from the paragraph's
named style (Title, Heading 1-6), list items from its bullet with the number Docs shows, computed
from the list's glyph settings. A document read with tabs (`includeTabsContent=true`) gives each
tab's title as a level of the heading path above the tab's own headings.

Comments are not in the Docs API's JSON; the Drive source adds the Drive API's list of them
under "comments", and `gdoc_comments` places them as `comment` marks on the text they quote.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Literal

from ...blocks import Block, BlockMeta, Document, ListNumber, Loaded, Mark, ParagraphForm
from ...errors import LoaderError
from .gdoc_comments import place_comments
from .numbers import Counters
from .outline import TITLE_RANK, Item, Table, place, root_of
from .spans import trim

MIME_TYPE = "application/vnd.google-apps.document"

CHANGES = ("insertion", "deletion")
_HEADING = re.compile(r"HEADING_([1-6])")
# Google's glyph types in Word's names, for the shared number formatter.
_GLYPHS = {
    "DECIMAL": "decimal",
    "ZERO_DECIMAL": "decimalZero",
    "ALPHA": "lowerLetter",
    "UPPER_ALPHA": "upperLetter",
    "ROMAN": "lowerRoman",
    "UPPER_ROMAN": "upperRoman",
}
_LEVEL_REF = re.compile(r"%([0-8])")


def load(data: bytes, document: Document) -> Loaded:
    try:
        doc = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LoaderError(f"not the JSON of a Google Docs API document: {exc}", subject=document.uri) from None
    if b"\\ud" in data or b"\\uD" in data:  # JSON escapes can spell half a character pair
        doc = _whole_characters(doc)
    if not isinstance(doc, dict) or not ("body" in doc or "tabs" in doc):
        raise LoaderError(
            "JSON without a document body or tabs: not a Docs API `documents.get` result", subject=document.uri
        )
    return _Reader(doc, document).read()


@dataclass(slots=True)
class _Tab:
    """What a tab (or a tabless document) holds: its body and the parts the body points into."""

    title: str
    depth: int
    body: list
    lists: dict
    footnotes: dict
    headers: dict
    footers: dict


class _Reader:
    def __init__(self, doc: dict, document: Document) -> None:
        self.doc = doc
        self.document = document
        self.warnings: list[str] = []
        self.skipped: dict[str, int] = {}

    def read(self) -> Loaded:
        tabs = list(_tabs(self.doc))
        items: list[Item] = []
        furniture: list[Block] = []
        for tab in tabs:
            counters = Counters()
            if len(tabs) > 1:  # a tab's title ranks above every heading in it (and a child tab's below)
                items.append(Item("heading", tab.title, rank=tab.depth - 10, level=tab.depth + 1, meta={"tab": True}))
            items.extend(self._content(tab.body, tab, counters))
            parts: tuple[tuple[Literal["header", "footer"], dict], ...] = (
                ("header", tab.headers),
                ("footer", tab.footers),
            )
            for part, stories in parts:
                for sid, story in stories.items():
                    text, marks = self._story(story.get("content", []), tab, counters)
                    if text:
                        furniture.append(
                            Block(
                                "paragraph", text, marks=tuple(marks), meta={"part": part, "id": sid}, layer="furniture"
                            )
                        )
        title, root_heading = root_of(
            items, lambda: str(self.doc.get("title") or self.document.title or self.document.name)
        )
        blocks = [replace(b, path=(title,)) for b in furniture if b.meta["part"] == "header"]
        blocks += place(items, title, root_heading)
        blocks += [replace(b, path=(title,)) for b in furniture if b.meta["part"] == "footer"]
        if self.skipped:
            self.warnings.append("left out: " + ", ".join(f"{n} {kind}" for kind, n in sorted(self.skipped.items())))
        meta = {
            **self.document.meta,
            **{
                k: v
                for k, v in (("document_id", self.doc.get("documentId")), ("revision_id", self.doc.get("revisionId")))
                if v
            },
        }
        if isinstance(self.doc.get("comments"), list):  # added by the Drive source: not part of documents.get
            blocks, meta["comments"], lost = place_comments(blocks, self.doc["comments"])
            if lost:
                self.warnings.append(
                    f"{lost} comment(s) quote text no longer in the document; kept in its metadata only"
                )
        document = replace(self.document, title=title, meta=meta)
        return Loaded(document=document, blocks=tuple(blocks), text=None, warnings=tuple(self.warnings))

    # -- structure -----------------------------------------------------------------------------

    def _content(self, elements: list, tab: _Tab, counters: Counters, cited: list[str] | None = None) -> Iterator[Item]:
        """Items in order, each footnote after what cites it; with `cited`, the ids of the notes
        go there instead, for the enclosing table to place (a note is not read inside a cell)."""
        for el in elements:
            if "paragraph" in el:
                item, notes = self._paragraph(el["paragraph"], tab, counters)
                if item is not None:
                    yield item
                if cited is not None:
                    cited += notes
                else:
                    yield from self._notes(notes, tab, counters, item.marks if item else ())
            elif "table" in el:
                table, notes = self._table(el["table"], tab, counters)
                if table.rows:
                    yield Item("table", table=table)
                if cited is not None:
                    cited += notes
                else:
                    yield from self._notes(notes, tab, counters, [m for *_, m in table.cell_marks])
            elif "tableOfContents" in el:
                self._skip("table of contents")  # links to the headings, which are read anyway
            elif "sectionBreak" not in el:
                self._skip("unknown element")

    def _paragraph(self, para: dict, tab: _Tab, counters: Counters) -> tuple[Item | None, list[str]]:
        notes: list[str] = []
        text, marks = self._runs(para.get("elements", []), notes)
        end = len(text) - 1  # the paragraph's own "\n", which a suggestion may insert or delete
        changed = text.endswith("\n") and any(m.kind in CHANGES and m.start <= end < m.end for m in marks)
        if not text.strip():
            return None, notes
        # A suggested paragraph mark stays, marked, with the spaces before it: resolving it joins
        # this paragraph to the next one as the text runs.
        text, marks = trim(text, marks, trail=not changed)
        style = para.get("paragraphStyle", {})
        base = self._form(style.get("namedStyleType", "NORMAL_TEXT"), para.get("bullet"), tab)
        form = self._suggested(para, base, tab)
        number, marker = form.number, ""
        if number is not None:
            marker = counters.next(number)
        meta = BlockMeta(style=form.style) if form.kind == "heading" or form.style != "NORMAL_TEXT" else BlockMeta()
        if form != base:  # a suggested style or bullet: the cleaner's `reject` gives the paragraph its base form
            meta["form_before"] = base
        if number is not None:
            meta["number"] = number
        if form.kind == "heading" and form.rank is not None:
            meta["rank"] = form.rank
            if marker and marker[0].isalnum() and number is not None:  # a numbered heading keeps its number
                prefix = marker + number.suffix
                meta["marker"] = marker
                text, marks = prefix + text, [_shift(m, len(prefix)) for m in marks]
            heading_id = style.get("headingId")  # what a #heading= link opens
            if heading_id:
                meta["heading_id"] = heading_id
            return Item("heading", text, marks, rank=form.rank, level=form.level, meta=meta), notes
        if form.kind == "list_item":
            meta.update(BlockMeta(marker=marker, list_id=form.list_id))
        return Item(form.kind, text, marks, level=form.level, meta=meta), notes

    def _form(self, style: str, bullet: dict | None, tab: _Tab) -> ParagraphForm:
        heading = _HEADING.fullmatch(style)
        rank = int(heading.group(1)) if heading else TITLE_RANK if style == "TITLE" else None
        number = self._number(bullet, tab) if bullet is not None else None
        list_id = bullet.get("listId", "") if bullet is not None else ""
        if rank is not None:
            return ParagraphForm("heading", style, rank, max(rank, 1), number, list_id)
        if bullet is not None:
            return ParagraphForm("list_item", style, None, bullet.get("nestingLevel", 0), number, list_id)
        return ParagraphForm("paragraph", style)

    def _suggested(self, para: dict, base: ParagraphForm, tab: _Tab) -> ParagraphForm:
        """The paragraph's form with its suggested named style and bullet applied (what Accept all
        gives); suggestions of other properties (spacing, alignment) change no text or structure."""
        style, bullet = base.style, para.get("bullet")
        ids: list[str] = []
        for sid, change in (para.get("suggestedParagraphStyleChanges") or {}).items():
            if (change.get("paragraphStyleSuggestionState") or {}).get("namedStyleTypeSuggested"):
                style = (change.get("paragraphStyle") or {}).get("namedStyleType") or "NORMAL_TEXT"
                ids.append(sid)
        for sid, change in (para.get("suggestedBulletChanges") or {}).items():
            state = change.get("bulletSuggestionState") or {}
            suggested = change.get("bullet") or {}
            if state.get("listIdSuggested"):
                list_id = suggested.get("listId")
                bullet = {"listId": list_id, "nestingLevel": suggested.get("nestingLevel", 0)} if list_id else None
                ids.append(sid)
            elif state.get("nestingLevelSuggested") and bullet is not None:
                bullet = {**bullet, "nestingLevel": suggested.get("nestingLevel", 0)}
                ids.append(sid)
        if not ids:
            return base
        return replace(self._form(style, bullet, tab), attrs={"id": ids[0], "suggestion": "true"})

    def _runs(self, elements: list, notes: list[str]) -> tuple[str, list[Mark]]:
        """A paragraph's elements as one text with marks (suggestions, links, note references)."""
        parts: list[str] = []
        marks: list[Mark] = []
        pos = 0
        for el in elements:
            if "textRun" in el:
                run = el["textRun"]
                piece = run.get("content", "").replace("\u000b", "\n")  # shift+enter: a line break
            elif "person" in el:
                props = el["person"].get("personProperties", {})
                run, piece = el["person"], props.get("name") or props.get("email", "")
            elif "richLink" in el:
                props = el["richLink"].get("richLinkProperties", {})
                run, piece = el["richLink"], props.get("title") or props.get("uri", "")
                if props.get("uri") and piece:
                    marks.append(Mark("link", pos, pos + len(piece), {"href": props["uri"]}))
            elif "footnoteReference" in el:
                run = el["footnoteReference"]
                label, nid = run.get("footnoteNumber", ""), run.get("footnoteId", "")
                piece = f"[{label}]" if label else ""  # as the Word loader writes a note reference
                notes.append(nid)
                marks.append(
                    Mark("footnote_ref", pos, pos + len(piece), {"id": nid, "note": "footnote", "label": label})
                )
            else:
                # autoText (page numbers), breaks, rules, equations, images: no text of the document's own
                kind = next((k for k in el if k not in ("startIndex", "endIndex")), "element")
                if kind == "inlineObjectElement":
                    self._skip("images")
                continue
            if not piece:
                continue
            end = pos + len(piece)
            for kind, key in (("insertion", "suggestedInsertionIds"), ("deletion", "suggestedDeletionIds")):
                if run.get(key):
                    marks.append(Mark(kind, pos, end, {"id": run[key][0], "suggestion": "true"}))
            link = run.get("textStyle", {}).get("link", {}) if "textRun" in el else {}
            target = link.get("url") or (f"#{link['headingId']}" if link.get("headingId") else "")
            if target:
                marks.append(Mark("link", pos, end, {"href": target}))
            parts.append(piece)
            pos = end
        return "".join(parts), _merge_adjacent(marks)

    def _number(self, bullet: dict, tab: _Tab) -> ListNumber:
        """How a list item counts and writes the number or bullet Docs shows before it."""
        list_id, level = bullet.get("listId", ""), bullet.get("nestingLevel", 0)
        levels = tab.lists.get(list_id, {}).get("listProperties", {}).get("nestingLevels", [])
        formats = tuple((_start(levels, k), _GLYPHS.get(_glyph(levels, k), "decimal")) for k in range(9))
        spec = levels[level] if level < len(levels) else {}
        glyph = spec.get("glyphType", "")
        if glyph == "NONE":  # numbering switched off at this level
            return ListNumber(list_id, level, "", formats)
        if glyph not in _GLYPHS:
            return ListNumber(list_id, level, "", formats, bullet=spec.get("glyphSymbol", "") or "•")
        template = (spec.get("glyphFormat") or f"%{level}.").strip()
        return ListNumber(list_id, level, _LEVEL_REF.sub(lambda m: f"%{int(m.group(1)) + 1}", template), formats)

    def _table(self, table: dict, tab: _Tab, counters: Counters) -> tuple[Table, list[str]]:
        rows: list[tuple[str, ...]] = []
        cell_marks: list[tuple[int, int, Mark]] = []
        row_marks: list[tuple[int, Mark]] = []
        covered: list[tuple[int, int]] = []
        merges: list[tuple[int, int, int, int]] = []
        notes: list[str] = []
        numbers: list[ListNumber] = []
        header_rows = 0
        for r, row in enumerate(table.get("tableRows", [])):
            cells = []
            for c, cell in enumerate(row.get("tableCells", [])):
                text, marks = self._story(cell.get("content", []), tab, counters, notes, numbers)
                cells.append(text)
                cell_marks.extend((r, c, m) for m in marks)
                style = cell.get("tableCellStyle", {})
                rspan, cspan = style.get("rowSpan", 1), style.get("columnSpan", 1)
                if rspan > 1 or cspan > 1:
                    merges.append((r, c, r + rspan - 1, c + cspan - 1))
            rows.append(tuple(cells))
            for kind, key in (("insertion", "suggestedInsertionIds"), ("deletion", "suggestedDeletionIds")):
                if row.get(key):
                    row_marks.append((r, Mark(kind, 0, 0, {"id": row[key][0], "suggestion": "true"})))
            if header_rows == r and row.get("tableRowStyle", {}).get("tableHeader"):
                header_rows += 1
        # Docs keeps every cell of a merged range; the ones under the top-left cell are empty.
        for r0, c0, r1, c1 in merges:
            covered.extend((r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if (r, c) != (r0, c0))
        width = max((len(r) for r in rows), default=0)
        guessed = header_rows == 0 and len(rows) > 1
        return Table(
            rows=tuple(r + ("",) * (width - len(r)) for r in rows),
            header_rows=1 if guessed else header_rows,
            header_guessed=guessed,
            covered=tuple(covered),
            cell_marks=tuple(cell_marks),
            row_marks=tuple(row_marks),
            merges=tuple(merges),
            numbers=tuple(numbers),
        ), notes

    def _story(
        self,
        elements: list,
        tab: _Tab,
        counters: Counters,
        notes: list[str] | None = None,
        numbers: list[ListNumber] | None = None,
    ) -> tuple[str, list[Mark]]:
        """A cell, header, footer or footnote as one text: paragraphs joined by line breaks, list
        items with their markers, a nested table row by row."""
        parts: list[str] = []
        marks: list[Mark] = []
        pos = 0
        for item in self._content(elements, tab, counters, cited=[] if notes is None else notes):
            if numbers is not None:  # list items in a cell count in the body's lists
                numbers.extend(item.table.numbers if item.table is not None else ())
                if "number" in item.meta:
                    numbers.append(item.meta["number"])
            if item.table is not None:
                text = "\n".join(" ".join(v for v in row if v) for row in item.table.rows)
                more: list[Mark] = []
            else:
                prefix = (
                    item.meta.get("marker", "") + " " if item.kind == "list_item" and item.meta.get("marker") else ""
                )
                text, more = prefix + item.text, [_shift(m, len(prefix)) for m in item.marks]
            if parts and not parts[-1].endswith("\n"):  # a suggested paragraph mark is its own "\n"
                parts.append("\n")
                pos += 1
            marks.extend(_shift(m, pos) for m in more)
            parts.append(text)
            pos += len(text)
        return "".join(parts), marks

    def _notes(self, note_ids: list[str], tab: _Tab, counters: Counters, cited_by: Iterable[Mark]) -> Iterator[Item]:
        labels = {m.attrs["id"]: m.attrs["label"] for m in cited_by if m.kind == "footnote_ref"}
        for nid in note_ids:
            note = tab.footnotes.get(nid)
            if note is None:
                self.warnings.append(f"footnote {nid} is cited but not in the document")
                continue
            text, marks = self._story(note.get("content", []), tab, counters)
            if text:
                yield Item("footnote", text, marks, meta={"note": "footnote", "id": nid, "label": labels.get(nid, "")})

    def _skip(self, kind: str) -> None:
        self.skipped[kind] = self.skipped.get(kind, 0) + 1


def _tabs(doc: dict) -> Iterator[_Tab]:
    """The document's tabs in order, children after their parent; a tabless document is one."""
    if "tabs" not in doc:
        yield _Tab(
            "",
            0,
            doc.get("body", {}).get("content", []),
            doc.get("lists", {}),
            doc.get("footnotes", {}),
            doc.get("headers", {}),
            doc.get("footers", {}),
        )
        return

    def walk(tabs: list, depth: int) -> Iterator[_Tab]:
        for tab in tabs:
            dt = tab.get("documentTab", {})
            title = " ".join(tab.get("tabProperties", {}).get("title", "").split()) or "Untitled tab"
            yield _Tab(
                title,
                depth,
                dt.get("body", {}).get("content", []),
                dt.get("lists", {}),
                dt.get("footnotes", {}),
                dt.get("headers", {}),
                dt.get("footers", {}),
            )
            yield from walk(tab.get("childTabs", []), depth + 1)

    yield from walk(doc["tabs"], 0)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _whole_characters(value):
    """The JSON with every lone surrogate (half of a pair, which no file or index can store)
    replaced by U+FFFD; json.loads has already joined the halves that came in pairs."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_whole_characters(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole_characters(v) for k, v in value.items()}
    return value


def _glyph(levels: list, level: int) -> str:
    return (levels[level] if level < len(levels) else {}).get("glyphType", "")


def _start(levels: list, level: int) -> int:
    """The first number of a list level; Docs counts a start of 0 as 1 for letters and Roman numerals."""
    start = (levels[level] if level < len(levels) else {}).get("startNumber", 1)
    return 1 if start == 0 and _glyph(levels, level) in ("ALPHA", "UPPER_ALPHA", "ROMAN", "UPPER_ROMAN") else start


def _shift(mark: Mark, by: int) -> Mark:
    return Mark(mark.kind, mark.start + by, mark.end + by, mark.attrs)


def _merge_adjacent(marks: list[Mark]) -> list[Mark]:
    """One mark per run of touching runs with the same kind and attributes (Docs splits runs at
    every style change)."""
    out: list[Mark] = []
    for m in sorted(marks, key=lambda m: (m.kind, m.start)):
        prev = out[-1] if out else None
        if prev is not None and prev.kind == m.kind and prev.end == m.start and dict(prev.attrs) == dict(m.attrs):
            out[-1] = Mark(prev.kind, prev.start, m.end, prev.attrs)
        else:
            out.append(m)
    return sorted(out, key=lambda m: (m.start, m.end))
