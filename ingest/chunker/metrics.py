"""Measure chunks instead of guessing: their size distribution and their structural defects.

Defects are judged against the document's own structure (the loader's blocks and the sentence
splitter), not against anything the packer decided, so they hold for any chunker whose chunks
carry character offsets into the document.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..blocks import Block, Chunk, is_prose
from ..table_text import header_lines
from .sentences import sentence_spans

_CLEAN_END = re.compile(r"[.!?:;|`)\]\"'”’。！？]\s*\Z")


@dataclass(frozen=True, slots=True)
class Sizes:
    n: int
    min: int
    p50: int
    p90: int
    max: int
    over_target: int
    """Chunks above the budget: each must be a single unit that cannot be split."""


@dataclass(frozen=True, slots=True)
class Defects:
    chunks: int
    end_mid_sentence: int
    orphaned_table_rows: int
    """Table rows that appear whole in no chunk (cut in half)."""
    headerless_table_pieces: int
    """Chunks holding rows of a table with a header, but not the header."""
    sentence_pairs: int
    separated_pairs: int
    """Adjacent sentences of one block that no chunk holds together."""
    stored_ratio: float
    """Characters stored in chunks per character of the document."""


def sizes(counts: Sequence[int], target: int) -> Sizes:
    ordered = sorted(counts)
    if not ordered:
        return Sizes(0, 0, 0, 0, 0, 0)

    def q(p: float) -> int:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return Sizes(len(ordered), ordered[0], q(0.5), q(0.9), ordered[-1], sum(c > target for c in ordered))


def defects(text: str | None, blocks: Sequence[Block], chunks: Sequence[Chunk]) -> Defects:
    """Defects of `chunks` cut from a document with source `text` (None for binary formats)."""
    spans = [(c.start, c.end, c.text) for c in chunks if c.start is not None and c.end is not None]
    clean_ends: set[int] = set()
    pairs: list[tuple[int, int, str, str]] = []
    for block in blocks:
        if block.kind == "heading" or block.start is None or block.end is None:
            continue
        clean_ends.add(block.end)
        if is_prose(block):
            sentences = list(sentence_spans(block.text))
            for _, end in sentences:
                clean_ends.add(block.start + end)
            for (a0, a1), (b0, b1) in zip(sentences, sentences[1:]):
                pairs.append((block.start + a0, block.start + b1, block.text[a0:a1], block.text[b0:b1]))
        else:  # tables and code end cleanly at any line end
            pos = block.text.find("\n")
            while pos != -1:
                clean_ends.add(block.start + pos)
                pos = block.text.find("\n", pos + 1)

    if text is not None and len(spans) == len(chunks):  # every chunk located in the source text
        mid = sum(end - (len(t) - len(t.rstrip())) not in clean_ends for _, end, t in spans)
        separated = sum(not any(s <= a and e >= b for s, e, _ in spans) for a, b, _, _ in pairs)
        doc_len = len(text)
    else:
        mid = sum(not _CLEAN_END.search(c.text) for c in chunks)
        flat = [" ".join(c.text.split()) for c in chunks]
        separated = sum(
            not any(" ".join(s.split()) in f and " ".join(t.split()) in f for f in flat) for _, _, s, t in pairs
        )
        doc_len = sum(len(b.text) for b in blocks) or 1
    orphaned, headerless = _table_defects(blocks, chunks)
    stored = sum(len(c.text) for c in chunks) / max(doc_len, 1)
    return Defects(len(chunks), mid, orphaned, headerless, len(pairs), separated, round(stored, 3))


def _table_defects(blocks: Sequence[Block], chunks: Sequence[Chunk]) -> tuple[int, int]:
    orphaned = headerless = 0
    for block in blocks:
        if block.kind != "table":
            continue
        lines = [line for line in block.text.split("\n") if line.strip()]
        head = header_lines(lines, block.header_rows)
        header, body = lines[:head], lines[head:]
        holding = [c for c in chunks if any(line in c.text for line in body)]
        orphaned += sum(not any(line in c.text for c in chunks) for line in body)
        if header:
            headerless += sum(not all(h in c.text for h in header) for c in holding)
    return orphaned, headerless
