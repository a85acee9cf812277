"""The suite's rule for ../shared: a test that needs it is marked `corpus` (by its fixtures or a path
inside it that its module holds); without the corpus such tests are left out with a one-line note
and the rest runs, except under CI's INGEST_REQUIRE_CORPUS=1, where that is a usage error, not a
skip. Tests that need torch are marked `torch` and run only when `-m` names them. The benchmarks
read the shared data through the same setting."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.paths import ROOT

# A tiny selection: Markdown fixture files (no corpus), golden output of corpus files (corpus by
# fixture), and a benchmark's text measures, one of which reads ragbench's scorer.
SELECTION = (
    "tests/markdown/test_fixture_files.py",
    "tests/markdown/test_golden.py",
    "tests/retrieval/test_bench_diagnose.py",
)
NOTE = "corpus tests deselected: no corpus at {corpus}; to run them, set INGEST_SHARED to the shared/ folder"


def pytest_with(shared, *args: str, require: bool = False) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "INGEST_REQUIRE_CORPUS"}
    env["INGEST_SHARED"] = str(shared)
    if require:
        env["INGEST_REQUIRE_CORPUS"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )


def test_without_the_corpus_its_tests_are_left_out_with_one_line_and_the_rest_passes(tmp_path):
    proc = pytest_with(tmp_path, *SELECTION)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    notes = [line for line in out.splitlines() if "corpus tests deselected" in line]
    assert len(notes) == 1 and NOTE.format(corpus=tmp_path / "corpus") in notes[0], out
    assert "or put shared/ beside the checkout" in notes[0]
    assert " passed" in out and "skipped" not in out and "failed" not in out and "error" not in out.lower()
    # the count in the note is pytest's own deselected count: nothing else was left out
    count = int(notes[0].split()[0])
    assert count >= 2 and f"{count} deselected" in out, out


def test_the_tests_left_out_are_the_ones_that_read_shared_data(tmp_path):
    listed = pytest_with(tmp_path, *SELECTION, "--co").stdout
    assert "test_fixture_files.py::" in listed and "test_golden.py::" not in listed
    # ragbench's scorer is shared data: the test that loads it is out, its neighbours stay in
    assert "test_bench_diagnose.py::test_statement_rows_pair_a_label_with_the_figure_under_it" not in listed
    assert "test_bench_diagnose.py::test_pipe_syntax_is_stripped_down_to_the_cell_texts" in listed


def test_under_ci_a_run_that_needs_the_missing_corpus_fails_naming_it(tmp_path):
    proc = pytest_with(tmp_path, *SELECTION, require=True)
    assert proc.returncode == 4, proc.stdout + proc.stderr  # pytest's usage error, before any test runs
    assert f"corpus not found at {tmp_path / 'corpus'}" in proc.stderr
    assert " passed" not in proc.stdout


def test_under_ci_a_run_that_leaves_the_corpus_out_needs_none(tmp_path):
    proc = pytest_with(tmp_path, "tests/markdown/test_fixture_files.py", "-m", "not corpus", require=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " passed" in proc.stdout and "deselected" not in proc.stdout


def test_the_tests_that_read_the_corpus_are_the_ones_marked(shared):
    marked = pytest_with(shared, *SELECTION, "-m", "corpus", "--co")
    unmarked = pytest_with(shared, *SELECTION, "-m", "not corpus", "--co")
    assert marked.returncode == 0 and unmarked.returncode == 0
    assert "test_golden.py::" in marked.stdout and "test_golden.py::" not in unmarked.stdout
    assert "test_fixture_files.py::" in unmarked.stdout and "test_fixture_files.py::" not in marked.stdout
    assert "test_statement_rows_pair_a_label" in marked.stdout


def test_torch_tests_run_only_when_asked_for(tmp_path):
    files = ("tests/retrieval/test_embedders.py", "tests/retrieval/test_embedders_minilm.py")
    default = pytest_with(tmp_path, *files, "--co")
    asked = pytest_with(tmp_path, *files, "-m", "torch", "--co")
    assert default.returncode == 0 and asked.returncode == 0, default.stdout + asked.stdout
    st, minilm = "test_a_sentence_transformers_model_runs_from_a_local_folder_offline", "under_sentence_transformers"
    assert st not in default.stdout and minilm not in default.stdout
    assert "2 torch tests deselected: run them with `pytest -m torch`" in default.stdout
    assert st in asked.stdout and minilm in asked.stdout
    assert "test_wordllama_runs_from_its_wheel" in default.stdout and "test_wordllama" not in asked.stdout


def test_the_benchmarks_read_the_shared_data_where_ingest_shared_says(tmp_path):
    probe = (
        "import retrieval_eval, retrieval_diagnose, retrieval_real, markdown_speed, pdf_eval\n"
        "print(retrieval_eval.DATA, retrieval_diagnose.RAGBENCH, retrieval_real.RAGBENCH, markdown_speed.CORPUS)\n"
        "print(pdf_eval.SHARED)\n"
    )
    env = {**os.environ, "INGEST_SHARED": str(tmp_path), "PYTHONPATH": f"{ROOT / 'benchmarks'}{os.pathsep}{ROOT}"}
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [
        str(tmp_path / "corpus" / "chunking_evaluation"),
        str(tmp_path / "ragbench"),
        str(tmp_path / "ragbench"),
        str(tmp_path / "bench" / "markdown-pypi" / "files"),
        str(tmp_path),
    ]
