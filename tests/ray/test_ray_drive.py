"""A Drive run on the real two-node cluster: each worker fetches its own documents from Google
(the fake server) with a client it builds from the token the driver hands it; the driver lists
and writes but downloads nothing, and the index is the one a local run writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import ingest.sources.drive_read as drive_read
from ingest import run
from ingest.config import parse_config
from tests.drive.helpers import MD, fetched, handbook, md
from tests.ray.cluster import Cluster
from tests.ray.test_ray_runs import assert_same_index, index

pytestmark = pytest.mark.ray


def drive_run(g, folder: str, out: Path, cluster: Cluster | None, results: list | None = None):
    raw: dict = {
        "source": {
            "drive": {
                "folder_id": folder,
                "token": g.token,
                "drive_endpoint": g.drive_endpoint,
                "docs_endpoint": g.docs_endpoint,
                "sheets_endpoint": g.docs_endpoint,
            }
        },
        "sink": {"sqlite": str(out / "index.sqlite")},
        "state": str(out / "state.sqlite"),
        "embedder": {"name": "minilm"},
    }
    if cluster is None:
        raw["workers"] = 1
    else:
        raw["executor"] = {"ray": {"address": cluster.address, "max_retries": 3}}
    return run(*parse_config(raw), on_result=(results if results is not None else []).append)


@pytest.fixture
def driver_fetches(monkeypatch) -> list[str]:
    """Every file this process (the driver) fetches the content of; Ray's workers are other processes."""
    calls: list[str] = []
    real = drive_read.read_content

    def counted(calls_, meta, name):
        calls.append(name)
        return real(calls_, meta, name)

    monkeypatch.setattr(drive_read, "read_content", counted)
    return calls


def test_workers_fetch_from_drive_and_the_index_is_the_local_one(
    two_nodes, fake_google, corpus_files, tmp_path, driver_fetches
):
    g = fake_google
    ids = handbook(g, None, corpus_files)
    g.share(ids["leave"], "ana@example.com")  # who may read it travels from the worker's fetch
    local = drive_run(g, ids["top"], tmp_path / "local", None)
    assert local.changed == 6 and local.failed == 0
    local_fetches = fetched(g, 0)
    assert len(driver_fetches) == 6  # a local run: this process fetched each document
    driver_fetches.clear()

    since = len(g.requests)
    on_cluster = drive_run(g, ids["top"], tmp_path / "ray", two_nodes)
    assert (on_cluster.changed, on_cluster.failed) == (6, 0)
    assert driver_fetches == []  # the driver downloaded nothing...
    assert sorted(fetched(g, since)) == sorted(local_fetches)  # ...and each document was fetched once, elsewhere
    assert_same_index(index(tmp_path / "ray" / "index.sqlite"), index(tmp_path / "local" / "index.sqlite"))


def test_a_touched_file_is_fetched_by_a_worker_and_not_written_again(two_nodes, fake_google, tmp_path, driver_fetches):
    g = fake_google
    top = g.add_folder("Notes")
    same = g.add_file("same.md", top, md("Same", "Bytes that will not change."), MD)
    edited = g.add_file("edited.md", top, md("Edited", "The first text."), MD)
    first = drive_run(g, top, tmp_path, two_nodes)
    assert (first.changed, first.failed) == (2, 0)
    g.update(same, content=md("Same", "Bytes that will not change."))  # a new version, the same bytes
    g.update(edited, content=md("Edited", "The second text."))
    results: list = []
    since = len(g.requests)
    second = drive_run(g, top, tmp_path, two_nodes, results)
    status = {r.doc_id: r.status for r in results}
    assert status == {same: "unchanged", edited: "changed"}
    assert len(fetched(g, since)) == 2 and driver_fetches == []
    third = drive_run(g, top, tmp_path, two_nodes)  # the touch was recorded: nothing to fetch now
    assert (third.changed, third.unchanged) == (0, 2)
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        texts = [t for (t,) in db.execute("SELECT text FROM chunks ORDER BY doc_id, chunk_index")]
    assert any("second text" in t for t in texts) and not any("first text" in t for t in texts)
    assert second.chunks_written == 1
