"""The inline content of one Word paragraph as text plus marks.

python-docx drops the runs inside `w:ins` and never shows `w:del`, moves, comment ranges, field
codes or text boxes, so paragraphs are read from the XML here. Tracked changes are kept, never
resolved: deleted text stays in the text under a "deletion" mark and the `track_changes` cleaner
decides. Field codes are never text; the result of page-number fields (PAGE, NUMPAGES...) is
dropped because it depends on layout, other field results are kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from ...blocks import Mark

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"

CHANGE_TAGS = {W + "ins": "insertion", W + "moveTo": "insertion", W + "del": "deletion", W + "moveFrom": "deletion"}
# Results that are page numbers or counts: layout artefacts, never document text.
PAGE_FIELDS = frozenset({"PAGE", "NUMPAGES", "SECTIONPAGES", "PAGEREF", "SECTION"})
# Property and container elements whose descendants are not the paragraph's text.
_SKIP = frozenset(
    W + t
    for t in (
        "pPr",
        "rPr",
        "sdtPr",
        "sdtEndPr",
        "rt",
        "fldData",
        "instrText",
        "delInstrText",
        "footnoteRef",
        "endnoteRef",
    )
) | {MC + "Fallback"}


def change_of(el: etree._Element) -> tuple[str, dict[str, str]]:
    """Mark kind and attrs of a w:ins / w:del / w:moveFrom / w:moveTo element."""
    attrs = {"author": el.get(W + "author", ""), "date": el.get(W + "date", "")}
    if el.tag in (W + "moveFrom", W + "moveTo"):
        attrs["move"] = "from" if el.tag == W + "moveFrom" else "to"
    return CHANGE_TAGS[el.tag], attrs


@dataclass(slots=True)
class Paragraph:
    """What one `w:p` holds, before the loader decides what block it becomes."""

    text: str
    marks: list[Mark]
    mark_change: tuple[str, dict[str, str]] | None = None
    """The paragraph mark itself was inserted or deleted: the paragraph joins the next one if undone."""
    boxes: list[etree._Element] = field(default_factory=list)
    """Text boxes (`w:txbxContent`) anchored in the paragraph, read by the caller as their own stories."""
    notes: list[tuple[str, str]] = field(default_factory=list)
    """("footnote" | "endnote", id) referenced from the paragraph, in order."""


@dataclass(slots=True)
class _Field:
    instr: list[str] = field(default_factory=list)
    in_result: bool = False
    hidden: bool = False


class InlineReader:
    """Reads the paragraphs of one story (body, cell, note, header) in order.

    A class because fields and comment ranges span paragraphs: a TOC field opens in one paragraph
    and ends many later, a comment may cover three paragraphs.
    """

    def __init__(
        self, hyperlinks: dict[str, str], comments: dict[str, dict[str, str]], note_label: Callable[[str, str], str]
    ):
        self._hyperlinks = hyperlinks
        self._comments = comments
        self._note_label = note_label
        self._fields: list[_Field] = []
        self._open_comments: dict[str, int] = {}
        self._anchored: set[str] = set()

    def paragraph(self, p: etree._Element) -> Paragraph:
        self._parts: list[str] = []
        self._pos = 0
        self._marks: list[Mark] = []
        self._changes: list[tuple[str, dict[str, str]]] = []
        self._links: list[str] = []
        self._para = Paragraph("", [])
        for cid in self._open_comments:
            self._open_comments[cid] = 0
        self._children(p)
        for cid, start in self._open_comments.items():
            self._comment(cid, start)
        para = self._para
        para.text = "".join(self._parts)
        para.marks = self._marks
        ppr = p.find(W + "pPr")
        rpr = ppr.find(W + "rPr") if ppr is not None else None
        if rpr is not None:
            for child in rpr:
                if child.tag in CHANGE_TAGS:
                    para.mark_change = change_of(child)
        return para

    # -- walking -------------------------------------------------------------------------------

    def _children(self, el: etree._Element) -> None:
        for child in el:
            self._element(child)

    def _element(self, el: etree._Element) -> None:
        tag = el.tag
        if not isinstance(tag, str) or tag in _SKIP:
            return
        if tag == W + "r" or tag == M + "r":
            self._run(el)
        elif tag in CHANGE_TAGS:
            self._changes.append(change_of(el))
            self._children(el)
            self._changes.pop()
        elif tag == W + "hyperlink":
            rid = el.get(R + "id")
            anchor = el.get(W + "anchor")
            self._links.append(self._hyperlinks.get(rid, "") if rid else f"#{anchor}" if anchor else "")
            start = self._pos
            self._children(el)
            href = self._links.pop()
            if href and self._pos > start:
                self._marks.append(Mark("link", start, self._pos, {"href": href}))
        elif tag == W + "fldSimple":
            f = _Field(instr=[el.get(W + "instr", "")], in_result=True)
            f.hidden = _field_name(f) in PAGE_FIELDS
            self._fields.append(f)
            self._children(el)
            self._fields.pop()
        elif tag == W + "commentRangeStart":
            cid = el.get(W + "id", "")
            self._anchored.add(cid)
            self._open_comments[cid] = self._pos
        elif tag == W + "commentRangeEnd":
            cid = el.get(W + "id", "")
            if cid in self._open_comments:
                self._comment(cid, self._open_comments.pop(cid))
        elif tag == W + "txbxContent":
            self._para.boxes.append(el)
        elif tag == MC + "AlternateContent":
            choice = el.find(MC + "Choice")  # Choice and Fallback hold the same content twice
            self._children(choice if choice is not None else el)
        else:  # sdt, sdtContent, smartTag, customXml, oMath, drawing, pict...: their runs count
            self._children(el)

    def _run(self, r: etree._Element) -> None:
        rpr = r.find(W + "rPr")
        pushed = 0
        if rpr is not None:  # math runs carry their tracked change in w:rPr
            for child in rpr:
                if child.tag in CHANGE_TAGS:
                    self._changes.append(change_of(child))
                    pushed += 1
        self._run_content(r)
        for _ in range(pushed):
            self._changes.pop()

    def _run_content(self, r: etree._Element) -> None:
        for child in r:
            tag = child.tag
            if tag in CHANGE_TAGS:  # math runs may wrap their text in w:ins / w:del
                self._changes.append(change_of(child))
                self._run_content(child)
                self._changes.pop()
            elif tag in (W + "t", W + "delText", M + "t"):
                self._text(child.text or "")
            elif tag in (W + "tab", W + "ptab"):
                self._text("\t")
            elif tag in (W + "br", W + "cr"):
                self._text("\n")
            elif tag == W + "noBreakHyphen":
                self._text("-")
            elif tag == W + "sym":
                code = int(child.get(W + "char", "0"), 16)
                if code and not 0xF000 <= code <= 0xF0FF:  # symbol-font glyphs have no Unicode meaning
                    self._text(chr(code))
            elif tag == W + "fldChar":
                self._fld_char(child.get(W + "fldCharType"))
            elif tag in (W + "instrText", W + "delInstrText"):
                if self._fields and not self._fields[-1].in_result:
                    self._fields[-1].instr.append(child.text or "")
            elif tag in (W + "footnoteReference", W + "endnoteReference"):
                self._note(tag == W + "footnoteReference", child.get(W + "id", ""))
            elif tag == W + "commentReference":
                cid = child.get(W + "id", "")
                if cid not in self._anchored:  # a comment without a range: anchor it where it sits
                    self._comment(cid, self._pos)
            elif tag not in _SKIP:
                self._element(child)

    def _fld_char(self, kind: str | None) -> None:
        if kind == "begin":
            self._fields.append(_Field())
        elif kind == "separate" and self._fields:
            f = self._fields[-1]
            f.in_result = True
            f.hidden = _field_name(f) in PAGE_FIELDS
        elif kind == "end" and self._fields:
            self._fields.pop()

    def _note(self, footnote: bool, nid: str) -> None:
        kind = "footnote" if footnote else "endnote"
        label = self._note_label(kind, nid)
        if not label or not self._visible():
            return
        start = self._pos
        self._text(f"[{label}]")
        self._marks.append(Mark("footnote_ref", start, self._pos, {"id": nid, "note": kind, "label": label}))
        self._para.notes.append((kind, nid))

    # -- emitting ------------------------------------------------------------------------------

    def _visible(self) -> bool:
        return all(f.in_result and not f.hidden for f in self._fields)

    def _text(self, s: str) -> None:
        if not s or not self._visible():
            return
        start = self._pos
        self._parts.append(s)
        self._pos += len(s)
        seen: set[str] = set()
        for kind, attrs in reversed(self._changes):  # innermost wins per kind
            if kind in seen:
                continue
            seen.add(kind)
            self._add_mark(Mark(kind, start, self._pos, attrs))

    def _add_mark(self, mark: Mark) -> None:
        # Neighbouring runs of one change are one mark, so a cleaner sees one span per change.
        for i in range(len(self._marks) - 1, -1, -1):
            prev = self._marks[i]
            if prev.kind == mark.kind and prev.end == mark.start and prev.attrs == mark.attrs:
                self._marks[i] = Mark(prev.kind, prev.start, mark.end, prev.attrs)
                return
            if prev.end < mark.start:
                break
        self._marks.append(mark)

    def _comment(self, cid: str, start: int) -> None:
        info = self._comments.get(cid)
        if info is not None:
            self._marks.append(Mark("comment", start, self._pos, {"id": cid, **info}))


def _field_name(f: _Field) -> str:
    words = "".join(f.instr).split()
    return words[0].upper() if words else ""
