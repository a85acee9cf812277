"""`ingest run` on a real two-node Ray cluster gives the index a local run gives: the same
documents, chunk texts, chunk ids and vectors; and keeps a local run's guarantees when a node or
the driver dies."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from ingest import run
from ingest.config import parse_config
from ingest.errors import ClusterSetupError
from tests.ray.cluster import Cluster

pytestmark = pytest.mark.ray

SAMPLE_PER_TYPE = 4
SAMPLE_MAX_BYTES = 200_000
VECTOR_ATOL = 1e-5
"""The same model on the same machine; a vector embedded in another batch may differ in its last bits."""


def sample(corpus: Path, target: Path) -> Path:
    """A few real documents of each type from the shared corpus, the same every time."""
    for ext in (".md", ".docx", ".pdf", ".xlsx", ".csv"):
        files = sorted(p for p in corpus.rglob(f"*{ext}") if p.is_file() and p.stat().st_size < SAMPLE_MAX_BYTES)
        for src in files[:SAMPLE_PER_TYPE]:
            dest = target / src.relative_to(corpus)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, dest)
    return target


def config(docs: Path, out: Path, cluster: Cluster | None, **extra):
    raw = {
        "source": {"local": {"path": str(docs)}},
        "sink": {"sqlite": str(out / "index.sqlite")},
        "state": str(out / "state.sqlite"),
        "embedder": {"name": "minilm"},
        **extra,
    }
    if cluster is None:
        raw["workers"] = 1
    else:
        raw["executor"] = {"ray": {"address": cluster.address, "max_retries": 3}}
    return parse_config(raw)


def index(path: Path) -> dict:
    """What an index holds, comparable across runs: per document its chunks (id, text) in order,
    and each chunk's vector."""
    with sqlite3.connect(path) as db:
        docs = dict(db.execute("SELECT id, name FROM documents"))
        chunks: dict[str, list] = {d: [] for d in docs}
        for doc_id, cid, text in db.execute("SELECT doc_id, id, text FROM chunks ORDER BY doc_id, chunk_index"):
            chunks[doc_id].append((cid, text))
        vectors = {
            cid: np.frombuffer(blob, np.float32)
            for cid, blob in db.execute("SELECT c.id, v.vector FROM chunk_vectors v JOIN chunks c ON c.seq = v.seq")
        }
    return {"docs": docs, "chunks": chunks, "vectors": vectors}


def assert_same_index(got: dict, want: dict) -> None:
    assert got["docs"] == want["docs"]
    assert got["chunks"] == want["chunks"]
    assert got["vectors"].keys() == want["vectors"].keys()
    for cid, vector in want["vectors"].items():
        assert np.allclose(got["vectors"][cid], vector, atol=VECTOR_ATOL), cid


@pytest.fixture(scope="module")
def local_index(tmp_path_factory, corpus):
    """The sample and its index from a local run with one worker: what the cluster must give.
    Taking `corpus` marks every test that uses it as a corpus test (left out without ../shared)."""
    root = tmp_path_factory.mktemp("local")
    docs = sample(corpus, root / "docs")
    summary = run(*config(docs, root, None))
    assert summary.changed >= 15 and summary.chunks_written > 0
    return docs, index(root / "index.sqlite")


def test_cluster_run_gives_the_local_index(two_nodes, local_index, tmp_path):
    docs, want = local_index
    results = []
    summary = run(*config(docs, tmp_path, two_nodes), on_result=results.append)
    assert summary.failed == 0 or all(not r.retry for r in summary.failures)
    assert summary.changed == len(want["docs"])
    assert_same_index(index(tmp_path / "index.sqlite"), want)
    # Again, nothing changed: nothing is sent to the cluster, nothing written.
    again = run(*config(docs, tmp_path, two_nodes))
    assert (again.changed, again.unchanged) == (0, summary.changed + summary.failed - again.failed)


def test_losing_the_worker_node_mid_run_gives_the_same_index(two_nodes, local_index, tmp_path):
    docs, want = local_index
    worker = next(n for n in two_nodes.nodes if n.host == "127.0.0.3" and n.alive)
    killed = threading.Event()

    def kill_after_first(result) -> None:
        if not killed.is_set():
            killed.set()
            worker.kill()  # kill -9 of the node's raylet and its workers, mid-run

    summary = run(*config(docs, tmp_path, two_nodes), on_result=kill_after_first)
    assert killed.is_set() and not worker.alive
    assert not any(r.retry for r in summary.failures), summary.failures
    assert_same_index(index(tmp_path / "index.sqlite"), want)


def test_a_plugin_missing_on_the_nodes_is_named_before_any_document(two_nodes, local_index, tmp_path):
    docs, _ = local_index
    plugins = tmp_path / "plugins"  # importable by the driver (the config's folder), not by the nodes
    plugins.mkdir()
    (plugins / "shout_cleaner.py").write_text("def shout(blocks, ctx):\n    return blocks\n")
    raw = {
        "source": {"local": {"path": str(docs)}},
        "sink": {"sqlite": str(tmp_path / "index.sqlite")},
        "state": str(tmp_path / "state.sqlite"),
        "cleaners": ["shout_cleaner:shout"],
        "executor": {"ray": {"address": two_nodes.address}},
    }
    cfg = parse_config(raw, base=plugins)
    with pytest.raises(ClusterSetupError, match="shout_cleaner"):
        run(*cfg)
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        assert db.execute("SELECT count(*) FROM chunks").fetchone() == (0,)


def write_job(docs: Path, out: Path, cluster: Cluster) -> Path:
    job = out / "job.yaml"
    job.write_text(
        json.dumps(  # JSON is YAML
            {
                "source": {"local": {"path": str(docs)}},
                "sink": {"sqlite": str(out / "index.sqlite")},
                "state": str(out / "state.sqlite"),
                "embedder": {"name": "minilm"},
                "executor": {"ray": {"address": cluster.address, "max_retries": 3}},
            }
        )
    )
    return job


def stored_docs(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("SELECT count(*) FROM documents").fetchone()[0]
    except sqlite3.Error:  # not created yet, or busy
        return 0


def test_kill_9_of_the_driver_mid_run_then_a_rerun_gives_the_same_index(two_nodes, local_index, tmp_path):
    docs, want = local_index
    job = write_job(docs, tmp_path, two_nodes)
    driver = subprocess.Popen(
        [sys.executable, "-m", "ingest", "run", str(job)],
        env=two_nodes.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while driver.poll() is None and stored_docs(tmp_path / "index.sqlite") < 2:
            time.sleep(0.02)
        assert driver.poll() is None, "the run ended before it could be killed"
        driver.send_signal(signal.SIGKILL)  # the driver alone: the cluster lives on
        driver.wait(timeout=60)
    finally:
        if driver.poll() is None:
            driver.kill()
    partial = index(tmp_path / "index.sqlite")
    assert 2 <= len(partial["docs"]) < len(want["docs"])
    for doc_id in partial["docs"]:  # each document written is whole: one transaction each
        assert partial["chunks"][doc_id] == want["chunks"][doc_id]
    again = run(*config(docs, tmp_path, two_nodes))
    assert not any(r.retry for r in again.failures), again.failures
    assert_same_index(index(tmp_path / "index.sqlite"), want)


def test_an_incremental_run_on_the_cluster_touches_only_what_changed(two_nodes, local_index, tmp_path):
    source, _ = local_index
    docs = tmp_path / "docs"
    shutil.copytree(source, docs)
    first = run(*config(docs, tmp_path, two_nodes))
    assert first.changed > 3 and not any(r.retry for r in first.failures)
    markdown = sorted(docs.rglob("*.md"))
    edited, removed = markdown[0], markdown[1]
    edited.write_text(edited.read_text() + "\n\nA closing sentence added by the test run.\n")
    removed.unlink()
    added = docs / "added.md"
    added.write_text("# Added\n\nA new page about the tests' cluster.\n")
    results: list = []
    second = run(*config(docs, tmp_path, two_nodes), on_result=results.append)
    by_id = {r.doc_id: r.status for r in results}  # a local document is named by its path
    rel = lambda p: str(p.relative_to(docs))  # noqa: E731
    assert by_id.pop(rel(edited)) == "changed"
    assert by_id.pop(rel(added)) == "changed"
    assert by_id.pop(rel(removed)) == "deleted"
    assert set(by_id.values()) <= {"unchanged", "failed"}  # failed: the same bad file, not parsed again
    assert (second.changed, second.deleted) == (2, 1)
    assert second.unchanged == first.changed - 2
    texts = index(tmp_path / "index.sqlite")["chunks"]
    assert any("closing sentence added" in t for chunks in texts.values() for _, t in chunks)
    assert any("new page about the tests" in t for chunks in texts.values() for _, t in chunks)
