"""`ingest.search`, the public Python search API, over a real index."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import ingest
from ingest.errors import ConfigError
from tests.retrieval.examples_index import build


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("api"))


def test_import_stays_cheap_and_search_stays_the_function() -> None:
    code = (
        "import sys, ingest; before = sorted(m for m in sys.modules if m.startswith('ingest'));"
        "import ingest.search, ingest.cli; from ingest.search import Hit;"
        "print(before, callable(ingest.search), ingest.search.__module__, 'pydantic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["['ingest',", "'ingest._version']", "True", "ingest.search.api", "True"]


def test_search_with_filters_as_a_dataclass_or_a_dict(index: Path) -> None:
    hits = ingest.search(index, "same-day delivery orders", k=3, window=0)
    # "Delivery"'s two-sentence introduction is under min_tokens: since #25 it opens the chunk of
    # its first subsection, "Connecticut"
    assert hits[0].chunk.heading_path[-1] == "Connecticut" and hits[0].chunk.text.startswith("Same-day delivery")
    assert all(isinstance(h, ingest.Hit) and h.context == h.chunk.text for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)

    pdf = ingest.search(index, "certificate retries alert", filters=ingest.Filters(mime_types="application/pdf"))
    assert pdf and {h.chunk.source.name for h in pdf} == {"incident-review.pdf"}
    assert ingest.search(index, "certificate retries alert", filters={"mime_types": ["application/pdf"]}) == pdf
    assert ingest.search(index, "certificate retries alert", filters={"mime_types": "text/markdown"}) == []


def test_the_window_widens_each_hit_with_its_neighbours(index: Path) -> None:
    [hit] = ingest.search(index, "Hartford depot", k=1, window=1)
    assert hit.chunk.heading_path[-1] == "Connecticut"
    assert hit.neighbours == (0, 1)  # the introduction is in the hit itself since #25
    assert hit.context.startswith("Same-day delivery") and "Hartford" in hit.context


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "fuzzy"}, "mode: unknown search mode 'fuzzy'; choose one of bm25, vector, hybrid"),
        ({"filters": {"doc": "a.md"}}, "filters: unknown filter 'doc'; the filters are docs, exclude_kinds, heading"),
        ({"filters": ["a.md"]}, "filters: expected Filters or a dict of its fields, got list"),
        ({"readers": "ann@example.com"}, "readers: expected a tuple of readers"),
    ],
)
def test_bad_arguments_say_what_is_wrong(index: Path, kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        ingest.search(index, "delivery", **kwargs)
    assert message in str(caught.value)


def test_a_missing_index_says_to_run_first(tmp_path: Path) -> None:
    with pytest.raises(ingest.IngestError, match="run `ingest run` first"):
        ingest.search(tmp_path / "none.sqlite", "delivery")


@pytest.mark.parametrize("mode", ["vector", "hybrid"])
def test_every_mode_takes_the_filters(index: Path, mode: str) -> None:
    # The default job embeds its chunks, so the examples index answers by meaning too.
    anywhere = ingest.search(index, "certificate retries alert", k=5, mode=mode)
    assert len({h.chunk.source.name for h in anywhere}) > 1
    pdf = ingest.search(index, "certificate retries alert", k=5, mode=mode, filters={"mime_types": "application/pdf"})
    assert pdf and {h.chunk.source.name for h in pdf} == {"incident-review.pdf"}
