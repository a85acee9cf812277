"""The suite's rule for ../shared: a test that needs it is marked `corpus` (by its fixtures or the
paths its module imports), a run that selects such a test without the corpus is a usage error, not
a skip, and `-m "not corpus"` runs the rest with no ../shared at all."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.paths import ROOT


def pytest_in(folder: str, shared, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "INGEST_SHARED": str(shared)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"tests/{folder}", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )


def test_a_run_that_needs_the_missing_corpus_fails_naming_it(tmp_path):
    proc = pytest_in("markdown", tmp_path, "--co")
    assert proc.returncode == 4, proc.stdout + proc.stderr  # pytest's usage error
    assert f"corpus not found at {tmp_path / 'corpus'}" in proc.stderr


def test_without_the_corpus_the_rest_runs_and_passes(tmp_path):
    proc = pytest_in("markdown", tmp_path, "-m", "not corpus")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " passed" in proc.stdout and "skipped" not in proc.stdout


def test_the_tests_that_read_the_corpus_are_the_ones_marked(shared):
    marked = pytest_in("markdown", shared, "-m", "corpus", "--co")
    unmarked = pytest_in("markdown", shared, "-m", "not corpus", "--co")
    assert marked.returncode == 0 and unmarked.returncode == 0
    assert "test_golden.py::" in marked.stdout and "test_golden.py::" not in unmarked.stdout
    assert "test_fixture_files.py::" in unmarked.stdout and "test_fixture_files.py::" not in marked.stdout
