"""Figure text as chunks of its own kind, beside the figure's caption.

A chart's axis numbers, tick labels and legend (blocks of kind "figure", which the PDF loader finds
inside a figure's drawing) hold words a question may ask about ("PFOS removal (%)", a series'
name), but read between the sentences around the figure they are lines of bare numbers. So they
never join a body chunk: each figure becomes a chunk of kind "figure" (`kinds == ("figure",)`),
after the body's chunks and before the card, so the body's chunks and their neighbours are what
they would be without it. The chunk holds its caption first, then the figure's text: a search for
the caption's words or a chart's labels finds it, and it reads as what it is. The caption itself
stays body text, in its paragraph's chunk; the figure chunk has the heading path and page of the
figure where it stands.

One figure is the run of figure blocks on one page with no other block between them (panels (a)
and (b) drawn apart, under one caption). Its caption is the nearest block on the page that opens
like one ("Fig. 8.", "Table 2", `page_furniture.CAPTION`, or of kind "caption") set right under or
over it across from it; without positions, the block next to the run in reading order, if it is
one. A figure with more text than a chunk takes is cut between words, the caption repeated.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..blocks import FIGURE, Block, Chunk, Citation
from ..page_furniture import CAPTION
from .ids import chunk_id
from .tokens import Tokenizer

CAPTION_REACH = 36.0
"""Points between a figure's text and its caption, at most: a caption is set right under or over
the figure (the figure's own lines sit inside its drawing, so an axis title is a line or two from
the caption); three lines of 12-point type."""


def figure_chunks(
    blocks: Sequence[Block], doc_id: str, source: Citation, tok: Tokenizer, max_tokens: int, index: int, seen: dict
) -> Iterator[Chunk]:
    """The figure chunks of `blocks` (the kept blocks, figures among them), numbered from `index`."""
    for run in _figures(blocks):
        caption = _caption(run, blocks)
        labels = " ".join(" ".join(b.text.split()) for b in run)
        head = " ".join(caption.text.split()) if caption is not None else ""
        pages = [p for b in run for p in (b.page, b.meta.get("page_end")) if p is not None]
        path = run[0].path
        for text, count in _pieces(head, labels, tok, max_tokens):
            yield Chunk(
                id=chunk_id(doc_id, path, text, seen),
                doc_id=doc_id,
                chunk_index=index,
                text=text,
                heading_path=path,
                kinds=(FIGURE,),
                token_count=count,
                overlap_tokens=0,
                source=source,
                page_start=min(pages) if pages else None,
                page_end=max(pages) if pages else None,
            )
            index += 1


def _figures(blocks: Sequence[Block]) -> Iterator[list[Block]]:
    """Runs of figure blocks with nothing between them, on one page (a panel per block)."""
    run: list[Block] = []
    for block in blocks:
        if block.kind == FIGURE and (not run or run[-1].page == block.page):
            run.append(block)
            continue
        if run:
            yield run
        run = [block] if block.kind == FIGURE else []
    if run:
        yield run


def _is_caption(block: Block) -> bool:
    return block.kind == "caption" or (block.kind != FIGURE and CAPTION.match(block.text.lstrip()) is not None)


def _caption(run: list[Block], blocks: Sequence[Block]) -> Block | None:
    boxes = [b.bbox for b in run if b.bbox is not None]
    if boxes:
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        best, gap = None, CAPTION_REACH
        for block in blocks:
            if block.page != run[0].page or block.bbox is None or not _is_caption(block):
                continue
            bx0, by0, bx1, by1 = block.bbox
            apart = max(by0 - y1, y0 - by1)
            if min(bx1, x1) > max(bx0, x0) and apart <= gap:
                best, gap = block, apart
        return best
    at = [i for i, b in enumerate(blocks) if any(b is r for r in run)]
    if not at:
        return None
    for i in (at[-1] + 1, at[0] - 1):  # under it first, as most captions are
        if 0 <= i < len(blocks) and _is_caption(blocks[i]) and blocks[i].page == run[0].page:
            return blocks[i]
    return None


def _pieces(head: str, labels: str, tok: Tokenizer, max_tokens: int) -> Iterator[tuple[str, int]]:
    """The caption and the figure's text in chunks of at most `max_tokens`, cut between words,
    each piece under the caption (the caption cut too when it alone fills the budget)."""
    if head and tok.count(head) > max_tokens // 2:
        head = head[: tok.cut(head, max_tokens // 2)].rstrip()
    prefix = f"{head}\n" if head else ""
    rest = labels
    while True:
        text = prefix + rest
        count = tok.count(text)
        if count <= max_tokens or not rest:
            yield text, count
            return
        end = tok.cut(text, max_tokens) - len(prefix)
        space = rest.rfind(" ", 0, end + 1)
        end = space if space > 0 else max(end, 1)
        piece = prefix + rest[:end].rstrip()
        yield piece, tok.count(piece)
        rest = rest[end:].lstrip()
