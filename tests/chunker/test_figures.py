"""Figure text (issue #29): a chart's axis numbers and labels are kept, as a chunk of kind "figure"
holding the figure's caption and its text, with the heading path and page of the figure; never in a
body chunk. The `figures` cleaner, named, still drops them.

The file is a journal article's page of the pdfeval development set with three plots drawn in
vectors (`Fig. 7.`-`Fig. 9.`); the corpus holds no PDF with a captioned chart. What each figure
holds is read from the page with pymupdf (its drawings and the words set among them), not from
ingest's output."""

from __future__ import annotations

import pytest

from ingest.blocks import FIGURE, Chunk, is_card, is_figure
from ingest.chunker import ChunkOptions, chunks_with_card
from ingest.cleaners import build_chain, clean
from ingest.loaders import load_file
from tests.chunker.chart_truth import ARTICLE, CAPTION, figure_on_page


def chunked(*cleaners: str) -> list[Chunk]:
    loaded = load_file(ARTICLE)
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([(name, None) for name in cleaners]))
    return list(chunks_with_card(loaded, ChunkOptions(), list(blocks)))


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    return chunked()


def test_a_charts_labels_are_a_figure_chunk_under_its_caption(chunks) -> None:
    page, caption, labels = figure_on_page(ARTICLE, CAPTION)
    assert caption.startswith(CAPTION) and {"Adsorption", "cycle", "100"} <= set(labels)
    (figure,) = [c for c in chunks if is_figure(c) and c.text.startswith(CAPTION)]
    assert figure.kinds == (FIGURE,)
    first, rest = figure.text.split("\n", 1)
    assert first.startswith(caption)  # the caption's line, then the figure's own text
    assert set(labels) <= set(rest.split())
    assert figure.page_start == figure.page_end == page
    # The caption stays body text; the figure sits where it does, under the caption's heading.
    (holder,) = [c for c in chunks if not is_figure(c) and not is_card(c) and caption in c.text]
    assert figure.heading_path == holder.heading_path and holder.page_start <= page <= holder.page_end


def test_no_body_chunk_holds_figure_text(chunks) -> None:
    body = [c for c in chunks if not is_figure(c) and not is_card(c)]
    figures = [c for c in chunks if is_figure(c)]
    assert len(figures) == 3  # Fig. 7, Fig. 8 (two panels), Fig. 9
    assert all(FIGURE not in c.kinds for c in body)
    _, _, labels = figure_on_page(ARTICLE, CAPTION)
    ticks = " ".join(w for w in labels if w.isdigit() and int(w) >= 20)  # the x axis: 20 40 60 80 100
    assert ticks.count(" ") >= 3
    for c in body:
        assert ticks not in c.text and "Adsorption cycle" not in c.text
    # Figures come after the body's chunks, the card last: the body's numbering is its own.
    kinds = [("body", "figure", "card")[is_figure(c) + 2 * is_card(c)] for c in chunks]
    assert kinds == sorted(kinds, key=("body", "figure", "card").index)
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))


def test_the_figures_cleaner_drops_them_and_leaves_the_body_as_it_was(chunks) -> None:
    dropped = chunked("figures")
    assert not [c for c in dropped if is_figure(c)]
    body = [(c.id, c.text, c.chunk_index) for c in chunks if not is_figure(c) and not is_card(c)]
    assert [(c.id, c.text, c.chunk_index) for c in dropped if not is_card(c)] == body
