"""State and index belong together: each records the index's id, so a deleted or swapped index
is rebuilt, and an index whose state was lost is reconciled with the source."""

from __future__ import annotations

import shutil
import sqlite3

from tests.local_job import sync
from tests.service.helpers import indexed, workspace


def test_a_deleted_index_is_rebuilt_not_trusted(tmp_path):
    cfg = workspace(tmp_path, 3, slow=False)
    sync(cfg)
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"index.sqlite{suffix}").unlink(missing_ok=True)
    summary, _ = sync(cfg)
    assert summary.changed == 3 and any("not the one this state fed" in n for n in summary.notes)
    assert indexed(tmp_path / "index.sqlite") == {"doc000.md", "doc001.md", "doc002.md"}
    assert sync(cfg)[0].unchanged == 3  # and from then on it is trusted


def test_pointing_the_config_at_another_index_fills_it(tmp_path):
    cfg = workspace(tmp_path, 3, slow=False)
    sync(cfg)
    cfg.write_text(cfg.read_text().replace("index.sqlite", "other.sqlite"))
    summary, _ = sync(cfg)
    assert summary.changed == 3 and len(indexed(tmp_path / "other.sqlite")) == 3


def test_a_lost_state_reconciles_the_index_with_the_source(tmp_path):
    cfg = workspace(tmp_path, 3, slow=False)
    sync(cfg)
    (tmp_path / "docs" / "doc001.md").unlink()  # removed while the state was lost
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"state.sqlite{suffix}").unlink(missing_ok=True)
    summary, results = sync(cfg)
    assert results["doc001.md"].status == "deleted" and summary.changed == 2
    assert any("no state remembers" in n for n in summary.notes)
    assert indexed(tmp_path / "index.sqlite") == {"doc000.md", "doc002.md"}


def test_a_lost_state_with_a_jsonl_dump_reconciles_too(tmp_path):
    cfg = workspace(tmp_path, 3, slow=False)
    cfg.write_text(cfg.read_text().replace(f"sqlite: {tmp_path / 'index.sqlite'}", f"jsonl: {tmp_path / 'chunks'}"))
    sync(cfg)
    (tmp_path / "docs" / "doc001.md").unlink()
    shutil.rmtree(tmp_path / "chunks")
    summary, _ = sync(cfg)  # a deleted dump: rebuilt
    assert summary.changed == 2 and len(list((tmp_path / "chunks").glob("*.jsonl"))) == 2
    (tmp_path / "docs" / "doc002.md").unlink()
    (tmp_path / "state.sqlite").unlink()
    summary, results = sync(cfg)
    assert results["doc002.md"].status == "deleted"
    assert len(list((tmp_path / "chunks").glob("*.jsonl"))) == 1


def test_a_reconcile_stopped_half_way_is_finished_by_the_next_run(tmp_path):
    from ingest.runner.state import StateStore

    cfg = workspace(tmp_path, 3, slow=False)
    sync(cfg)
    (tmp_path / "docs" / "doc001.md").unlink()
    (tmp_path / "state.sqlite").unlink()
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        (index_id,) = db.execute("SELECT value FROM ingest_meta WHERE key = 'index_id'").fetchone()
    with StateStore(tmp_path / "state.sqlite") as state:  # a run that paired, then was killed
        state.pair_with(index_id, reset=False)
        assert state.get_meta("reconcile") == "due"
    summary, results = sync(cfg)
    assert results["doc001.md"].status == "deleted" and summary.changed == 2
    with StateStore(tmp_path / "state.sqlite") as state:
        assert state.get_meta("reconcile") is None
