"""A paragraph's text with its marks: links, note references, comment anchors and tracked changes.

ODF keeps a deletion's text out of the body, in `text:tracked-changes`, and marks where it was with
`text:change`; an insertion is the body text between `text:change-start` and `text:change-end`,
which may lie in different paragraphs. The reader puts deleted text back where it was, marked
`deletion`, and marks inserted text `insertion`, as the Word loader does, so the `track_changes`
cleaner resolves both formats alike (accepted by default: deleted text never reaches the index).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from ...blocks import Mark
from .package import DC, DRAW, OFFICE, TABLE, TEXT, XLINK

XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
# Elements whose text is not the paragraph's: handled apart or left out.
SPACES = re.compile(r"[ \t\r\n]+")
_SKIP = frozenset({TEXT + "note-body", TEXT + "ruby-text", OFFICE + "change-info", TEXT + "soft-page-break"})


@dataclass(frozen=True, slots=True)
class Change:
    kind: str  # "insertion" | "deletion" | "format-change"
    attrs: dict[str, str]
    deleted: str = ""
    """A deletion's text, its paragraphs joined by newlines."""


@dataclass(slots=True)
class Paragraph:
    text: str = ""
    marks: list[Mark] = field(default_factory=list)
    notes: list[tuple[str, str, str, etree._Element]] = field(default_factory=list)
    """(note class, id, label, note-body) of each note referenced in the paragraph."""
    boxes: list[etree._Element] = field(default_factory=list)
    """Text boxes and shapes holding paragraphs, read after the paragraph."""


def read_changes(root: etree._Element) -> dict[str, Change]:
    """The changed regions of `text:tracked-changes`, by id."""
    out: dict[str, Change] = {}
    for region in root.iter(TEXT + "changed-region"):
        rid = region.get(TEXT + "id") or region.get(XML_ID) or ""
        for el in region:
            if not isinstance(el.tag, str) or not el.tag.startswith(TEXT):
                continue
            info = el.find(OFFICE + "change-info")
            attrs = {"id": rid}
            if info is not None:
                attrs["author"] = " ".join(" ".join(_plain(e) for e in info.iterfind(DC + "creator")).split())
                attrs["date"] = "".join(e.text or "" for e in info.iterfind(DC + "date")).strip()
            deleted = ""
            if el.tag == TEXT + "deletion":
                paras = [p for p in el.iter(TEXT + "p", TEXT + "h")]
                deleted = "\n".join(InlineReader({}).paragraph(p).text for p in paras)
            out[rid] = Change(el.tag[len(TEXT) :], attrs, deleted)
    return out


class InlineReader:
    """Reads paragraphs in document order; an insertion open at a paragraph's end stays open."""

    def __init__(self, changes: dict[str, Change]):
        self._changes = changes
        self._open: list[str] = []
        """Insertions begun and not yet ended, innermost last."""
        self._note_count = {"footnote": 0, "endnote": 0}

    def paragraph(self, p: etree._Element) -> Paragraph:
        self._para = Paragraph()
        self._parts: list[str] = []
        self._pos = 0
        self._comments: dict[str, tuple[int, dict[str, str]]] = {}
        self._walk(p)
        for start, attrs in self._comments.values():  # a comment whose range ends in a later paragraph
            self._para.marks.append(Mark("comment", start, self._pos, attrs))
        self._para.text = "".join(self._parts)
        return self._para

    def marker(self, el: etree._Element) -> Mark | None:
        """A change mark met between paragraphs: insertions open or close; a deletion returns its
        mark (over its deleted text, `Change.deleted`) for the caller to place."""
        cid = el.get(TEXT + "change-id", "")
        if el.tag == TEXT + "change-start":
            if self._changes.get(cid, _NONE).kind == "insertion":
                self._open.append(cid)
        elif el.tag == TEXT + "change-end":
            if cid in self._open:
                self._open.remove(cid)
        elif el.tag == TEXT + "change":
            change = self._changes.get(cid)
            if change is not None and change.kind == "deletion" and change.deleted:
                return Mark("deletion", 0, len(change.deleted), change.attrs)
        return None

    def open_insertion(self) -> dict[str, str] | None:
        """The attrs of an insertion still open where the last paragraph ended: that paragraph's
        break was inserted with it (LibreOffice opens a new paragraph's insertion at the end of the
        one before)."""
        return self._changes[self._open[-1]].attrs if self._open else None

    def frames(self, el: etree._Element) -> list[etree._Element]:
        """The text boxes and shapes of a drawing element standing between paragraphs."""
        self._para = Paragraph()
        if isinstance(el.tag, str) and el.tag.startswith(DRAW):
            self._draw(el)
        return self._para.boxes

    def deleted(self, cid: str) -> str:
        return self._changes.get(cid, _NONE).deleted

    # -- walking -------------------------------------------------------------------------------

    def _walk(self, el: etree._Element) -> None:
        self._text(el.text)
        for child in el:
            self._element(child)
            self._text(child.tail)

    def _element(self, el: etree._Element) -> None:
        tag = el.tag
        if not isinstance(tag, str) or tag in _SKIP:
            return
        if tag == TEXT + "s":
            self._text(" " * _count(el.get(TEXT + "c")), collapse=False)
        elif tag == TEXT + "tab":
            self._text("\t", collapse=False)
        elif tag == TEXT + "line-break":
            self._text("\n", collapse=False)
        elif tag == TEXT + "number":  # a numbered heading's number, as shown, before its text
            number = _plain(el).strip()
            if number:
                self._text(number + " ")
        elif tag == TEXT + "a":
            start = self._pos
            self._walk(el)
            href = el.get(XLINK + "href", "")
            if href and self._pos > start:
                self._para.marks.append(Mark("link", start, self._pos, {"href": href}))
        elif tag == TEXT + "note":
            self._note(el)
        elif tag == OFFICE + "annotation":
            self._annotation(el)
        elif tag == OFFICE + "annotation-end":
            found = self._comments.pop(el.get(OFFICE + "name", ""), None)
            if found is not None:
                self._para.marks.append(Mark("comment", found[0], self._pos, found[1]))
        elif tag in (TEXT + "change-start", TEXT + "change-end", TEXT + "change"):
            mark = self.marker(el)
            if mark is not None:
                start = self._pos
                self._emit(self.deleted(el.get(TEXT + "change-id", "")))
                self._para.marks.append(Mark("deletion", start, self._pos, mark.attrs))
        elif tag.startswith(DRAW):
            self._draw(el)
        elif tag.startswith(TABLE) or tag in (TEXT + "p", TEXT + "h", TEXT + "list"):
            return  # block content inside inline content (a malformed file): not this paragraph's
        else:  # spans, fields, bookmarks, ruby bases, meta: their text in place
            self._walk(el)

    def _draw(self, el: etree._Element) -> None:
        """A frame's text box or a shape's paragraphs are read after the paragraph; images are not text."""
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == DRAW + "text-box":
                self._para.boxes.append(child)
            elif child.tag in (TEXT + "p", TEXT + "h", TEXT + "list"):
                if el not in self._para.boxes:
                    self._para.boxes.append(el)
            elif child.tag.startswith(DRAW):
                self._draw(child)

    def _note(self, el: etree._Element) -> None:
        kind = el.get(TEXT + "note-class", "footnote")
        kind = kind if kind in self._note_count else "footnote"
        self._note_count[kind] += 1
        citation = el.find(TEXT + "note-citation")
        label = " ".join(_plain(citation).split()) if citation is not None else ""
        label = label or str(self._note_count[kind])
        nid = el.get(TEXT + "id") or el.get(XML_ID) or f"{kind}{self._note_count[kind]}"
        start = self._pos
        self._emit(f"[{label}]")
        self._para.marks.append(Mark("footnote_ref", start, self._pos, {"id": nid, "note": kind, "label": label}))
        body = el.find(TEXT + "note-body")
        if body is not None:
            self._para.notes.append((kind, nid, label, body))

    def _annotation(self, el: etree._Element) -> None:
        texts = [InlineReader({}).paragraph(p).text for p in el.iter(TEXT + "p")]
        attrs = {
            "id": el.get(OFFICE + "name", ""),
            "author": " ".join(" ".join(_plain(e) for e in el.iterfind(DC + "creator")).split()),
            "date": "".join(e.text or "" for e in el.iterfind(DC + "date")).strip(),
            "text": "\n".join(t.strip() for t in texts if t.strip()),
        }
        name = el.get(OFFICE + "name")
        if name:  # a range ends at the office:annotation-end of the same name
            self._comments[name] = (self._pos, attrs)
        else:
            self._para.marks.append(Mark("comment", self._pos, self._pos, attrs))

    # -- emitting ------------------------------------------------------------------------------

    def _text(self, s: str | None, collapse: bool = True) -> None:
        if not s:
            return
        if collapse:  # ODF collapses white space in text nodes (spaces meant are written as text:s)
            s = SPACES.sub(" ", s)
        start = self._pos
        self._emit(s)
        if self._open:
            attrs = self._changes[self._open[-1]].attrs
            last = self._para.marks[-1] if self._para.marks else None
            if last is not None and last.kind == "insertion" and last.end == start and last.attrs == attrs:
                self._para.marks[-1] = Mark("insertion", last.start, self._pos, attrs)
            else:
                self._para.marks.append(Mark("insertion", start, self._pos, attrs))

    def _emit(self, s: str) -> None:
        self._parts.append(s)
        self._pos += len(s)


_NONE = Change("", {})


def _count(value: str | None) -> int:
    try:
        return max(1, int(value)) if value else 1
    except ValueError:
        return 1


def _plain(el: etree._Element) -> str:
    return "".join(str(t) for t in el.itertext())
