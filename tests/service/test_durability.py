"""Durability order: the sink is made durable before the state commits what it records, state
records are committed in batches, and a run killed with SIGKILL at any point converges: the
next run leaves the index equal to a clean run's."""

from __future__ import annotations

import shutil
import sqlite3

from ingest import load_config, run
from ingest.runner.state import StateStore
from ingest.sinks.sqlite import SqliteSink
from tests.service.helpers import env, indexed, ingest_run, recorded, start, wait_until, workspace


def contents(index) -> list[tuple]:
    with sqlite3.connect(index) as db:
        return db.execute("SELECT c.id, c.doc_id, c.chunk_index, c.text FROM chunks c ORDER BY c.id").fetchall()


def test_the_state_commits_only_after_the_sink_is_durable_and_in_batches(tmp_path, monkeypatch):
    cfg = workspace(tmp_path, 30, slow=False)
    events: list[str] = []
    for cls, name in ((SqliteSink, "write"), (SqliteSink, "sync"), (StateStore, "commit")):
        real = getattr(cls, name)

        def spy(self, *args, _real=real, _name=name, **kwargs):
            events.append(_name)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, spy)
    assert run(*load_config(cfg)).changed == 30
    assert events.count("write") == 30 and 1 <= events.count("commit") < 30  # batched
    for i, event in enumerate(events):
        if event == "commit":
            last_write = max(j for j in range(i) if events[j] == "write")
            assert "sync" in events[last_write:i]  # the sink was made durable after the last write


def test_killed_at_any_point_the_next_run_converges_to_a_clean_index(tmp_path):
    clean = tmp_path / "clean"
    clean.mkdir()
    cfg_clean = workspace(clean, 40, slow=False)
    assert ingest_run(cfg_clean, "--quiet").returncode == 0
    expected = contents(clean / "index.sqlite")

    killed = tmp_path / "killed"
    killed.mkdir()
    cfg = workspace(killed, 40)
    shutil.copytree(clean / "docs", killed / "docs", dirs_exist_ok=True)
    for at in (3, 11, 19, 27, 35):
        proc = start(cfg, "--quiet", environ=env(killed, SLOW_S="0.03"))
        assert wait_until(lambda at=at: len(indexed(killed / "index.sqlite")) >= at, timeout=60)
        proc.kill()  # SIGKILL: no handler, no clean-up
        proc.wait()
        state = recorded(killed / "state.sqlite") if (killed / "state.sqlite").exists() else {}
        assert set(state) <= indexed(killed / "index.sqlite")  # the state never runs ahead of the index
    assert ingest_run(cfg, "--quiet", environ=env(killed)).returncode == 0
    assert contents(killed / "index.sqlite") == expected
    again = ingest_run(cfg, "--quiet", environ=env(killed))
    assert " changed         0" in again.stdout or "changed 0" in " ".join(again.stdout.split())
