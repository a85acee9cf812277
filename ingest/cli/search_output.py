"""How `ingest search` prints its hits on a terminal: rank, score and citation on a rule, the url,
then the context, each text once (`contexts_shown_once`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from ..blocks import is_card, is_figure
from ..search.bm25 import Hit
from ..search.shown_once import contexts_shown_once

SCORE_DIGITS = 4
"""Significant digits a score is printed with: bm25's 12.35, a cosine's 0.8123, and a fused
(reciprocal rank) score's 0.03279 against 0.03252, which two decimals both print as 0.03."""
_MOST_DIGITS = 8


def score_texts(scores: Sequence[float]) -> list[str]:
    """The scores as printed: SCORE_DIGITS significant digits, more while two different
    neighbouring scores would print alike (1/61 + 1/64 against 1/62 + 1/63)."""
    for digits in range(SCORE_DIGITS, _MOST_DIGITS + 1):
        texts = [f"{s:#.{digits}g}" for s in scores]
        if all(a != b or x == y for a, b, x, y in zip(texts, texts[1:], scores, scores[1:])):
            break
    return texts


def print_hits(hits: Sequence[Hit], out: Console) -> None:
    for rank, (hit, score, context) in enumerate(
        zip(hits, score_texts([h.score for h in hits]), contexts_shown_once(hits)), 1
    ):
        # The score before the citation: a long citation is cut at the terminal's width, not the score.
        # A reranked hit's score is the cross-encoder's logit, on another scale than the first stage's.
        label = f"rerank {score}" if hit.ranked_by else f"score {score}"
        # The document's card, or a figure's text: not a passage of the body.
        kind = "  card:" if is_card(hit.chunk) else "  figure:" if is_figure(hit.chunk) else ""
        out.rule(Text.assemble(f"{rank}. ", (label, "dim"), kind, f"  {hit.citation}"))
        if hit.chunk.url:
            out.print(hit.chunk.url, highlight=False, markup=False, soft_wrap=True)
        out.print(context, highlight=False, markup=False)
