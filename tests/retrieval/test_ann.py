"""The HNSW index beside the SQLite index (ingest/search/ann.py): built and updated by the sink,
the same top-k as exact search, deletions that never come back, and exact search (with a warning)
whenever the file is missing, stale or not the one the index records."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from ingest import load_config
from ingest.blocks import Chunk, Citation, Document
from ingest.embedders import ChunkVectors, text_hash
from ingest.errors import ConfigError
from ingest.search import ann
from ingest.search.filters import Filters
from ingest.search.vectors import VectorIndex
from ingest.sinks.sqlite import SqliteSink

DIMS = 48
PER_DOC = 50
K = 10


@dataclass(frozen=True)
class Lookup:
    """An embedder whose "texts" are row numbers of a query matrix: the search's own code, with
    query vectors the test chooses."""

    queries: np.ndarray
    name: str = "lookup"

    @property
    def dimensions(self) -> int:
        return DIMS

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.queries[[int(t) for t in texts]]


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _clustered(n: int, seed: int) -> np.ndarray:
    """Unit vectors around 20 centres: neighbours close together, as text embeddings are."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((20, DIMS))
    return _unit(centres[rng.integers(20, size=n)] + 0.5 * rng.standard_normal((n, DIMS)))


def _write(sink: SqliteSink, doc_id: str, vectors: np.ndarray, tag: str = "") -> list[str]:
    doc = Document(id=doc_id, uri=f"file:///{doc_id}.md", name=f"{doc_id}.md", mime_type="text/markdown")
    chunks = [
        Chunk(
            id=f"{doc_id}{tag}-{i}",
            doc_id=doc_id,
            chunk_index=i,
            text=f"{doc_id}{tag} chunk {i}",
            heading_path=(),
            kinds=("paragraph",),
            token_count=3,
            overlap_tokens=0,
            source=Citation.of(doc),
        )
        for i in range(len(vectors))
    ]
    sink.write(doc, chunks, ChunkVectors("lookup", tuple(text_hash(c.embed_text) for c in chunks), vectors, 0))
    return [c.id for c in chunks]


def _index(tmp_path: Path, vectors: np.ndarray, mode: ann.AnnMode = "always") -> Path:
    index = tmp_path / "index.sqlite"
    with SqliteSink(index, ann=mode) as sink:
        sink.record_embedder("lookup", {"name": "lookup"})
        for d in range(0, len(vectors), PER_DOC):
            _write(sink, f"doc{d // PER_DOC:03d}", vectors[d : d + PER_DOC])
    return index


def _ids(index: Path, queries: np.ndarray, mode: ann.AnnMode, k: int = K, filters: Filters | None = None) -> list:
    with VectorIndex(index, Lookup(queries), ann=mode) as vectors:
        found = [[c.id for c, _ in vectors.ranked(str(i), k, filters=filters)] for i in range(len(queries))]
        used_graph = vectors._matrix is None  # exact search reads every vector in; the graph none
    return [found, used_graph]


@pytest.fixture
def wide_search(monkeypatch):
    """Candidates enough that the graph's answer is exact on these few vectors."""
    monkeypatch.setattr(ann, "EXPANSION_SEARCH", 2000)


def test_graph_answers_as_exact_search_does(tmp_path, wide_search):
    vectors = _clustered(1500, seed=1)
    index = _index(tmp_path, vectors)
    assert ann.ann_file(index).is_file()
    queries = _clustered(40, seed=2)
    graph, used_graph = _ids(index, queries, "auto")
    exact, used_exact = _ids(index, queries, "never")
    assert used_graph and not used_exact
    assert graph == exact
    # a filter: the graph's candidates narrowed to one document's, or exact search when too few pass
    one = Filters(docs=("doc003",))
    assert _ids(index, queries, "auto", filters=one)[0] == _ids(index, queries, "never", filters=one)[0]
    assert all(i.startswith("doc003-") for hits in _ids(index, queries, "auto", filters=one)[0] for i in hits)


def test_default_ef_keeps_nearly_every_neighbour(tmp_path):
    vectors = _clustered(3000, seed=3)
    index = _index(tmp_path, vectors)
    queries = _clustered(50, seed=4)
    graph, exact = _ids(index, queries, "auto")[0], _ids(index, queries, "never")[0]
    recall = np.mean([len(set(g) & set(e)) / K for g, e in zip(graph, exact, strict=True)])
    assert recall >= 0.95


def test_deleted_and_replaced_chunks_never_come_back(tmp_path, wide_search):
    vectors = _clustered(300, seed=5)
    index = _index(tmp_path, vectors)  # doc000..doc005, 50 chunks each
    replaced = _clustered(PER_DOC, seed=6)
    with SqliteSink(index, ann="always") as sink:
        sink.delete("doc002")
        # The last document's chunks replaced: SQLite gives the new rows the seqs the old ones had.
        new_ids = _write(sink, "doc005", replaced, tag="v2")
        done = sink.refresh_ann()
        assert (done.action, done.vectors, done.changed) == ("updated", 250, 100)
    with sqlite3.connect(index) as conn:
        assert conn.execute("SELECT count(*) FROM ann_pending").fetchone()[0] == 0
    # Query with each deleted chunk's own vector: it would be its own nearest neighbour.
    gone, used = _ids(index, vectors[100:150], "auto")
    assert used and not any(i.startswith("doc002") or i.startswith("doc005-") for hits in gone for i in hits)
    old_last, _ = _ids(index, vectors[250:300], "auto")
    assert not any(i.startswith("doc005-") for hits in old_last for i in hits)
    new, _ = _ids(index, replaced, "auto", k=1)
    assert [hits[0] for hits in new] == new_ids
    kept, _ = _ids(index, vectors[:50], "auto", k=1)
    assert [hits[0] for hits in kept] == [f"doc000-{i}" for i in range(50)]


def test_a_missing_or_stale_file_falls_back_to_exact_with_a_warning(tmp_path, caplog):
    vectors = _clustered(400, seed=7)
    index = _index(tmp_path, vectors)
    queries = _clustered(10, seed=8)

    # Stale: a write whose sink closed on an error leaves the graph behind the index.
    extra = _clustered(PER_DOC, seed=9)
    with pytest.raises(RuntimeError), SqliteSink(index, ann="always") as sink:
        new_ids = _write(sink, "late", extra)
        raise RuntimeError("the run stopped")
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ingest"):
        found, used_graph = _ids(index, extra[:5], "auto", k=1)
    assert not used_graph and [h[0] for h in found] == new_ids[:5]
    assert "stale (50 vectors changed" in caplog.text and "searching exactly" in caplog.text

    with SqliteSink(index, ann="always"):  # the next run's close brings it up to date
        pass
    assert _ids(index, extra[:5], "auto", k=1) == [[[i] for i in new_ids[:5]], True]

    # Missing, then not the file the index records (another index's graph put in its place).
    ann.ann_file(index).unlink()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ingest"):
        after, used_graph = _ids(index, queries, "auto")
    assert not used_graph and "the HNSW index is missing" in caplog.text
    # As many vectors as this index (450), other ones: a file of the same size, even, is told apart.
    (tmp_path / "other").mkdir()
    other = _index(tmp_path / "other", _clustered(450, seed=10))
    ann.ann_file(other).rename(ann.ann_file(index))
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ingest"):
        again, used_graph = _ids(index, queries, "auto")
    assert not used_graph and "not the one the last run wrote" in caplog.text
    expected, _ = _ids(index, queries, "never")
    assert after == again == expected


def test_auto_keeps_a_graph_only_from_its_size_and_never_removes_it(tmp_path, monkeypatch):
    monkeypatch.setattr(ann, "AUTO_MIN_VECTORS", 200)
    small = _index(tmp_path, _clustered(150, seed=11), mode="auto")
    assert not ann.ann_file(small).exists()
    with SqliteSink(small, ann="auto") as sink:
        _write(sink, "more", _clustered(PER_DOC, seed=12))
    assert ann.ann_file(small).is_file()  # 200 vectors: built
    with SqliteSink(small, ann="never"):
        pass
    assert not ann.ann_file(small).exists()
    with sqlite3.connect(small) as conn:
        assert conn.execute("SELECT count(*) FROM ingest_meta WHERE key = 'ann'").fetchone()[0] == 0


def test_always_without_usearch_is_a_config_error(tmp_path, monkeypatch):
    monkeypatch.setattr(ann, "available", lambda: False)
    config = tmp_path / "job.yaml"
    config.write_text(f"source: {{local: {{path: {tmp_path}}}}}\nsearch: {{ann: always}}\n")
    with pytest.raises(ConfigError, match=r"search.ann.*pip install 'ingest\[ann\]'"):
        load_config(config)
    config.write_text(f"source: {{local: {{path: {tmp_path}}}}}\nsearch: {{ann: sometimes}}\n")
    with pytest.raises(ConfigError, match="search.ann"):
        load_config(config)


def test_the_graph_opened_before_the_embedder_does_not_crash_the_process():
    """usearch's module loaded first, then onnxruntime (minilm's), as a search that opens the graph before
    its embedder or a scheduled run whose first pass had nothing to embed: a segmentation fault unless
    `ann` orders the imports."""
    script = (
        "from ingest.search import ann; assert ann.available(); from ingest.embedders import minilm; import onnxruntime"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
