"""Cell comments of a sheet: legacy notes and threaded comments, read from the package XML.

openpyxl's read-only mode skips comments, so they are read here through the sheet's
relationships: a `comments` part holds legacy notes (`<comment ref="B3" authorId="0">`, authors
listed once), a `threadedComment` part holds Excel 365 threads (a comment and its replies, with
dates, people in the workbook's person list). Excel also writes a legacy mirror of every thread
("[Threaded comment] ... Comment: ... Reply: ...") for older readers: the thread wins where both
exist; the mirror is read only when the thread part is missing or broken.

A comment part that cannot be read costs its comments and a warning, never the workbook.
"""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lxml import etree
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import coordinate_to_tuple

from .regions import Cell, Merge, Piece, workbook_part

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_MIRROR = "[Threaded comment]"
_PART_ERRORS = (KeyError, zipfile.BadZipFile, zlib.error, OSError, EOFError, etree.XMLSyntaxError, ValueError)


@dataclass(frozen=True, slots=True)
class CellComment:
    """One comment (or one reply of a thread) on one cell."""

    row: int
    col: int
    id: str
    author: str
    text: str
    date: str = ""
    """ISO-8601 as Excel writes it; legacy notes have none."""
    parent: str = ""
    """Id of the comment this one replies to; "" for a note or the start of a thread."""
    resolved: bool = False

    @property
    def cell(self) -> str:
        return f"{get_column_letter(self.col)}{self.row}"

    def attrs(self) -> dict[str, str]:
        """Mark attrs as the Word loader writes them (id, author, date, text), plus the cell."""
        out = {"id": self.id, "author": self.author, "text": self.text, "cell": self.cell}
        if self.date:
            out["date"] = self.date
        if self.parent:
            out["parent"] = self.parent
        if self.resolved:
            out["resolved"] = "true"
        return out


class _Unreadable(Exception):
    """A comment part that cannot be used; the message says why."""


class CommentReader:
    """Reads the comments of one workbook's sheets; holds the person list, read at most once."""

    def __init__(self, zf: zipfile.ZipFile):
        self._zf = zf
        self._persons: dict[str, str] | None = None
        self.warnings: list[str] = []

    def of_sheet(self, part: str, sheet: str) -> list[CellComment]:
        """The sheet's comments in reading order, replies right after the comment they answer."""
        if not part:
            return []
        folder, base = posixpath.split(part)
        rels_name = posixpath.join(folder, "_rels", base + ".rels")
        if rels_name not in self._zf.NameToInfo:  # the common case: nothing hangs off the sheet
            return []
        try:
            rels = _relationships(self._xml(rels_name, "relationships part"), folder)
        except _Unreadable as exc:
            self.warnings.append(f"sheet {sheet!r}: {exc}; its comments are skipped")
            return []
        notes_parts = [t for kind, t in rels if kind == "comments"]
        thread_parts = [t for kind, t in rels if kind == "threadedComment"]
        threads: list[CellComment] = []
        for name in thread_parts:
            try:
                threads += self._threads(name)
            except _Unreadable as exc:
                also = "; the legacy notes Excel keeps beside it are read instead" if notes_parts else ""
                self.warnings.append(f"sheet {sheet!r}: {exc}: its threaded comments are skipped{also}")
        threaded_cells = {(c.row, c.col) for c in threads}
        notes: list[CellComment] = []
        for name in notes_parts:
            try:
                notes += (n for n in self._notes(name, sheet) if (n.row, n.col) not in threaded_cells)
            except _Unreadable as exc:
                self.warnings.append(f"sheet {sheet!r}: {exc}: its comments are skipped")
        found = notes + threads
        found.sort(key=lambda c: (c.row, c.col))  # stable: a thread keeps its order
        return found

    # -- parts ---------------------------------------------------------------------------------

    def _xml(self, name: str, what: str = "comments part") -> etree._Element:
        try:
            return etree.fromstring(self._zf.read(name), _PARSER)
        except _PART_ERRORS as exc:
            detail = "it is missing" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
            raise _Unreadable(f"{what} {name} is unreadable ({detail})") from exc

    def _notes(self, name: str, sheet: str) -> list[CellComment]:
        """Legacy notes, a thread's mirror with its boilerplate cut (the caller drops mirrors of
        threads it has read)."""
        root = self._xml(name)
        if _local(root.tag) != "comments":
            raise _Unreadable(f"comments part {name} is unreadable (root element <{_local(root.tag)}>, not <comments>)")
        authors = [_text(a) for box in _children(root, "authors") for a in _children(box, "author")]
        out = []
        for box in _children(root, "commentList"):
            for c in _children(box, "comment"):
                cell = _cell(c.get("ref", ""))
                if cell is None:
                    self.warnings.append(
                        f"sheet {sheet!r}: a comment in {name} has no valid cell reference "
                        f"({c.get('ref', '')!r}): skipped"
                    )
                    continue
                author = _author(authors, c.get("authorId", ""))
                text = _note_text(c)
                uid = c.get("{http://schemas.microsoft.com/office/spreadsheetml/2014/revision}uid", "")
                cid = uid or f"{sheet}!{c.get('ref', '').split(':')[0]}"
                if text.startswith(_MIRROR):
                    out += _mirror(cell, cid, text)
                    continue
                if author and text.startswith(author + ":"):  # Excel opens a note with its author's name
                    text = text[len(author) + 1 :].strip()
                out.append(CellComment(*cell, id=cid, author=author, text=text))
        return out

    def _threads(self, name: str) -> list[CellComment]:
        root = self._xml(name)
        if _local(root.tag) != "ThreadedComments":
            raise _Unreadable(
                f"comments part {name} is unreadable (root element <{_local(root.tag)}>, not <ThreadedComments>)"
            )
        persons = self._person_names()
        out = []
        for c in _children(root, "threadedComment"):
            cell = _cell(c.get("ref", ""))
            if cell is None:
                raise _Unreadable(f"comments part {name} is unreadable (a comment has no valid cell reference)")
            body = next(_children(c, "text"), None)
            out.append(
                CellComment(
                    *cell,
                    id=c.get("id", ""),
                    author=persons.get(c.get("personId", ""), ""),
                    text=_text(body) if body is not None else "",
                    date=c.get("dT", ""),
                    parent=c.get("parentId", ""),
                    resolved=c.get("done") in ("1", "true"),
                )
            )
        return out

    def _person_names(self) -> dict[str, str]:
        """Person id -> display name, from the workbook's person list (absent: no names)."""
        if self._persons is None:
            self._persons = {}
            folder, base = posixpath.split(workbook_part(self._zf))
            try:
                rels_name = posixpath.join(folder, "_rels", base + ".rels")
                rels = _relationships(self._xml(rels_name, "relationships part"), folder)
                for name in (t for kind, t in rels if kind == "person"):
                    for p in self._xml(name, "person list").iter():
                        pid = p.get("id")
                        if _local(p.tag) == "person" and pid:
                            self._persons[pid] = p.get("displayName", "")
            except _Unreadable as exc:
                self.warnings.append(f"{exc}: authors of threaded comments are unknown")
        return self._persons


def place(
    comments: Sequence[CellComment], pieces: Sequence[Piece], merges: Sequence[Merge]
) -> list[list[tuple[Cell | None, CellComment]]]:
    """For each piece, the comments it carries: (row, col) in the piece (0, 0 for a lone cell),
    or None for a comment on a cell no piece covers, which goes to the nearest piece of the sheet."""
    merge_at = {(r0, c0): (r0, c0, r1, c1) for r0, c0, r1, c1 in merges}
    extents = [_extent(p, merge_at) for p in pieces]
    # A sheet may hold thousands of lone cells: look cells up, scan only tables and strays.
    owner = {
        (r, c): i
        for i, (p, (top, left, bottom, right)) in enumerate(zip(pieces, extents))
        if p.table is None
        for r in range(top, bottom + 1)
        for c in range(left, right + 1)
    }
    tables = [i for i, p in enumerate(pieces) if p.table is not None]
    placed: list[list[tuple[Cell | None, CellComment]]] = [[] for _ in pieces]
    for comment in comments:
        r, c = comment.row, comment.col
        if (r, c) in owner:
            placed[owner[(r, c)]].append(((0, 0), comment))
            continue
        inside = next((i for i in tables if _distance(extents[i], r, c) == 0), None)
        if inside is not None:
            top, left = extents[inside][:2]
            placed[inside].append(((r - top, c - left), comment))
        elif pieces:
            nearest = min(range(len(pieces)), key=lambda i: _distance(extents[i], r, c))  # first of ties
            placed[nearest].append((None, comment))
    return placed


def _distance(extent: Merge, r: int, c: int) -> int:
    """Rows plus columns between a cell and a rectangle; 0 inside."""
    top, left, bottom, right = extent
    return max(top - r, 0, r - bottom) + max(left - c, 0, c - right)


def _extent(piece: Piece, merge_at: dict[Cell, Merge]) -> Merge:
    if piece.table is not None:
        rows = piece.table.rows
        return piece.top, piece.left, piece.top + len(rows) - 1, piece.left + len(rows[0]) - 1
    return merge_at.get((piece.top, piece.left), (piece.top, piece.left, piece.top, piece.left))


def _mirror(cell: Cell, cid: str, text: str) -> list[CellComment]:
    """A thread's legacy mirror, its boilerplate cut: the comment, then each reply (no authors)."""
    _, found, body = text.partition("\nComment:\n")
    if not found:  # an Excel in another language: keep the text after the boilerplate line
        return [CellComment(*cell, id=cid, author="", text=text[len(_MIRROR) :].strip())]
    parts = body.split("\nReply:\n")
    out = []
    for i, part in enumerate(parts):
        lines = [line[4:] if line.startswith("    ") else line for line in part.split("\n")]
        out.append(
            CellComment(
                *cell,
                id=cid if i == 0 else f"{cid}#{i}",
                author="",
                text="\n".join(lines).strip(),
                parent="" if i == 0 else cid,
            )
        )
    return out


def _relationships(root: etree._Element, folder: str) -> list[tuple[str, str]]:
    """(type's last segment, part name) of each internal relationship."""
    out = []
    for rel in root.iter(_REL):
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        full = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        out.append((rel.get("Type", "").rsplit("/", 1)[-1], full))
    return out


def _cell(ref: str) -> Cell | None:
    try:
        return coordinate_to_tuple(ref.split(":")[0].replace("$", "").upper())
    except (ValueError, TypeError, AttributeError):
        return None


def _author(authors: list[str], index: str) -> str:
    try:
        return authors[int(index)]
    except (ValueError, IndexError):
        return ""


def _note_text(comment: etree._Element) -> str:
    """A note's text: its plain and rich-text runs, without phonetic guides (`rPh`)."""
    parts = []
    for box in _children(comment, "text"):
        for child in box:
            name = _local(child.tag)
            if name == "t":
                parts.append(child.text or "")
            elif name == "r":
                parts.extend(t.text or "" for t in _children(child, "t"))
    return "".join(parts).replace("\r\n", "\n").strip()


def _text(el: etree._Element) -> str:
    # lxml-stubs type itertext() as str | bytes; on a parsed element lxml yields str only.
    return "".join(el.itertext()).replace("\r\n", "\n").strip()  # type: ignore[arg-type]


def _children(el: etree._Element, name: str) -> Iterator[etree._Element]:
    """Child elements by local name: ISO-Strict and transitional files use other namespaces."""
    return (child for child in el if isinstance(child.tag, str) and _local(child.tag) == name)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]
