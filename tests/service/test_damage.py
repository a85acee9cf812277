"""A damaged database stops the run with a message naming the file and what to do, instead of a
run writing on into it. The damage is real: pages of the file overwritten, the header intact."""

from __future__ import annotations

import sqlite3

import pytest

from ingest import sqlite_files
from ingest.errors import DamagedDatabase
from tests.service.helpers import ingest_run, workspace


def damage(path, pages=range(3, 6)):
    """Overwrite whole pages in the middle of an SQLite file (its header, page 1, stays intact)."""
    with sqlite3.connect(path) as db:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        count = db.execute("PRAGMA page_count").fetchone()[0]
    assert count >= max(pages)
    with open(path, "r+b") as handle:
        for page in pages:
            handle.seek((page - 1) * size)
            handle.write(b"\xa5" * size)


@pytest.fixture
def cfg(tmp_path):
    cfg = workspace(tmp_path, 40, slow=False)
    for i in range(40):
        (tmp_path / "docs" / f"doc{i:03}.md").write_text(f"# Document {i}\n\n" + f"Sentence {i} about parcels. " * 60)
    assert ingest_run(cfg, "--quiet").returncode == 0
    assert not (tmp_path / "index.sqlite-wal").exists() or (tmp_path / "index.sqlite-wal").stat().st_size == 0
    return cfg


def test_a_damaged_index_stops_the_run_naming_the_file_and_what_to_do(cfg, tmp_path):
    damage(tmp_path / "index.sqlite")
    (tmp_path / "docs" / "doc000.md").write_text("# Changed\n\nA change to write.\n")
    proc = ingest_run(cfg, "--quiet")
    assert proc.returncode == 3, proc.stderr
    err = " ".join(proc.stderr.split())
    assert f"{tmp_path / 'index.sqlite'}: the index is damaged" in err
    assert "rebuilt from the source" in err and "Traceback" not in err


def test_a_damaged_state_stops_the_run_too(cfg, tmp_path):
    with sqlite3.connect(tmp_path / "state.sqlite") as db:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    damage(tmp_path / "state.sqlite", range(2, pages + 1))
    proc = ingest_run(cfg, "--quiet")
    assert proc.returncode == 3, proc.stderr
    assert "the state database is damaged" in proc.stderr and "a new state re-processes" in proc.stderr


def test_a_large_index_is_checked_daily_and_whenever_sqlite_reports_damage(cfg, tmp_path, monkeypatch):
    from ingest import load_config, run

    monkeypatch.setattr(sqlite_files, "CHECK_EVERY_RUN_BYTES", 1)  # every file counts as large
    assert run(*load_config(cfg)).ok  # checked, and the time recorded
    damage(tmp_path / "index.sqlite", range(2, 40))
    for i in range(40):
        (tmp_path / "docs" / f"doc{i:03}.md").write_text(f"# Changed {i}\n\nNew text to write.\n")
    with pytest.raises(DamagedDatabase, match="the index is damaged"):
        run(*load_config(cfg))  # not checked at open (checked today), but SQLite reports it mid-run
