"""Units: the atoms the packer moves. A block that fits is one unit; a block over budget is split
by its own grain, falling back step by step:

- prose: line breaks and sentences, then words, then a hard token cap;
- table: groups of whole rows, each repeating the header rows;
- code (and anything else line-based): groups of whole lines, then a hard token cap.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ..blocks import Block, is_prose
from ..table_text import header_lines
from .sentences import sentence_spans
from .tokens import Tokenizer


class Unit(NamedTuple):
    """An atom the packer moves (immutable; a tuple because tens of thousands are made per
    megabyte and a frozen dataclass costs ten times as much to build)."""

    text: str
    tokens: int
    """Its token count (named apart from tuple's own `count` method)."""
    kind: str
    seam: str
    """Text that joins this unit to the previous one when both land in one chunk."""
    start: int | None
    end: int | None
    page: int | None
    page_end: int | None
    """Last page the unit's block runs onto (a paragraph can cross a page break)."""
    piece_of: int | None = None
    """Section-local id of the block this unit is a piece of; None for a whole block."""
    strength: int = 3
    """How strong the boundary before it is: 3 between blocks, 2 at a line break inside one,
    1 between sentences on a line, 0 inside a sentence. The packer prefers to cut at strong ones."""
    comments: tuple = ()
    prose: bool = False
    """Split at sentences and eligible for overlap (`blocks.is_prose`): a body paragraph is, a kept
    header part (furniture) is not."""
    ocr: float | None = None
    """The OCR engine's confidence on the block's page, where the block was read by OCR (its
    `meta["ocr"]`): the chunk says so, as its text may hold OCR's misreadings."""
    lead_in: bool = False
    """Part of the short paragraphs right before a table (its title, units, column labels: pack.py
    `lead_in_run`): it moves forward with the table's first rows rather than be cut from them."""

    def carry(self, begin: int, text: str, count: int) -> Unit:
        """The tail `text` (from `begin`) of this unit, as overlap for the next chunk."""
        start = None if self.start is None else self.start + begin
        return self._replace(text=text, tokens=count, seam="", start=start, piece_of=None, comments=())


def display_text(block: Block) -> str:
    """A block's text as a chunk shows it. A list item read from a PDF or Word file keeps its
    marker apart (so tracked changes in numbering do not touch the text); the chunk gets it back,
    indented by level, or the list would read as loose paragraphs."""
    marker = block.meta.get("marker") if block.meta else None
    if block.kind == "list_item" and block.start is None and marker:
        return "  " * block.level + marker + " " + block.text
    return block.text


def ocr_of(block: Block) -> float | None:
    """The confidence OCR read `block` with, or None where it was not read by OCR."""
    return block.meta.get("ocr_confidence", 0.0) if block.meta and block.meta.get("ocr") else None


def unit_of_block(block: Block, seam: str, text: str, count: int = 0) -> Unit:
    """The whole block as one unit (`count` 0: counted only as part of a whole section)."""
    comments = tuple(block.meta.get("comments", ())) if block.meta else ()
    page_end = block.meta.get("page_end", block.page) if block.meta else block.page
    return Unit(
        text,
        count,
        block.kind,
        seam,
        block.start,
        block.end,
        block.page,
        page_end,
        comments=comments,
        prose=is_prose(block),
        ocr=ocr_of(block),
    )


def units_of(block: Block, block_id: int, seam: str, tok: Tokenizer, max_tokens: int, room: int = 0) -> Iterator[Unit]:
    """The block's units; a table split in pieces leaves `room` tokens beside its first piece (for
    its lead-in, which then fits in the same chunk)."""
    text = display_text(block)
    if not block.text.strip():
        return
    count = tok.count(text)
    if count <= max_tokens or block.kind == "heading":  # a bare heading stays whole, like a row
        yield unit_of_block(block, seam, text, count)
        return
    comments = tuple(block.meta.get("comments", ())) if block.meta else ()
    page_end = block.meta.get("page_end", block.page) if block.meta else block.page
    ocr = ocr_of(block)
    if block.kind == "table":
        pieces = _table_pieces(text, block.header_rows, tok, max_tokens, max(max_tokens - room, 1))
    elif is_prose(block):
        pieces = _prose_pieces(text, tok, max_tokens)
    else:
        pieces = _line_pieces(text, 0, len(text), tok, max_tokens)
    first = True
    for begin, end, piece_text, piece_count, piece_seam, strength in pieces:
        start = None if block.start is None or begin is None else block.start + begin
        stop = None if block.start is None or end is None else block.start + end
        if first and begin and not text[:begin].strip():  # a skipped indent stays in the seam
            seam += text[:begin]
        yield Unit(
            piece_text,
            piece_count,
            block.kind,
            seam if first else piece_seam,
            start,
            stop,
            block.page,
            page_end,
            piece_of=block_id,
            strength=3 if first else strength,
            comments=comments if first else (),
            prose=is_prose(block),
            ocr=ocr,
        )
        first = False


Piece = tuple[int | None, int | None, str, int, str, int]
"""(begin, end) in the block's text, the piece's text, its count, the seam before it, and the
strength of the boundary that seam is (see `Unit.strength`)."""


def _prose_pieces(text: str, tok: Tokenizer, limit: int) -> Iterator[Piece]:
    prev_end = 0
    for begin, end in sentence_spans(text):
        seam = text[prev_end:begin]
        strength = 2 if "\n" in seam else 1
        sentence = text[begin:end]
        count = tok.count(sentence)
        if count <= limit:
            yield begin, end, sentence, count, seam, strength
        elif "\n" in sentence:
            # A run of lines with no full stop (inline HTML, an address block, verse): its line
            # breaks are the next boundaries down, before spaces.
            for i, piece in enumerate(_line_pieces(text, begin, end, tok, limit)):
                yield piece if i else (*piece[:4], seam, strength)
        else:
            yield from _word_pieces(text, begin, end, seam, tok, limit, count, strength)
        prev_end = end


def _word_pieces(
    text: str, begin: int, end: int, seam: str, tok: Tokenizer, limit: int, count: int, strength: int
) -> Iterator[Piece]:
    """Cut a sentence over budget into near-equal pieces at spaces (in CJK text, after a clause's
    comma), else at the token cap.

    Aiming at count / ceil(count / limit) rather than at the limit avoids a tiny last piece.
    `strength` is that of the boundary before the first piece; the others are cuts inside.
    """
    target = -(-count // -(-count // limit))
    while begin < end:
        window = text[begin : min(end, begin + limit * 16)]  # bounded: no re-encoding of a huge rest
        stop = begin + tok.cut(window, target)
        if stop < end:
            space = max(text.rfind(" ", begin + 1, stop + 1), text.rfind("\n", begin + 1, stop + 1))
            # CJK sets no spaces: cut after a clause's comma, enumeration mark or semicolon, when
            # one ends the latter half of the piece, rather than at a space: a space in CJK text
            # stands beside a Latin word inside a clause ("使用 GPS 设备").
            mark = max(text.rfind(c, begin + 1, stop) for c in "，、；：")
            if mark > begin and 2 * (mark + 1 - begin) >= stop - begin:
                stop = mark + 1
            elif space > begin:
                stop = space
            elif mark > begin:
                stop = mark + 1
        piece = text[begin:stop]
        yield begin, stop, piece, tok.count(piece), seam, strength
        strength = 0
        seam_start = stop
        while stop < end and text[stop].isspace():
            stop += 1
        seam = text[seam_start:stop]
        begin = stop


def _line_pieces(
    text: str, begin: int, end: int, tok: Tokenizer, limit: int, cut_long_lines: bool = True
) -> Iterator[Piece]:
    """Whole lines, greedily, each piece within the budget. On overflow the cut moves back to the
    last blank line if the piece stays at least half full, so code splits between its paragraphs
    (functions, steps) rather than inside one. A line over the budget is cut at the cap, or, for
    table rows (`cut_long_lines=False`), kept whole as a piece of its own."""
    group: list[tuple[int, int, int, int]] = []  # open piece: (line start, end, own count, piece count so far)
    last_end = None  # end of the last line placed, in a piece or cut
    seam = ""
    for line_start, line_end in _lines(text, begin, end):
        line = text[line_start:line_end]
        count = tok.count(line)
        if group:
            if _extend(group, text, line_start, line, count, tok, limit):
                last_end = line_end
                continue
            keep = _blank_line_cut(text, group, limit)
            yield _group_piece(text, group[:keep], seam)
            if keep < len(group):
                seam = text[group[keep - 1][1] : group[keep][0]]
                group = _regroup(text, group[keep:], tok)
                if _extend(group, text, line_start, line, count, tok, limit):
                    last_end = line_end
                    continue
                yield _group_piece(text, group, seam)
            group = []
        if last_end is not None:
            seam = text[last_end:line_start]
        last_end = line_end
        if count > limit and cut_long_lines:
            yield from _word_pieces(text, line_start, line_end, seam, tok, limit, count, 2)
            continue
        group = [(line_start, line_end, count, count)]
    if group:
        yield _group_piece(text, group, seam)


def _extend(
    group: list[tuple[int, int, int, int]],
    text: str,
    line_start: int,
    line: str,
    count: int,
    tok: Tokenizer,
    limit: int,
) -> bool:
    """Adds the line to the open piece if the piece, joined, stays within the budget."""
    gap = text[group[-1][1] : line_start]
    joined = tok.join(text[group[0][0] : group[-1][1]], group[-1][3], gap, line, count)
    if joined is None or joined > limit:
        return False
    group.append((line_start, line_start + len(line), count, joined))
    return True


def _group_piece(text: str, group: list[tuple[int, int, int, int]], seam: str) -> Piece:
    """The piece of whole lines `group`, cut at a line (strength 2)."""
    return group[0][0], group[-1][1], text[group[0][0] : group[-1][1]], group[-1][3], seam, 2


def _blank_line_cut(text: str, group: list[tuple[int, int, int, int]], limit: int) -> int:
    """How many lines of a full piece to keep: up to its last blank line if that keeps half the
    budget, else all."""
    for k in range(len(group) - 1, 0, -1):
        if group[k - 1][3] * 2 < limit:
            break
        if text.count("\n", group[k - 1][1], group[k][0]) > 1:
            return k
    return len(group)


def _regroup(text: str, lines: list[tuple[int, int, int, int]], tok: Tokenizer) -> list[tuple[int, int, int, int]]:
    """The lines moved to the next piece, with their running counts joined afresh from their own."""
    start, end, count, _ = lines[0]
    out = [(start, end, count, count)]
    for line_start, line_end, own, _ in lines[1:]:
        joined = tok.join(
            text[start : out[-1][1]], out[-1][3], text[out[-1][1] : line_start], text[line_start:line_end], own
        )
        assert joined is not None  # joined to the whole of the left side: always a count
        out.append((line_start, line_end, own, joined))
    return out


def _table_pieces(text: str, header_rows: int, tok: Tokenizer, limit: int, first: int) -> Iterator[Piece]:
    """Groups of whole rows, each led by the header (and its delimiter line) when it has one; the
    first group within `first` tokens (at most `limit`), the others within `limit`."""
    lines = _lines(text, 0, len(text))
    head = header_lines([text[a:b] for a, b in lines[: header_rows + 1]], header_rows)
    if not head:
        yield from _first_smaller(text, 0, tok, first, limit, True)
        return
    header = text[: lines[head - 1][1]]
    header_count = tok.count(header)
    extra = header_count + tok.count("\n")  # the header's line break counts too
    body = lines[head:]
    if not body:
        yield from _first_smaller(text, 0, tok, first, limit, True)
        return
    seam = ""
    rows_of = _first_smaller(text, body[0][0], tok, max(first - extra, 1), max(limit - extra, 1), False)
    for begin, end, rows, _count, _seam, _strength in rows_of:
        piece = header + "\n" + rows
        count = tok.join(header, header_count, "\n", rows, _count)
        if count is None:
            count = tok.count(piece)
        yield begin, end, piece, count, seam, 2
        seam = "\n"


def _first_smaller(
    text: str, begin: int, tok: Tokenizer, first: int, limit: int, cut_long_lines: bool
) -> Iterator[Piece]:
    """`_line_pieces` of text[begin:], the first piece within `first` tokens, the rest within `limit`."""
    if first >= limit:
        yield from _line_pieces(text, begin, len(text), tok, limit, cut_long_lines)
        return
    opening = next(_line_pieces(text, begin, len(text), tok, first, cut_long_lines))
    yield opening
    rest = opening[1]
    assert rest is not None  # line pieces always know where they end
    for i, piece in enumerate(_line_pieces(text, rest, len(text), tok, limit, cut_long_lines)):
        if i == 0:  # it starts a run of its own, with no seam: give it the text between (a cut
            seam = text[rest : piece[0]]  # inside a line, after a long first line, is weak)
            piece = (*piece[:4], seam, piece[5] if "\n" in seam else 0)
        yield piece


def _lines(text: str, begin: int, end: int) -> list[tuple[int, int]]:
    spans = []
    pos = begin
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl == -1 else nl
        if text[pos:stop].strip():
            spans.append((pos, stop))
        pos = stop + 1
    return spans
