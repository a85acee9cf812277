"""Figure text in an index (issue #29): `ingest search` finds a chart by its axis labels and its
caption's words, `--no-figures` (and `Filters(exclude_kinds=...)`) leaves figures out, and a
figure's hit is not widened into the body nor a body hit into a figure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ingest.search.bm25 import search
from ingest.search.filters import Filters
from tests.chunker.chart_truth import ARTICLE, CAPTION, figure_on_page
from tests.retrieval.examples_index import index_folder, ingest


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("figures")
    docs = where / "docs"
    docs.mkdir()
    shutil.copy(ARTICLE, docs / "article.pdf")
    return index_folder(docs, where)


def query() -> str:
    """The chart's axis titles (words only the figure sets), with the caption's number."""
    _, caption, labels = figure_on_page(ARTICLE, CAPTION)
    return " ".join([*[w for w in labels if w.isalpha()], *caption.split()[:2]])


def hits(index: Path, *flags: str) -> list[dict]:
    done = ingest("search", query(), "--index", index, "--json", "-k", "10", "--mode", "bm25", *flags)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_axis_labels_find_the_figure_with_its_caption(index) -> None:
    found = hits(index)
    assert found[0]["chunk"]["kinds"] == ["figure"] and found[0]["chunk"]["text"].startswith(CAPTION)
    assert found[0]["context"] == found[0]["chunk"]["text"]  # a figure is no window into the body
    for hit in found[1:]:
        if hit["chunk"]["kinds"] != ["figure"]:
            assert found[0]["chunk"]["text"].split("\n", 1)[1] not in hit["context"]


def test_no_figures_leaves_them_out(index) -> None:
    assert all(h["chunk"]["kinds"] != ["figure"] for h in hits(index, "--no-figures"))
    api = search(index, query(), k=10, filters=Filters(exclude_kinds="figure"))
    assert api and all("figure" not in h.chunk.kinds for h in api)
    assert any("figure" in h.chunk.kinds for h in search(index, query(), k=10))
