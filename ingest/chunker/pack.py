"""Pack blocks into chunks, structure first.

Blocks are grouped into sections (one heading path each); a chunk spans two only where one could
not stand alone (headings with no body, a section under `min_tokens`: `_sections`,
`_join_sections`), the headings between them in its text. Inside a section each block becomes one unit if it fits the budget; otherwise it is split by its own
grain (units.py). Units are packed greedily; when the next one does not fit, the cut may move back
to a stronger boundary (a lead-in before its list, a paragraph or line break) while the chunk stays
half full; a table's lead-in (lead_in.py) goes with its first rows. Counts are joined, never recounted: each unit is encoded once and `Tokenizer.join`
corrects the seam exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..blocks import FIGURE, Block, Chunk, Citation, Loaded
from . import ChunkOptions
from .figures import figure_chunks
from .ids import chunk_id
from .lead_in import lead_in_run
from .sentences import sentence_spans
from .tokens import Tokenizer, get_tokenizer
from .units import Unit, display_text, unit_of_block, units_of

# Kinds a lead-in paragraph introduces; it moves to the next chunk with them rather than be orphaned.
_INTRODUCED = frozenset({"list_item", "table", "code"})


_LABEL_WORDS = 20
"""A lead-in of one sentence and at most this many words is a label of what follows it."""


def _label(unit: Unit) -> bool:
    """A run-in label ("Selling, General and Administrative Expenses:"): one sentence, a few words."""
    return len(unit.text.split()) <= _LABEL_WORDS and len(list(sentence_spans(unit.text))) == 1


@dataclass(slots=True)
class _Draft:
    """A chunk being packed: its units, the seams between them, and the exact token count."""

    units: list[Unit]
    seams: list[str]
    """seams[i] joins units[i] to units[i + 1]."""
    counts: list[int]
    """counts[i]: exact count of units[: i + 1] joined; the last is the draft's count."""
    overlap: int = 0
    """Leading units that repeat the previous chunk's tail."""
    overlap_tokens: int = 0

    @property
    def count(self) -> int:
        return self.counts[-1]

    def text(self) -> str:
        parts = [self.units[0].text]
        for seam, unit in zip(self.seams, self.units[1:]):
            parts.append(seam)
            parts.append(unit.text)
        return "".join(parts)


def chunk(
    loaded: Loaded, options: ChunkOptions | None = None, blocks: Iterable[Block] | None = None
) -> Iterator[Chunk]:
    """Chunks of one loaded document; `blocks` replaces `loaded.blocks` (e.g. cleaned ones)."""
    options = options or ChunkOptions()
    tok = get_tokenizer(options.tokenizer)
    packer = _Packer(tok, options)
    source = Citation.of(loaded.document)
    doc_id = loaded.document.id
    seen: dict[str, int] = {}
    kept = list(loaded.blocks if blocks is None else blocks)
    # Figure text never joins the body: the body packs as if it were not there, then each figure
    # is a chunk of its own (figures.py).
    sections = _sections(b for b in kept if b.kind != FIGURE)
    placed = _placed(sections, loaded.text, tok, packer)
    count = 0
    for index, p in enumerate(placed):
        yield _chunk(p.draft, doc_id, index, p.path, source, seen)
        count = index + 1
    yield from figure_chunks(kept, doc_id, source, tok, options.max_tokens, count, seen)


@dataclass(slots=True)
class _Placed:
    """A draft with the heading path it is given, and where its text ends (for a seam after it)."""

    path: tuple[str, ...]
    draft: _Draft
    last_path: tuple[str, ...]
    """The path of the section its text ends in."""
    last_block: Block


def _placed(
    sections: Iterable[tuple[tuple[str, ...], list[Block], tuple[Block, ...]]],
    text: str | None,
    tok: Tokenizer,
    packer: _Packer,
) -> Iterator[_Placed]:
    """Every section's drafts in order; a section that packs into one draft under `min_tokens`
    is joined to the first draft of the next section when its path is an ancestor of the next
    one's (the deeper path names both, so no heading leaves every path) and the two fit."""
    held: _Placed | None = None  # the previous section's last draft
    lone = False  # `held` is its section's only draft
    for path, section, opening in sections:
        drafts = _section_drafts(section, text, tok, packer)
        if not drafts:
            continue
        placed = [_Placed(path, d, path, section[-1]) for d in drafts]
        if held is not None:
            if lone and held.draft.count < packer.min and _ancestor(held.path, path):
                joined = _join_sections(held, opening, placed[0], section[0], text, tok, packer.max)
                if joined is not None:
                    placed[0], held = joined, None
            if held is not None:
                yield held
        yield from placed[:-1]
        held, lone = placed[-1], len(placed) == 1
    if held is not None:
        yield held


def _ancestor(path: tuple[str, ...], of: tuple[str, ...]) -> bool:
    return len(path) < len(of) and of[: len(path)] == path


def _section_drafts(section: list[Block], text: str | None, tok: Tokenizer, packer: _Packer) -> list[_Draft]:
    whole = _whole(section, text, tok, packer.max)
    if whole is not None:
        return [whole]
    units: list[Unit] = []
    first_unit: list[int] = []  # the index in `units` of each block's first unit
    for i, block in enumerate(section):
        seam = _seam(text, section[i - 1], block) if i else ""
        first_unit.append(len(units))
        room = 0
        if block.kind == "table":
            begin = lead_in_run(section, units, first_unit, i, packer.max)
            if begin < len(units):
                units[begin:] = [u._replace(lead_in=True) for u in units[begin:]]
                room = tok.count(_joined(units[begin:]) + seam)  # what it takes beside the table
        units.extend(units_of(block, i, seam, tok, packer.max, room))
    return packer.pack(units) if units else []


def _joined(units: Sequence[Unit]) -> str:
    return units[0].text + "".join(u.seam + u.text for u in units[1:])


def _join_sections(
    left: _Placed,
    opening: tuple[Block, ...],
    right: _Placed,
    first: Block,
    text: str | None,
    tok: Tokenizer,
    max_tokens: int,
) -> _Placed | None:
    """`left` (a whole section under `min_tokens`) followed by the headings that open the next
    section and that section's first draft `right`, counted whole; None when over the budget.

    The headings stand in the text at the seam, so it reads in order and each part stays under
    its own heading. The joined chunk keeps `right`'s path, the deeper one.
    """
    units = list(left.draft.units)
    seams = list(left.draft.seams)
    before = left.last_block
    for heading in opening:
        if not heading.text.strip():
            continue  # an empty heading shows nothing, as in a section's own text
        seam = _seam(text, before, heading)
        units.append(unit_of_block(heading, seam, heading.text))
        seams.append(seam)
        before = heading
    seam = _seam(text, before, first)
    head, *rest = right.draft.units[right.draft.overlap :]
    units += [head._replace(seam=seam), *rest]
    seams += [seam, *[u.seam for u in rest]]
    draft = _Draft(units, seams, [0], left.draft.overlap, left.draft.overlap_tokens)
    count = tok.count(draft.text())
    if count > max_tokens:
        return None
    draft.counts = [count]
    return _Placed(right.path, draft, right.last_path, right.last_block)


WHOLE_SECTION_CHARS = 6
"""A section of up to this many characters per token of budget is first counted whole."""


def _whole(section: list[Block], text: str | None, tok: Tokenizer, max_tokens: int) -> _Draft | None:
    """The section as one draft when its text fits the budget, counted in one call.

    Packing would give the same single chunk (no cut, no overlap, nothing to merge) after
    counting every block and joining the counts; most sections of most documents fit. A section
    too long to be likely to fit is not tried, so a miss costs at most one extra count.
    """
    parts: list[tuple[Block, str, str]] = []
    size = 0
    for i, block in enumerate(section):
        if not block.text.strip():
            continue
        body = display_text(block)
        seam = _seam(text, section[i - 1], block) if i else ""
        parts.append((block, seam, body))
        size += len(seam) + len(body)
    if not parts or size > max_tokens * WHOLE_SECTION_CHARS:
        return None
    joined = parts[0][2] + "".join(seam + body for _, seam, body in parts[1:])
    count = tok.count(joined)
    if count > max_tokens:
        return None
    units = [unit_of_block(block, seam, body) for block, seam, body in parts]
    return _Draft(units, [u.seam for u in units[1:]], [count])


def _sections(blocks: Iterable[Block]) -> Iterator[tuple[tuple[str, ...], list[Block], tuple[Block, ...]]]:
    """Runs of content blocks under one heading: (path, blocks, the headings that open the run).

    Headings live in the path, not the text, while every heading has content or subheadings
    under it. A heading with no body of its own followed by one not under it (a cover page's
    "Corporate Overview" before "By Revenue") would be a section of one line; instead the whole
    run of headings since the last content travels in the text of the section that follows,
    under that section's path: its heading text stays in the chunk, so nothing is lost. Headings
    with nothing at all after them close the document as a section of their own.
    """
    path: tuple[str, ...] | None = None
    run: list[Block] = []
    opening: tuple[Block, ...] = ()
    heads: list[Block] = []  # the headings since the last content block
    travel = False  # a heading in `heads` has nothing under it
    for block in blocks:
        if block.kind == "heading":
            if run:
                yield path or (), run, opening
                run = []
            if heads and block.path[: len(heads[-1].path)] != heads[-1].path:
                travel = True  # the last heading is not an ancestor of this one: it has no body
            heads.append(block)
            continue
        if run and block.path != path:
            yield path or (), run, opening
            run = []
        if not run:
            path = block.path
            run = list(heads) if travel else []
            opening = () if travel else tuple(heads)
            heads, travel = [], False
        run.append(block)
    if run:
        yield path or (), run, opening
    if heads:  # without travel the earlier ones are ancestors of the last: shown only if joined
        yield heads[-1].path, heads if travel else heads[-1:], () if travel else tuple(heads[:-1])


def _seam(text: str | None, before: Block, after: Block) -> str:
    """The source's own whitespace between two blocks; where it is not known, a line break inside
    a list and a blank line elsewhere."""
    if text is not None and before.end is not None and after.start is not None and before.end <= after.start:
        gap = text[before.end : after.start]
        if not gap.strip():
            return gap
    return "\n" if before.kind == after.kind == "list_item" else "\n\n"


class _Packer:
    def __init__(self, tok: Tokenizer, options: ChunkOptions) -> None:
        self.tok = tok
        self.max = options.max_tokens
        self.min = options.min_tokens
        self.overlap = options.overlap_tokens

    def pack(self, units: Sequence[Unit]) -> list[_Draft]:
        drafts: list[_Draft] = []
        cur: _Draft | None = None
        for unit in units:
            if cur is None:
                cur = self._start(drafts[-1] if drafts else None, unit)
                continue
            count = self._join(cur, unit.seam, unit)
            if (
                count > self.max
                and cur.overlap
                and _opens_table(unit)
                and all(u.lead_in for u in cur.units[cur.overlap :])
            ):
                # a lead-in that opened this draft with the previous chunk's tail: the tail goes,
                # the lead-in stays with its table
                bare = self._bare(cur)
                bare_count = self._join(bare, unit.seam, unit)
                if bare_count <= self.max:
                    cur, count = bare, bare_count
            if count <= self.max and not _repeats_header(cur, unit):
                self._append(cur, unit, count)
                continue
            moved = self._retreat(cur, unit)
            drafts.append(cur)
            cur = self._start_with(cur, moved + [unit])
        if cur is not None:
            drafts.append(cur)
        return self._merge_small(drafts)

    def _bare(self, cur: _Draft) -> _Draft:
        """`cur` without the overlap it carried from the previous draft."""
        own = cur.units[cur.overlap :]
        draft = self._start(None, own[0])
        for unit in own[1:]:
            self._append(draft, unit, self._join(draft, unit.seam, unit))
        return draft

    def _start_with(self, previous: _Draft, units: list[Unit]) -> _Draft:
        """A new draft holding `units` (known to fit together), with overlap if it still fits."""
        for lead in (previous, None):
            draft = self._start(lead, units[0])
            for unit in units[1:]:
                count = self._join(draft, unit.seam, unit)
                if count > self.max:
                    break
                self._append(draft, unit, count)
            else:
                return draft
        raise AssertionError("units moved forward must fit together")  # _retreat checked that

    def _start(self, previous: _Draft | None, unit: Unit) -> _Draft:
        """A new draft holding `unit`, led by whole sentences carried from `previous`."""
        draft = _Draft([unit], [], [unit.tokens])
        if not self.overlap or previous is None or not unit.prose:
            return draft
        last = previous.units[-1]
        if not last.prose:
            return draft
        for carried in self._tail_sentences(last):
            head = _Draft([carried], [], [carried.tokens], overlap=1, overlap_tokens=carried.tokens)
            count = self._join(head, unit.seam, unit)
            if count <= self.max:
                self._append(head, unit, count)
                return head
        return draft

    def _tail_sentences(self, last: Unit) -> Iterator[Unit]:
        """Overlap candidates, longest first: suffixes of whole sentences within the budget.

        The whole of a block is never carried: that would repeat a block, not bridge a cut.
        """
        candidates = []
        for begin, _ in reversed(list(sentence_spans(last.text))):
            if begin == 0 and last.piece_of is None:
                break
            text = last.text[begin:]
            count = self.tok.count(text)
            if count > self.overlap:
                break
            candidates.append(last.carry(begin, text, count))
        yield from reversed(candidates)

    def _retreat(self, cur: _Draft, unit: Unit) -> list[Unit]:
        """Trailing units of `cur` to move forward so the cut before `unit` falls on a stronger
        boundary: a lead-in paragraph goes with the list, table or code it introduces, a label
        ("Cost of Sales:") with whatever it introduces; otherwise
        the cut moves back to the last paragraph or line break, if `cur` stays at least half full.
        Empty when the cut stays where it is.

        A table's lead-in (`Unit.lead_in`) goes with its first rows: all of it if it fits beside
        them, else as much of its end as fits.
        """
        own = range(cur.overlap + 1, len(cur.units))  # cut positions that leave `cur` non-empty
        last = cur.units[-1]
        if last.lead_in and _opens_table(unit):
            begin = len(cur.units)
            while begin - 1 in own and cur.units[begin - 1].lead_in:
                begin -= 1
            for i in range(begin, len(cur.units)):
                if self._fits_with(cur, i, unit):
                    return self._cut(cur, i)
        if (
            own
            and last.kind == "paragraph"
            and last.prose
            and last.text.rstrip().endswith(":")
            and (unit.kind in _INTRODUCED or _label(last))
            and self._fits_with(cur, len(cur.units) - 1, unit)
        ):
            return self._cut(cur, len(cur.units) - 1)
        best = None  # the latest of the strongest boundaries that leave `cur` at least half full
        for i in own:
            strength = cur.units[i].strength
            if strength <= unit.strength or cur.counts[i - 1] * 2 < self.max:
                continue
            if best is None or strength >= cur.units[best].strength:
                best = i
        if best is not None and self._fits_with(cur, best, unit):
            return self._cut(cur, best)
        return []

    def _fits_with(self, cur: _Draft, i: int, unit: Unit) -> bool:
        """Whether units[i:] of `cur` followed by `unit` fit in one chunk."""
        moved = _Draft([cur.units[i]], [], [cur.units[i].tokens])
        for follower in cur.units[i + 1 :] + [unit]:
            count = self._join(moved, follower.seam, follower)
            if count > self.max:
                return False
            self._append(moved, follower, count)
        return True

    def _cut(self, cur: _Draft, i: int) -> list[Unit]:
        moved = cur.units[i:]
        del cur.units[i:], cur.seams[i - 1 :], cur.counts[i:]
        return moved

    def _merge_small(self, drafts: list[_Draft]) -> list[_Draft]:
        """Fold a draft under `min_tokens` into a neighbour when the result fits."""
        if self.min <= 0 or len(drafts) < 2:
            return drafts
        out: list[_Draft] = []
        for draft in drafts:
            if out and (draft.count < self.min or out[-1].count < self.min):
                merged = self._merged(out[-1], draft)
                if merged is not None:
                    out[-1] = merged
                    continue
            out.append(draft)
        return out

    def _merged(self, left: _Draft, right: _Draft) -> _Draft | None:
        own = right.units[right.overlap :]
        if any(_repeats_header(left, u) for u in own):
            return None
        merged = _Draft(list(left.units), list(left.seams), list(left.counts), left.overlap, left.overlap_tokens)
        for unit in own:
            count = self._join(merged, unit.seam, unit)
            if count > self.max:
                return None
            self._append(merged, unit, count)
        return merged

    def _join(self, draft: _Draft, seam: str, unit: Unit) -> int:
        """Exact count of the draft's text followed by `seam` and `unit`."""
        units, seams = draft.units, draft.seams
        window = units[-1].text
        k = 1
        while True:
            count = self.tok.join(window, draft.count, seam, unit.text, unit.tokens, whole=k == len(units))
            if count is not None:
                return count
            k += 1  # the window holds no pre-token boundary yet: widen it by one unit
            window = units[-k].text + seams[-k + 1] + window

    def _append(self, draft: _Draft, unit: Unit, count: int) -> None:
        draft.units.append(unit)
        draft.seams.append(unit.seam)
        draft.counts.append(count)


def _opens_table(unit: Unit) -> bool:
    """A whole table or its first piece (the pieces after it start at a weaker boundary)."""
    return unit.kind == "table" and unit.strength == 3


def _repeats_header(draft: _Draft, unit: Unit) -> bool:
    """Two pieces of one split table would show its header twice in one chunk."""
    return (
        unit.kind == "table"
        and unit.piece_of is not None
        and any(u.piece_of == unit.piece_of and u.kind == "table" for u in draft.units)
    )


def _chunk(
    draft: _Draft, doc_id: str, index: int, path: tuple[str, ...], source: Citation, seen: dict[str, int]
) -> Chunk:
    text = draft.text()
    units = draft.units
    kinds = tuple(dict.fromkeys(u.kind for u in units[draft.overlap :] or units))
    pages = [p for u in units for p in (u.page, u.page_end) if p is not None]
    starts = [u.start for u in units if u.start is not None]
    ends = [u.end for u in units if u.end is not None]
    located = len(starts) == len(ends) == len(units)
    comments = [c for u in units for c in u.comments]
    meta: dict = {"comments": comments} if comments else {}
    read = [u.ocr for u in units if u.ocr is not None]
    if read:  # OCR text may hold misreadings: say so, with the least sure page's confidence
        meta.update(ocr=True, ocr_confidence=min(read))
    return Chunk(
        id=chunk_id(doc_id, path, text, seen),
        doc_id=doc_id,
        chunk_index=index,
        text=text,
        heading_path=path,
        kinds=kinds,
        token_count=draft.count,
        overlap_tokens=draft.overlap_tokens,
        source=source,
        start=min(starts) if located else None,
        end=max(ends) if located else None,
        page_start=min(pages) if pages else None,
        page_end=max(pages) if pages else None,
        meta=meta,
    )
