"""Vectors in the SQLite index and search by mode, end to end: `ingest run` with an embedder,
the cache that spares unchanged text, deletion with the chunks, bm25 / vector / hybrid search."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ingest import load_config, run
from ingest.embedders import load as load_embedder
from ingest.embedders import text_hash
from ingest.errors import ConfigError, RunError
from ingest.search.bm25 import SearchError
from ingest.search.hybrid import fuse, search_mode
from ingest.search.vectors import VectorIndex
from tests.local_job import sync as _sync
from tests.paths import ROOT
from tests.retrieval import counting_embedder


def _write(path: Path, sections: list[tuple[str, str]]) -> None:
    path.write_text("# Handbook\n\n" + "".join(f"## {h}\n\n{body}\n\n" for h, body in sections))


SECTIONS = [
    ("Fever", "Give paracetamol or ibuprofen to a feverish child, dosed by weight, every six hours at most."),
    ("Travel", "Book flights through the travel desk at least two weeks ahead; economy class on short routes."),
    ("Laptops", "Laptops are replaced every four years, or sooner when repair costs more than half a new one."),
    ("Expenses", "Submit receipts within thirty days; meals abroad are paid at the local per diem rate."),
]


@pytest.fixture
def job(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    _write(docs / "handbook.md", SECTIONS)
    (docs / "notes.md").write_text("# Notes\n\nThe quarterly review is due in March; bring the budget sheet.\n")
    config = tmp_path / "job.yaml"
    config.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'index.sqlite'}}}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n"
        "chunker: {max_tokens: 64, min_tokens: 0, overlap_tokens: 0}\n"
        "embedder: {name: 'tests.retrieval.counting_embedder:counting'}\n"
    )
    counting_embedder.CALLS.clear()
    return docs, config, tmp_path / "index.sqlite"


def _rows(index: Path) -> list[tuple]:
    with sqlite3.connect(index) as conn:
        return conn.execute(
            "SELECT c.doc_id, c.text, v.embedder, v.hash, v.vector FROM chunks AS c "
            "LEFT JOIN chunk_vectors AS v ON v.seq = c.seq ORDER BY c.doc_id, c.chunk_index"
        ).fetchall()


def test_every_chunk_is_stored_with_the_vector_of_its_embed_text(job):
    docs, config, index = job
    summary, _ = _sync(config)
    assert summary.failed == 0
    rows = _rows(index)
    embedder = load_embedder({"name": "wordllama"})
    with sqlite3.connect(index) as conn:
        stored_chunks = conn.execute("SELECT heading, text FROM chunks ORDER BY doc_id, chunk_index").fetchall()
    # embed_text: the headings under the document's title (the path's root, shared by every chunk), then the text.
    under_title = [(" > ".join(heading.split(" > ")[1:]), text) for heading, text in stored_chunks]
    embed_texts = [f"{path}\n\n{text}" if path else text for path, text in under_title]
    assert len(rows) == 5 and all(r[2] == "wordllama:l2_supercat:256" for r in rows)
    stored = np.stack([np.frombuffer(r[4], np.float32) for r in rows])
    assert np.allclose(stored, embedder.embed(embed_texts), atol=1e-6)
    assert [r[3] for r in rows] == [text_hash(t) for t in embed_texts]
    with sqlite3.connect(index) as conn:
        spec = conn.execute("SELECT value FROM ingest_meta WHERE key = 'embedder:wordllama:l2_supercat:256'").fetchone()
    assert json.loads(spec[0]) == {"name": "tests.retrieval.counting_embedder:counting"}


def test_an_edit_re_embeds_only_the_chunks_whose_text_changed(job):
    docs, config, index = job
    _sync(config)
    assert sorted(len(c) for c in counting_embedder.CALLS) == [1, 4]  # one call per document written
    counting_embedder.CALLS.clear()
    summary, _ = _sync(config)
    assert summary.unchanged == 2 and counting_embedder.CALLS == []
    edited = (
        SECTIONS[:1] + [("Parking", "Staff park on level two; visitors sign in at reception first.")] + SECTIONS[1:]
    )
    edited[3] = ("Laptops", "Laptops are replaced every three years now.")
    _write(docs / "handbook.md", edited)
    summary, status = _sync(config)
    assert status["handbook.md"].status == "changed" and summary.unchanged == 1
    assert counting_embedder.CALLS == [
        [
            "Parking\n\nStaff park on level two; visitors sign in at reception first.",
            "Laptops\n\nLaptops are replaced every three years now.",
        ]
    ]
    texts = [r[1] for r in _rows(index) if r[0] == "handbook.md"]
    assert len(texts) == 5 and all(r[4] is not None for r in _rows(index))


def test_vectors_go_with_their_chunks_when_a_document_is_deleted(job):
    docs, config, index = job
    _sync(config)
    (docs / "notes.md").unlink()
    _sync(config)
    with sqlite3.connect(index) as conn:
        assert conn.execute("SELECT count(*) FROM chunk_vectors").fetchone()[0] == 4
        orphans = conn.execute("SELECT count(*) FROM chunk_vectors WHERE seq NOT IN (SELECT seq FROM chunks)")
        assert orphans.fetchone()[0] == 0


def test_a_failed_write_keeps_the_old_chunks_and_vectors_together(job, monkeypatch):
    docs, config, index = job
    _sync(config)
    before = _rows(index)
    _write(docs / "handbook.md", SECTIONS[::-1])
    from ingest.sinks import sqlite as sqlite_sink

    def broken(*args):
        raise sqlite3.OperationalError("disk I/O error (injected)")

    monkeypatch.setattr(sqlite_sink, "_write_vectors", broken)
    summary, status = _sync(config)
    assert status["handbook.md"].status == "failed" and _rows(index) == before


def test_removing_the_embedder_writes_every_document_again_without_vectors(job):
    docs, config, index = job
    _sync(config)
    config.write_text(
        config.read_text().replace("embedder: {name: 'tests.retrieval.counting_embedder:counting'}\n", "")
    )
    summary, _ = _sync(config)
    assert summary.changed == 2
    assert all(r[4] is None for r in _rows(index))
    with pytest.raises(SearchError, match="holds no vectors; add `embedder: {name: minilm}`"):
        search_mode(index, "laptops", "vector")


def test_search_modes_find_by_words_by_meaning_and_both(job):
    docs, config, index = job
    _sync(config)
    # No word in common with the Fever section: only the vectors can find it.
    by_meaning = search_mode(index, "medicine sick kid temperature", "vector", k=1, window=0)
    assert by_meaning[0].chunk.heading_path[-1] == "Fever"
    assert search_mode(index, "medicine sick kid temperature", "bm25", k=1) == []
    hybrid = search_mode(index, "when are laptops replaced", "hybrid", k=3, window=0)
    assert hybrid[0].chunk.heading_path[-1] == "Laptops"
    assert [h.score for h in hybrid] == sorted((h.score for h in hybrid), reverse=True)
    assert hybrid[0].score == pytest.approx(2 / 61)  # first in both rankings


def test_a_vector_index_kept_open_sees_the_next_run(job):
    docs, config, index = job
    _sync(config)
    with VectorIndex(index) as vectors:
        first = search_mode(index, "parking for visitors", "vector", k=1, vectors=vectors)
        assert first[0].chunk.heading_path[-1] != "Parking"
        _write(docs / "handbook.md", SECTIONS + [("Parking", "Visitors park on level two and sign in at reception.")])
        _sync(config)
        again = search_mode(index, "parking for visitors", "vector", k=1, vectors=vectors)
        assert again[0].chunk.heading_path[-1] == "Parking"


def test_vector_search_keeps_to_what_a_reader_may_open(job):
    docs, config, index = job
    _sync(config)
    with sqlite3.connect(index) as conn:
        conn.execute("INSERT INTO readers (doc_id, reader) VALUES ('handbook.md', 'user:boss@example.com')")
    hits = search_mode(index, "laptops are replaced", "vector", k=10, readers=("user:someone@example.com", "anyone"))
    assert {h.chunk.doc_id for h in hits} == {"notes.md"}
    hits = search_mode(index, "laptops are replaced", "hybrid", k=10, readers=("user:boss@example.com",))
    assert hits[0].chunk.doc_id == "handbook.md"


def test_fusion_adds_reciprocal_ranks():
    fused = dict(fuse([["a", "b", "c"], ["c", "a"]], k=60))
    assert fused == pytest.approx({"a": 1 / 61 + 1 / 62, "b": 1 / 62, "c": 1 / 63 + 1 / 61})
    assert [item for item, _ in fuse([["x", "y"], ["y", "x"]])] == ["x", "y"]  # a tie: the first ranking's order


def test_a_sink_without_vectors_refuses_an_embedder(job, tmp_path):
    docs, config, index = job
    config.write_text(config.read_text().replace(f"sink: {{sqlite: {index}}}", f"sink: {{jsonl: {tmp_path / 'dump'}}}"))
    with pytest.raises(ConfigError, match="does not store vectors"):
        run(*load_config(config))


def test_an_embedder_that_cannot_open_stops_the_run(job, tmp_path):
    docs, config, index = job
    (tmp_path / "bad_embedder.py").write_text(
        "from pydantic import BaseModel\nfrom ingest.embedders import EmbedderType\nfrom ingest.errors import EmbedderError\n"
        "class O(BaseModel):\n    pass\n"
        "def _open(o):\n    raise EmbedderError('model file missing', subject='embedder bad')\n"
        "bad = EmbedderType('bad', _open, O)\n"
    )
    config.write_text(config.read_text().replace("tests.retrieval.counting_embedder:counting", "bad_embedder:bad"))
    with pytest.raises(RunError, match="cannot open the embedder: embedder bad: model file missing"):
        run(*load_config(config))


def test_the_cli_searches_by_mode(job, monkeypatch):
    docs, config, index = job
    _sync(config)
    # The index records the job's embedder config: the plugin must be importable where searches run.
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ingest",
            "search",
            "medicine for a feverish kid",
            "--mode",
            "hybrid",
            "--index",
            str(index),
            "-k",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    hits = [json.loads(line) for line in out.stdout.splitlines()]
    assert hits[0]["chunk"]["heading_path"] == ["Handbook", "Fever"]
    bad = subprocess.run(
        [sys.executable, "-m", "ingest", "search", "x", "--mode", "semantic", "--index", str(index)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and "'semantic' is not one of 'bm25', 'vector', 'hybrid'" in bad.stderr


def test_another_embedder_setting_re_embeds_everything_under_its_own_name(job):
    docs, config, index = job
    _sync(config)
    counting_embedder.CALLS.clear()
    config.write_text(
        config.read_text().replace(
            "{name: 'tests.retrieval.counting_embedder:counting'}",
            "{name: 'tests.retrieval.counting_embedder:counting', dimensions: 64}",
        )
    )
    summary, _ = _sync(config)
    assert summary.changed == 2 and sorted(len(c) for c in counting_embedder.CALLS) == [1, 4]
    rows = _rows(index)
    assert {r[2] for r in rows} == {"wordllama:l2_supercat:64"} and {len(r[4]) for r in rows} == {64 * 4}
    assert search_mode(index, "when are laptops replaced", "hybrid", k=1)[0].chunk.heading_path[-1] == "Laptops"


@pytest.mark.parametrize("mode", ["vector", "hybrid"])
def test_filters_narrow_vector_and_hybrid_search_as_they_do_bm25(job, mode):
    from ingest.search.filters import Filters

    docs, config, index = job
    _sync(config)
    everywhere = search_mode(index, "quarterly budget review", mode, k=10, window=0)
    assert everywhere[0].chunk.doc_id == "notes.md"
    assert {h.chunk.doc_id for h in everywhere} == {"notes.md", "handbook.md"}
    handbook = search_mode(
        index, "quarterly budget review", mode, k=10, window=0, filters=Filters(docs=("handbook.md",))
    )
    assert handbook and {h.chunk.doc_id for h in handbook} == {"handbook.md"}
    travel = search_mode(index, "quarterly budget review", mode, k=10, window=0, filters=Filters(heading=("Travel",)))
    assert [h.chunk.heading_path[-1] for h in travel] == ["Travel"]
    assert (
        search_mode(index, "quarterly budget review", mode, k=10, filters=Filters(mime_types=("application/pdf",)))
        == []
    )
