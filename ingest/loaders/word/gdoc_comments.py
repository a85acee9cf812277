"""Drive comments on a Google Doc, placed as `comment` marks where their quoted text is.

The Docs API leaves comments out; the Drive source adds the file's comments (Drive API
`comments.list`, deleted ones left out) under the document JSON's "comments" key. Drive's anchor
for a Docs comment is opaque ("kix.…"), so a comment goes on the first block, or table cell, whose
text holds the text it quotes; each reply is a mark of its own on the same span, naming its
parent, as the spreadsheet loader does for threads. A comment whose quote is not found (the text
was edited since) or that quotes nothing stays in the document's `meta["comments"]` only.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import replace

from ...blocks import Block, Mark


def place_comments(blocks: list[Block], comments: Iterable[dict]) -> tuple[list[Block], tuple[dict, ...], int]:
    """The blocks with comment marks added, every comment as document metadata (one on the whole
    document, quoting nothing, there only), and how many comments quote text no block holds."""
    blocks = list(blocks)
    listed: list[dict] = []
    lost = 0
    for comment in comments:
        if not isinstance(comment, dict) or comment.get("deleted"):
            continue
        marks = _marks(comment)
        quote = _quote(comment)
        placed = bool(quote) and _place(blocks, quote, marks)
        lost += bool(quote) and not placed  # one quoting nothing is on the whole document: not lost
        listed.append({**marks[0].attrs, "anchor": quote if placed else ""})
    return blocks, tuple(listed), lost


def _marks(comment: dict) -> list[Mark]:
    """The comment and its replies as marks over [0, 0), to be moved onto the quoted span."""
    resolved = {"resolved": "true"} if comment.get("resolved") else {}
    marks = [Mark("comment", 0, 0, {"id": str(comment.get("id", "")), **_who(comment), **resolved})]
    for reply in comment.get("replies") or ():
        if isinstance(reply, dict) and not reply.get("deleted") and reply.get("content"):
            marks.append(
                Mark("comment", 0, 0, {"id": str(reply.get("id", "")), "parent": marks[0].attrs["id"], **_who(reply)})
            )
    return marks


def _who(entry: dict) -> dict[str, str]:
    out = {"text": " ".join(str(entry.get("content", "")).split())}
    author = entry.get("author") or {}
    if author.get("displayName") or author.get("emailAddress"):
        out["author"] = str(author.get("displayName") or author.get("emailAddress"))
    if entry.get("createdTime"):
        out["date"] = entry["createdTime"]
    return out


def _quote(comment: dict) -> str:
    value = (comment.get("quotedFileContent") or {}).get("value") or ""
    return html.unescape(value).strip()  # Drive gives it as text/html


def _place(blocks: list[Block], quote: str, marks: list[Mark]) -> bool:
    """Put `marks` over the first occurrence of `quote` (or of its first line, for a quote that
    runs over paragraphs, which are blocks of their own here)."""
    for needle in dict.fromkeys((quote, quote.split("\n")[0].strip())):
        for i, block in enumerate(blocks):
            if block.kind == "table" and block.rows:
                placed = _in_table(block, needle, marks)
                if placed is not None:
                    blocks[i] = placed
                    return True
            elif block.layer == "body":
                start = _find(block.text, needle)
                if start >= 0:
                    spanned = [Mark(m.kind, start, start + len(needle), m.attrs) for m in marks]
                    blocks[i] = replace(
                        block, marks=tuple(sorted((*block.marks, *spanned), key=lambda m: (m.start, m.end)))
                    )
                    return True
    return False


def _in_table(block: Block, needle: str, marks: list[Mark]) -> Block | None:
    for r, row in enumerate(block.rows or ()):
        for c, cell in enumerate(row):
            start = _find(cell, needle)
            if start >= 0:
                meta = block.meta.copy()
                meta["cell_marks"] = (
                    *meta.get("cell_marks", ()),
                    *((r, c, Mark(m.kind, start, start + len(needle), m.attrs)) for m in marks),
                )
                return replace(block, meta=meta)
    return None


def _find(text: str, needle: str) -> int:
    return text.find(needle) if needle else -1
