"""`ingest run` on a local folder as a user meets it: unreadable files and folders, renames,
cleaner changes, the JSONL sink, workers, exit codes. Tests for the bugs a review found failed
before their fixes."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from tests.local_job import ingest, sync, write_config


def summary_counts(stdout: str) -> dict[str, str]:
    """The summary table `ingest run` prints: label -> value."""
    out = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("changed", "unchanged", "deleted", "failed"):
            out[parts[0]] = parts[1]
        if parts[:2] == ["documents", "seen"]:
            out["seen"] = parts[2]
    return out


def unreadable_file(path: Path) -> socket.socket:
    """A listed file whose bytes cannot be read, whoever runs the test (root reads a chmod 000
    file): a Unix socket, which `open` refuses with ENXIO. Keep the socket alive while in use."""
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    return sock


# -- pipeline on a local folder -------------------------------------------------------------------


@pytest.mark.parametrize("sink, workers", [("sqlite", 1), ("jsonl", 2)])
def test_an_unreadable_file_is_reported_and_tried_every_run_and_blocks_nothing(tmp_path, docs, sink, workers):
    sock = unreadable_file(docs / "locked.md")
    try:
        cfg = write_config(tmp_path, docs, sink=sink, workers=workers)
        first = ingest("run", cfg, "--quiet")
        assert first.returncode == 1
        assert summary_counts(first.stdout) == {
            "seen": "4",
            "changed": "3",
            "unchanged": "0",
            "deleted": "0",
            "failed": "1",
        }
        assert "locked.md: cannot read" in first.stderr and "tried again next run" in first.stderr
        (docs / "notes.txt").unlink()  # a deletion elsewhere is not held up by the unreadable file
        second = ingest("run", cfg, "--quiet")
        assert second.returncode == 1 and "locked.md: cannot read" in second.stderr
        assert summary_counts(second.stdout) == {
            "seen": "3",
            "changed": "0",
            "unchanged": "2",
            "deleted": "1",
            "failed": "1",
        }
    finally:
        sock.close()
    # Readable again (same name): read and stored; the run is clean.
    (docs / "locked.md").unlink()
    (docs / "locked.md").write_text("# Locked\n\nNow it can be read.\n")
    summary, results = sync(cfg)
    assert summary.ok and results["locked.md"].status == "changed" and results["locked.md"].chunks == 1
    assert (summary.changed, summary.unchanged, summary.failed) == (1, 2, 0)


def test_a_good_file_that_becomes_unreadable_keeps_its_chunks_and_comes_back_unchanged_bytes(tmp_path, docs):
    cfg = write_config(tmp_path, docs, sink="jsonl")
    sync(cfg)
    dumps = sorted(p.name for p in (tmp_path / "chunks").iterdir())
    data = (docs / "sub" / "policy.md").read_bytes()
    (docs / "sub" / "policy.md").unlink()
    sock = unreadable_file(docs / "sub" / "policy.md")
    try:
        summary, results = sync(cfg)
        assert results["sub/policy.md"].status == "failed" and results["sub/policy.md"].retry
        assert sorted(p.name for p in (tmp_path / "chunks").iterdir()) == dumps  # what was stored stays
    finally:
        sock.close()
    (docs / "sub" / "policy.md").unlink()
    (docs / "sub" / "policy.md").write_bytes(data)
    summary, results = sync(cfg)
    assert summary.ok and results["sub/policy.md"].status in ("changed", "unchanged")
    assert sorted(p.name for p in (tmp_path / "chunks").iterdir()) == dumps


def test_a_renamed_file_with_the_same_bytes_moves_its_chunks_in_the_jsonl_sink(tmp_path, docs):
    cfg = write_config(tmp_path, docs, sink="jsonl", workers=2)
    sync(cfg)
    (docs / "sub" / "policy.md").rename(docs / "sub" / "laptops.md")
    summary, results = sync(cfg)
    assert {d: r.status for d, r in results.items() if r.status != "unchanged"} == {
        "sub/laptops.md": "changed",
        "sub/policy.md": "deleted",
    }
    dumps = [p for p in (tmp_path / "chunks").iterdir() if p.name.startswith(("laptops", "policy"))]
    assert [p.name.split(".")[0] for p in dumps] == ["laptops-md"]
    rows = [json.loads(line) for line in dumps[0].read_text().splitlines()]
    assert [r["doc_id"] for r in rows] == ["sub/laptops.md"] and rows[0]["source"]["name"] == "laptops.md"


def test_changing_a_cleaner_reprocesses_every_document_including_a_failed_one(tmp_path, docs):
    (docs / "broken.md").write_bytes(b"\x00\x01\x02binary")
    cfg = write_config(tmp_path, docs)
    first, _ = sync(cfg)
    assert (first.changed, first.failed) == (3, 1)
    again, _ = sync(cfg)
    assert (again.changed, again.unchanged, again.failed) == (0, 3, 1)
    cfg = write_config(tmp_path, docs, extra="cleaners:\n  - comments: {keep_as_metadata: true}\n")
    changed, results = sync(cfg)
    assert (changed.changed, changed.unchanged, changed.failed) == (3, 0, 1)
    assert "binary" in results["broken.md"].error  # parsed again under the new settings, same verdict
    back = ingest("run", write_config(tmp_path, docs), "--quiet")  # back to the defaults: all again
    assert back.returncode == 1 and summary_counts(back.stdout)["changed"] == "3"


@pytest.mark.parametrize("workers", [0, 1, 2])
def test_workers_give_the_same_jsonl_dump(tmp_path, docs, workers):
    cfg = write_config(tmp_path, docs, sink="jsonl", workers=workers)
    summary, _ = sync(cfg)
    assert summary.ok and summary.changed == 3
    dump = {p.name: p.read_text() for p in (tmp_path / "chunks").glob("*.jsonl")}  # beside .ingest-index-id
    assert len(dump) == 3 and all(text.endswith("\n") for text in dump.values())
    assert all(json.loads(line)["token_count"] <= 200 for text in dump.values() for line in text.splitlines())


def _walk_as_a_user(real_walk):
    """os.walk as a non-root user meets a chmod 000 folder: refused (onerror) when descended into.
    Tests run as root here, which reads any folder; the folder's real mode decides."""

    def walk(top, topdown=True, onerror=None, followlinks=False):
        for dirpath, dirnames, filenames in real_walk(top, topdown, None, followlinks):
            yield dirpath, dirnames, filenames
            for name in list(dirnames):  # what the caller left in dirnames is descended into next
                full = os.path.join(dirpath, name)
                if os.stat(full).st_mode & 0o777 == 0:
                    dirnames.remove(name)
                    if onerror is not None:
                        onerror(PermissionError(13, "Permission denied", full))

    return walk


def test_an_unreadable_folder_that_is_excluded_neither_fails_the_run_nor_blocks_deletions(tmp_path, docs, monkeypatch):
    private = docs / "private"
    private.mkdir()
    (private / "salaries.md").write_text("# Salaries\n\nNot for the index.\n")
    private.chmod(0)
    try:
        monkeypatch.setattr("ingest.sources.local.os.walk", _walk_as_a_user(os.walk))
        cfg = write_config(tmp_path, docs, extra="")
        cfg.write_text(cfg.read_text().replace(f"path: {docs}}}", f"path: {docs}, exclude: [private/]}}"))
        sync(cfg)
        (docs / "notes.txt").unlink()
        summary, results = sync(cfg)
        assert summary.ok, summary.failures
        assert results["notes.txt"].status == "deleted"
    finally:
        private.chmod(0o755)
