"""What cleaning did to one document: each loaded block, what each cleaner removed from it (whole,
or spans of its text), and the chunks that came out. Shown by `ingest inspect` on a terminal, as
JSON, or as one HTML page (`inspect_html.py`).

The chain runs one cleaner at a time over a list, so each cleaner's output can be compared with
its input: a block passed on as the same object is kept, one dropped is removed, one replaced is
changed, and the characters its new text lacks are mapped back to the loaded text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from .blocks import FIGURE, Block, Chunk, Loaded, is_card, is_figure
from .chunker import ChunkOptions, chunks_with_card
from .cleaners import Step, run_step


@dataclass(frozen=True, slots=True)
class Removal:
    """Characters `start:end` of a loaded block's text, removed by `cleaner`."""

    cleaner: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class TracedBlock:
    """One block as the loader gave it, and what the cleaners did to it."""

    index: int
    block: Block
    removed_by: str = ""
    """The cleaner that dropped the whole block ("" if it reached the chunker)."""
    removals: tuple[Removal, ...] = ()
    """Spans of `block.text` that cleaners cut while keeping the block, in text order."""
    changed_by: tuple[str, ...] = ()
    """Cleaners that replaced the block (cut, reshaped, or added text), in chain order."""


@dataclass(frozen=True, slots=True)
class Inspection:
    loaded: Loaded
    cleaners: tuple[str, ...]
    """The cleaners that ran on this document, in order."""
    blocks: tuple[TracedBlock, ...]
    chunks: tuple[Chunk, ...]
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per cleaner: blocks removed, blocks changed, characters removed (whole blocks and spans),
    and what the cleaner reported itself."""


@dataclass(slots=True)
class _Fate:
    """Mutable while tracing: where each character of the current text came from."""

    origin: list[int]
    """Index in the loaded block's text of each character of the current text; -1: added."""
    removed_by: str = ""
    removals: list[Removal] = field(default_factory=list)
    changed_by: list[str] = field(default_factory=list)


def inspect_document(loaded: Loaded, steps: Iterable[Step], options: ChunkOptions) -> Inspection:
    document = loaded.document
    blocks = list(loaded.blocks)
    fates = [_Fate(list(range(len(b.text)))) for b in blocks]
    owners = list(range(len(blocks)))  # which loaded block each current block descends from
    ran: list[str] = []
    counts: dict[str, dict[str, int]] = {}
    for step in steps:
        if not step.runs_on(document.mime_type):
            continue
        name = step.cleaner.name
        ran.append(name)
        reported: dict[str, int] = {}
        after = list(run_step(step, blocks, document, reported))
        tally = {"blocks_removed": 0, "blocks_changed": 0, "chars_removed": 0}
        owners = _follow(name, blocks, owners, after, fates, tally)
        counts[name] = {**reported, **tally}
        blocks = after
    traced = tuple(
        TracedBlock(i, b, f.removed_by, tuple(sorted(f.removals, key=lambda r: r.start)), tuple(f.changed_by))
        for i, (b, f) in enumerate(zip(loaded.blocks, fates))
    )
    return Inspection(loaded, tuple(ran), traced, tuple(chunks_with_card(loaded, options, blocks)), counts)


def _follow(
    name: str, before: list[Block], owners: list[int], after: list[Block], fates: list[_Fate], tally: dict[str, int]
) -> list[int]:
    """The owners of `after`'s blocks; records on each fate what `name` did."""
    matcher = SequenceMatcher(None, [id(b) for b in before], [id(b) for b in after], autojunk=False)
    out: list[int] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.extend(owners[i1:i2])
            continue
        paired = min(i2 - i1, j2 - j1)
        for k in range(paired):  # replaced in place: the same block, changed
            owner = owners[i1 + k]
            _changed(name, before[i1 + k].text, after[j1 + k].text, fates[owner], tally)
            out.append(owner)
        for k in range(i1 + paired, i2):  # dropped
            fate = fates[owners[k]]
            kept = [o for o in fate.origin if o >= 0]
            if not fate.removed_by:
                fate.removed_by = name
                tally["blocks_removed"] += 1
                tally["chars_removed"] += len(kept)
        for _ in range(j1 + paired, j2):  # added: belongs with the block before it
            owner = out[-1] if out else (owners[i1] if i1 < len(owners) else 0)
            fates[owner].changed_by.append(name)
            out.append(owner)
    return out


def _changed(name: str, old: str, new: str, fate: _Fate, tally: dict[str, int]) -> None:
    if fate.removed_by:
        return
    tally["blocks_changed"] += 1
    fate.changed_by.append(name)
    origin: list[int] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            origin.extend(fate.origin[i1:i2])
            continue
        for start, end in _runs(o for o in fate.origin[i1:i2] if o >= 0):
            fate.removals.append(Removal(name, start, end))
            tally["chars_removed"] += end - start
        origin.extend([-1] * (j2 - j1))
    fate.origin = origin


def _runs(positions: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Contiguous runs of increasing positions (none negative) as (start, end)."""
    start = prev = -1
    for p in positions:
        if start < 0:
            start = prev = p
        elif p == prev + 1:
            prev = p
        else:
            yield start, prev + 1
            start = prev = p
    if start >= 0:
        yield start, prev + 1


def segments(block: TracedBlock) -> list[tuple[str, str]]:
    """The loaded block's text as (text, cleaner) runs: cleaner "" where the text was kept."""
    text = block.block.text
    if block.removed_by:
        labels = [block.removed_by] * len(text)
    else:
        labels = [""] * len(text)
    for r in block.removals:  # cut out of the block before any cleaner dropped it whole
        for i in range(r.start, min(r.end, len(text))):
            labels[i] = r.cleaner
    out: list[tuple[str, str]] = []
    for ch, label in zip(text, labels):
        if out and out[-1][1] == label:
            out[-1] = (out[-1][0] + ch, label)
        else:
            out.append((ch, label))
    return out


def as_json(inspection: Inspection) -> dict:
    doc = inspection.loaded.document
    return {
        "document": {"uri": doc.uri, "name": doc.name, "mime_type": doc.mime_type, "title": doc.title},
        "cleaners": list(inspection.cleaners),
        "counts": inspection.counts,
        "warnings": list(inspection.loaded.warnings),
        "blocks": [
            {
                "index": t.index,
                "kind": t.block.kind,
                "layer": t.block.layer,
                "path": list(t.block.path),
                "page": t.block.page,
                "bbox": list(t.block.bbox) if t.block.bbox else None,
                "text": t.block.text,
                "decided_by": (t.block.meta or {}).get("pdf_pass"),
                "removed_by": t.removed_by or None,
                "changed_by": list(t.changed_by),
                "removals": [
                    {"cleaner": r.cleaner, "start": r.start, "end": r.end, "text": t.block.text[r.start : r.end]}
                    for r in t.removals
                ],
            }
            for t in inspection.blocks
        ],
        "chunks": [
            {
                "chunk_index": c.chunk_index,
                "kinds": list(c.kinds),
                "heading_path": list(c.heading_path),
                "token_count": c.token_count,
                "page_start": c.page_start,
                "page_end": c.page_end,
                "text": c.text,
            }
            for c in inspection.chunks
        ],
    }


def chunk_starts(inspection: Inspection) -> dict[int, list[Chunk]]:
    """Loaded block index -> the chunks that begin at (or within) that block, for marking chunk
    boundaries in the document. Chunks carry no block ids, so a block is placed in the first chunk,
    from the current one on, whose text holds the start of what the block kept. The card holds no
    kept block: it begins at none; a figure's chunk stands apart from the body's, after them, and
    is placed at no block either."""
    chunks = [c for c in inspection.chunks if not is_card(c) and not is_figure(c)]
    texts = [" ".join(c.text.split()) for c in chunks]
    out: dict[int, list[Chunk]] = {}
    placed = 0  # chunks placed so far
    current = 0
    heading = None  # the first of the headings just above: a chunk's text leaves its headings out
    for traced in inspection.blocks:
        if traced.removed_by or placed == len(chunks) or traced.block.kind == FIGURE:
            continue
        if traced.block.kind == "heading":
            heading = traced.index if heading is None else heading
            continue
        at, heading = (traced.index if heading is None else heading), None
        kept = " ".join("".join(run for run, cleaner in segments(traced) if not cleaner).split())[:40]
        if not kept:
            continue
        j = current
        while j < len(chunks) and kept not in texts[j]:
            j += 1
        if j == len(chunks):
            continue  # shown differently in its chunk (a table rendered from its rows)
        if j >= placed:
            out[at] = list(chunks[placed : j + 1])
            placed = j + 1
        current = j
    return out
