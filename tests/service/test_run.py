"""`ingest run` left running as a service: one run per state, signals, workers that never outlive
the run, a document that hangs. Every test runs the real command as a subprocess."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.service.helpers import alive, children, env, indexed, ingest_run, recorded, start, wait_until, workspace


def test_a_second_run_on_the_same_state_exits_at_once_naming_the_holder(tmp_path):
    cfg = workspace(tmp_path, 4)
    first = start(cfg, "--quiet", environ=env(tmp_path, SLOW_S="3"))  # 12 s: far longer than a refusal takes
    try:
        assert wait_until(lambda: (tmp_path / "index.sqlite").exists())
        second = ingest_run(cfg, "--quiet", environ=env(tmp_path))
        assert first.poll() is None  # it did not wait for the holder: that run is still going
        assert second.returncode == 4, second.stderr
        assert f"pid {first.pid} on {socket.gethostname()}" in second.stderr
        assert "--wait" in second.stderr
    finally:
        first.wait(timeout=60)
    assert first.returncode == 0


def test_wait_starts_when_the_holder_ends_and_finds_its_work_done(tmp_path):
    cfg = workspace(tmp_path, 4)
    first = start(cfg, "--quiet", environ=env(tmp_path, SLOW_S="0.5"))
    assert wait_until(lambda: (tmp_path / "index.sqlite").exists())
    second = ingest_run(cfg, "--wait", environ=env(tmp_path))
    first.wait(timeout=60)
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    assert "waiting for the run that holds the state" in second.stderr
    counts = {line.split()[0]: line.split()[-1] for line in second.stdout.splitlines() if line.split()}
    assert counts["changed"] == "0" and counts["unchanged"] == "4"  # the work was done once, not twice


def test_a_lock_left_by_a_killed_run_is_taken_over(tmp_path):
    cfg = workspace(tmp_path, 3)
    first = start(cfg, "--quiet", environ=env(tmp_path, SLOW_S="5"))
    assert wait_until(
        lambda: (tmp_path / "state.sqlite.lock").exists() and (tmp_path / "state.sqlite.lock").stat().st_size
    )
    first.kill()  # kill -9: no clean-up ran, the lock file still names it
    first.wait()
    assert json.loads((tmp_path / "state.sqlite.lock").read_text())["pid"] == first.pid
    again = ingest_run(cfg, "--quiet", environ=env(tmp_path))
    assert again.returncode == 0, again.stderr
    assert indexed(tmp_path / "index.sqlite") == {f"doc{i:03}.md" for i in range(3)}


def test_sigterm_stops_between_documents_commits_what_was_done_and_leaves_no_process(tmp_path):
    cfg = workspace(tmp_path, 12, workers=2)
    proc = start(cfg, environ=env(tmp_path, SLOW_S="0.5"))
    assert wait_until(lambda: len(indexed(tmp_path / "index.sqlite")) >= 2)
    workers = children(proc.pid)
    assert len(workers) >= 2
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    assert "stopped (SIGTERM)" in err and "Traceback" not in err
    assert wait_until(lambda: not any(alive(p) for p in workers), timeout=5)
    done = indexed(tmp_path / "index.sqlite")
    assert 2 <= len(done) < 12
    state = recorded(tmp_path / "state.sqlite")
    assert set(state) <= done and all(s == "ok" for s in state.values())  # state never ahead of the index
    rest = ingest_run(cfg, "--quiet", environ=env(tmp_path))
    assert rest.returncode == 0 and len(indexed(tmp_path / "index.sqlite")) == 12


def test_ctrl_c_with_workers_prints_no_traceback(tmp_path):
    cfg = workspace(tmp_path, 12, workers=2)
    # Ctrl-C reaches the whole foreground process group: the workers get SIGINT too.
    proc = subprocess.Popen(
        [sys.executable, "-m", "ingest", "run", str(cfg)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(tmp_path, SLOW_S="0.5"),
        start_new_session=True,
    )
    assert wait_until(lambda: len(indexed(tmp_path / "index.sqlite")) >= 1)
    workers = children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "stopped (SIGINT)" in err
    assert wait_until(lambda: not any(alive(p) for p in workers), timeout=5)


def test_workers_exit_when_the_parent_is_killed(tmp_path):
    cfg = workspace(tmp_path, 12, workers=2)
    proc = start(cfg, "--quiet", environ=env(tmp_path, SLOW_S="2"))
    assert wait_until(lambda: len(children(proc.pid)) >= 2)
    workers = children(proc.pid)
    proc.kill()
    proc.wait()
    assert wait_until(lambda: not any(alive(p) for p in workers), timeout=5)


def test_sigterm_between_every_runs_stops_at_once(tmp_path):
    cfg = workspace(tmp_path, 2, slow=False)
    proc = start(cfg, "--every", "1h", "--quiet", environ=env(tmp_path))
    assert wait_until(lambda: "next run in" in proc.stderr.readline(), timeout=60)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)  # not the hour to the next run
    assert proc.returncode == 0 and "stopped" in err and "Traceback" not in err


def test_a_document_that_hangs_fails_on_its_time_limit_and_the_run_goes_on(tmp_path):
    cfg = workspace(tmp_path, 4, workers=2, extra="timeout_s: 2\n")
    (tmp_path / "docs" / "hang.md").write_text("# Stuck\n\nA parser never returns from this one.\n")
    proc = ingest_run(cfg, "--quiet", environ=env(tmp_path), timeout=60)  # the document alone never ends
    assert proc.returncode == 1, proc.stderr
    assert "hang.md" in proc.stderr and "time limit of 2 s" in proc.stderr
    assert indexed(tmp_path / "index.sqlite") == {f"doc{i:03}.md" for i in range(4)}


def test_a_document_that_hangs_in_process_fails_on_its_time_limit(tmp_path):
    cfg = workspace(tmp_path, 2, workers=1, extra="timeout_s: 1\n")
    (tmp_path / "docs" / "hang.md").write_text("# Stuck\n\nA parser never returns from this one.\n")
    proc = ingest_run(cfg, "--quiet", environ=env(tmp_path), timeout=60)
    assert proc.returncode == 1 and "time limit of 1 s" in proc.stderr, proc.stderr
    assert indexed(tmp_path / "index.sqlite") == {"doc000.md", "doc001.md"}


def test_workers_do_not_hold_the_lock(tmp_path):
    cfg = workspace(tmp_path, 12, workers=2)
    proc = start(cfg, "--quiet", environ=env(tmp_path, SLOW_S="0.5"))
    assert wait_until(lambda: len(children(proc.pid)) >= 2)
    workers = children(proc.pid)
    lock = str(tmp_path / "state.sqlite.lock")
    for pid in workers:  # no descriptor of a worker points at the lock file
        fds = Path(f"/proc/{pid}/fd")
        assert all(os.readlink(fd) != lock for fd in fds.iterdir() if fd.exists())
    proc.kill()
    proc.wait()


def test_sigterm_while_waiting_for_the_lock_stops_at_once(tmp_path):
    cfg = workspace(tmp_path, 4)
    holder = start(cfg, "--quiet", environ=env(tmp_path, SLOW_S="10"))  # killed below, never waited for
    try:
        assert wait_until(lambda: (tmp_path / "index.sqlite").exists())
        waiter = start(cfg, "--wait", environ=env(tmp_path))
        assert wait_until(lambda: "waiting for the run" in waiter.stderr.readline(), timeout=30)
        waiter.send_signal(signal.SIGTERM)
        _, err = waiter.communicate(timeout=60)
        assert holder.poll() is None  # it stopped waiting, not waited for the holder to end
        assert waiter.returncode == 143, err
        assert "Traceback" not in err
    finally:
        holder.kill()
        holder.wait()
