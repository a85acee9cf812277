"""A failure caused by the machine is no verdict on the document: disk full, a locked database,
out of memory, a time limit, a lost worker are reported, named, and tried again on the next run
without an edit. Real SQLite files throughout; the faults are real SQLite and process failures."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest

from ingest import load_config, run, sqlite_files
from ingest.errors import SinkError, StateError
from ingest.sinks import sqlite as sqlite_sink
from tests.local_job import sync
from tests.service.helpers import env, indexed, ingest_run, recorded, workspace


@pytest.fixture
def plugin_path(tmp_path, monkeypatch):
    cfg = workspace(tmp_path, 3, cleaner="faulty")
    monkeypatch.syspath_prepend(str(tmp_path / "plugins"))
    return cfg


@contextlib.contextmanager
def locked(path):
    """Another program holding the SQLite file in an exclusive transaction."""
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def test_disk_full_fails_the_documents_and_the_next_run_retries_them(tmp_path, monkeypatch):
    cfg = workspace(tmp_path, 8, slow=False)
    docs = tmp_path / "docs"
    for i in range(8):  # big enough that a small index fills up after a few
        (docs / f"doc{i:03}.md").write_text(f"# Document {i}\n\n" + f"Sentence {i} about parcels. " * 800)
    real = sqlite_sink.connect_index

    def small_disk(path, *, create):
        conn = real(path, create=create)
        conn.execute("PRAGMA max_page_count = 40")  # SQLite's own "database or disk is full"
        return conn

    monkeypatch.setattr(sqlite_sink, "connect_index", small_disk)
    summary, results = sync(cfg)
    full = [r for r in results.values() if r.status == "failed"]
    assert full and summary.changed + len(full) == 8
    assert all("disk is full" in r.error and r.retry for r in full)
    monkeypatch.setattr(sqlite_sink, "connect_index", real)  # room was made
    summary, results = sync(cfg)
    assert summary.failed == 0 and {d for d, r in results.items() if r.status == "changed"} == {r.doc_id for r in full}
    assert len(indexed(tmp_path / "index.sqlite")) == 8


def test_a_database_locked_mid_run_fails_documents_for_this_run_only(tmp_path, monkeypatch):
    cfg = workspace(tmp_path, 4, slow=False)
    monkeypatch.setattr(sqlite_files, "BUSY_TIMEOUT_S", 0.2)
    blocker = sqlite3.connect(tmp_path / "index.sqlite", isolation_level=None)

    def lock_after_first(result):
        if not blocker.in_transaction:
            blocker.execute("BEGIN IMMEDIATE")  # a backup tool, a DB browser writing

    try:
        summary, results = run(*load_config(cfg), on_result=lock_after_first), None
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert summary.changed == 1 and summary.failed == 3
    assert all("another program holds the database locked" in f.error and f.retry for f in summary.failures)
    summary, results = sync(cfg)
    assert (summary.changed, summary.unchanged, summary.failed) == (3, 1, 0)


def test_a_locked_index_at_start_names_the_cause(tmp_path, monkeypatch):
    cfg = workspace(tmp_path, 2, slow=False)
    assert sync(cfg)[0].ok
    monkeypatch.setattr(sqlite_files, "BUSY_TIMEOUT_S", 0.2)
    with (
        locked(tmp_path / "index.sqlite"),
        pytest.raises(SinkError, match="another program holds the database locked") as caught,
    ):
        sync(cfg)
    assert "check it is the right file" not in str(caught.value)


def test_a_read_only_state_names_the_cause(tmp_path):
    # The tests may run as root, whom chmod does not stop: SQLite's read-only mode gives its own error.
    with sqlite3.connect(tmp_path / "state.sqlite") as conn:
        conn.execute("CREATE TABLE t (x)")
    ro = sqlite3.connect(f"{(tmp_path / 'state.sqlite').as_uri()}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as real:
        ro.execute("INSERT INTO t VALUES (1)")
    from ingest.runner.state import _STATE

    err = sqlite_files.open_error(real.value, "state.sqlite", _STATE)
    assert isinstance(err, StateError) and "read-only" in str(err) and "writable" in str(err)


@pytest.mark.parametrize(
    "name, workers, words",
    [
        ("oom.md", 1, "out of memory"),
        ("crash.md", 2, "worker process died"),
        ("stuck.md", 2, "time limit of 2 s"),
    ],
)
def test_memory_crash_and_time_limit_are_retried_without_an_edit(tmp_path, name, workers, words):
    cfg = workspace(tmp_path, 2, workers=workers, cleaner="faulty", extra="timeout_s: 2\n")
    (tmp_path / "docs" / name).write_text("# Heavy\n\nA document the machine could not cope with today.\n")
    flag = tmp_path / "machine-trouble"
    flag.touch()
    first = ingest_run(cfg, "--quiet", environ=env(tmp_path, FAULT_FLAG=str(flag)))
    assert first.returncode == 1 and words in first.stderr and "tried again next run" in first.stderr, first.stderr
    assert recorded(tmp_path / "state.sqlite")[name] == "failed"
    flag.unlink()  # the machine recovered; the file was not touched
    second = ingest_run(cfg, "--quiet", environ=env(tmp_path, FAULT_FLAG=str(flag)))
    assert second.returncode == 0, second.stderr
    assert name in indexed(tmp_path / "index.sqlite")


def test_a_document_fault_is_not_retried_until_it_changes(tmp_path):
    cfg = workspace(tmp_path, 1, slow=False)
    (tmp_path / "docs" / "binary.md").write_bytes(b"\x00\x01\x02 not text")
    assert sync(cfg)[0].failed == 1
    summary, results = sync(cfg)
    assert results["binary.md"].status == "failed" and not results["binary.md"].retry
    assert "tried again" not in results["binary.md"].error


def test_a_bug_on_one_document_is_one_short_line_and_the_run_goes_on(tmp_path):
    cfg = workspace(tmp_path, 2, cleaner="faulty")
    (tmp_path / "docs" / "bug.md").write_text("# Unlucky\n\nA document that meets a bug.\n")
    result = ingest_run(cfg, "--quiet", environ=env(tmp_path))
    assert result.returncode == 1
    [line] = [ln for ln in result.stderr.splitlines() if "bug.md" in ln and "internal error" in ln]
    assert "UnicodeEncodeError" in line and "please report it" in line and len(line) < 400, line
    assert recorded(tmp_path / "state.sqlite")["bug.md"] == "failed"
    assert {"doc000.md", "doc001.md"} <= set(indexed(tmp_path / "index.sqlite"))


def test_a_state_locked_by_another_program_names_the_cause(tmp_path, monkeypatch):
    cfg = workspace(tmp_path, 2, slow=False)
    assert sync(cfg)[0].ok
    (tmp_path / "docs" / "doc000.md").write_text("# Changed\n\nSomething to record.\n")
    monkeypatch.setattr(sqlite_files, "BUSY_TIMEOUT_S", 0.2)
    with (
        locked(tmp_path / "state.sqlite"),
        pytest.raises(StateError, match="another program holds the database locked") as caught,
    ):
        sync(cfg)
    assert "check it is the right file" not in str(caught.value)
