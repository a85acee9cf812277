"""`ingest run --every`: runs on a schedule until interrupted, going on after a run that fails as a
whole, its exit code that of the last finished run (3 when a raising run was the last)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from tests.local_job import ingest, write_config


def every_second(cfg) -> subprocess.Popen:
    """`ingest run CFG --every 1s --quiet` in the background, its output read as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "ingest", "run", str(cfg), "--every", "1s", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_every_goes_on_after_a_run_that_fails_as_a_whole(tmp_path, docs):
    cfg = write_config(tmp_path, docs)
    proc = every_second(cfg)
    try:
        runs, deadline = 0, time.monotonic() + 30
        while runs < 1 and time.monotonic() < deadline:
            runs += proc.stdout.readline().split()[:1] == ["changed"]
        moved = docs.with_name("docs-away")
        docs.rename(moved)  # an unmounted share, a folder being restored from backup
        time.sleep(2.5)  # at least one run meets the missing folder
        moved.rename(docs)
        still_running = proc.poll() is None
        time.sleep(1.5)
        assert still_running and proc.poll() is None
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)


def test_every_exit_code_reflects_the_last_finished_run(tmp_path, docs):
    (docs / "broken.md").write_bytes(b"\x00\x01\x02binary")
    cfg = write_config(tmp_path, docs)
    proc = every_second(cfg)
    failed, deadline = [], time.monotonic() + 30
    while len(failed) < 2 and time.monotonic() < deadline:
        parts = proc.stdout.readline().split()
        if parts[:1] == ["failed"]:
            failed.append(parts[1])
    assert proc.poll() is None  # a failing document does not end the schedule
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert failed == ["1", "1"] and proc.returncode == 1 and "stopped" in err


def test_every_reports_a_raising_run_goes_on_and_ctrl_c_exits_as_the_last_run(tmp_path):
    docs = tmp_path / "docs"  # missing: every run raises SourceError
    cfg = tmp_path / "ingest.yaml"
    cfg.write_text(
        f"source:\n  local: {{path: {docs}}}\nsink:\n  sqlite: {tmp_path / 'index.sqlite'}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n"
    )
    proc = every_second(cfg)
    try:
        failures, deadline = 0, time.monotonic() + 30
        while failures < 2 and time.monotonic() < deadline:
            failures += "run failed" in proc.stderr.readline()
        assert failures == 2 and proc.poll() is None
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    # Ctrl-C between runs exits as the last run ended (issue #9): 5, the source could not be listed (#25).
    assert proc.returncode == 5 and "stopped" in err and "Traceback" not in err


def test_run_every_repeats_until_interrupted(tmp_path):
    import signal
    import time

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nSome text to index.\n", encoding="utf-8")
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'i.sqlite'}}}\n"
        f"state: {tmp_path / 's.sqlite'}\nworkers: 1\n",
        encoding="utf-8",
    )
    assert ingest("run", cfg, "--every", "soon").returncode == 2  # not a duration
    proc = every_second(cfg)
    runs, deadline = [], time.monotonic() + 60
    while len(runs) < 2 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.strip().startswith("changed"):
            runs.append(line.split())
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    assert runs == [["changed", "1"], ["changed", "0"]]  # the second run found nothing new
    assert proc.returncode == 0
