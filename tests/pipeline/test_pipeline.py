"""`ingest run` end to end on a real folder, real SQLite: incremental, deletions, failures."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys

import pytest

from ingest import load_config, run
from ingest.config import parse_config
from ingest.errors import ConfigError
from ingest.search.bm25 import search
from tests.paths import ROOT


@pytest.fixture
def workspace(tmp_path, seeds):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(seeds / "paediatric-fever.md", docs / "fever.md")
    (docs / "notes.txt").write_text("Quarterly review is due in March.\n\nBring the budget sheet.\n")
    (docs / "sub").mkdir()
    (docs / "sub" / "policy.md").write_text("# Policy\n\nLaptops are replaced every four years.\n")
    (docs / "image.gif").write_bytes(b"GIF89a")  # a format no loader reads
    config = tmp_path / "ingest.yaml"
    config.write_text(
        f"source:\n  local: {{path: {docs}}}\n"
        f"sink:\n  sqlite: {tmp_path / 'out' / 'index.sqlite'}\n"
        f"state: {tmp_path / 'out' / 'state.sqlite'}\n"
        "chunker: {max_tokens: 256, min_tokens: 32, overlap_tokens: 32}\n"
    )
    return docs, config, tmp_path / "out" / "index.sqlite"


def statuses(summary_results):
    return {r.doc_id: r.status for r in summary_results}


def sync(config):
    results = []
    summary = run(*load_config(config), on_result=results.append)
    return summary, statuses(results)


def chunk_texts(index, doc_id):
    with sqlite3.connect(index) as conn:
        return [r[0] for r in conn.execute("SELECT text FROM chunks WHERE doc_id = ? ORDER BY chunk_index", (doc_id,))]


def test_second_run_parses_nothing_then_changes_and_deletions_apply(workspace):
    docs, config, index = workspace
    summary, status = sync(config)
    assert (summary.changed, summary.skipped, summary.failed) == (3, 1, 0)
    assert status["image.gif"] == "skipped"
    assert summary.chunks_written > 0
    assert search(index, "laptops replaced")[0].chunk.doc_id == "sub/policy.md"

    summary, status = sync(config)
    assert (summary.changed, summary.unchanged) == (0, 3)

    (docs / "sub" / "policy.md").write_text("# Policy\n\nPhones are replaced every two years.\n")
    (docs / "notes.txt").unlink()
    (docs / "fever.md").touch()  # same bytes, new mtime: recognised by content hash
    summary, status = sync(config)
    assert status == {
        "fever.md": "unchanged",
        "image.gif": "skipped",
        "sub/policy.md": "changed",
        "notes.txt": "deleted",
    }
    assert chunk_texts(index, "sub/policy.md") == ["Phones are replaced every two years."]
    assert chunk_texts(index, "notes.txt") == []
    assert search(index, "laptops") == []


def test_a_bad_file_is_named_the_run_goes_on_and_old_chunks_stay(workspace):
    docs, config, index = workspace
    sync(config)
    before = chunk_texts(index, "sub/policy.md")
    (docs / "sub" / "policy.md").write_bytes(b"# Policy\x00\x00 binary garbage")
    (docs / "new.md").write_text("# New\n\nA new document arrives.\n")
    summary, status = sync(config)
    assert status["sub/policy.md"] == "failed" and status["new.md"] == "changed"
    assert summary.failed == 1 and not summary.ok
    assert "policy.md" in summary.failures[0].error and "binary" in summary.failures[0].error
    assert chunk_texts(index, "sub/policy.md") == before  # nothing already stored is lost
    # a failed document is retried next time, and recovers when fixed
    (docs / "sub" / "policy.md").write_text("# Policy\n\nFixed.\n")
    summary, status = sync(config)
    assert status["sub/policy.md"] == "changed" and summary.failed == 0


def test_changing_the_chunker_settings_reprocesses_everything(workspace):
    docs, config, index = workspace
    sync(config)
    config.write_text(config.read_text().replace("max_tokens: 256", "max_tokens: 128"))
    summary, _ = sync(config)
    assert summary.changed == 3


def test_editing_a_plugin_cleaner_reprocesses_its_documents(tmp_path, workspace, monkeypatch):
    docs, config, index = workspace
    plugin = tmp_path / "plugins" / "shout_plugin.py"
    plugin.parent.mkdir()
    plugin.write_text(
        "from dataclasses import replace\n"
        "from ingest.cleaners import Cleaner\n"
        "def run(blocks, ctx):\n"
        "    for b in blocks:\n"
        "        yield replace(b, text=b.text.upper())\n"
        "shout = Cleaner(name='shout', run=run)\n"
    )
    monkeypatch.syspath_prepend(str(plugin.parent))
    config.write_text(config.read_text() + "cleaners: ['shout_plugin:shout']\n")
    assert sync(config)[0].changed == 3
    assert sync(config)[0].changed == 0
    plugin.write_text(plugin.read_text() + "# a new version of the plugin\n")
    assert sync(config)[0].changed == 3  # the plugin's code is part of the settings


def test_jsonl_sink_one_file_per_document(tmp_path, workspace):
    docs, config, _ = workspace
    out = tmp_path / "jsonl"
    config.write_text(config.read_text().replace(f"sqlite: {tmp_path / 'out' / 'index.sqlite'}", f"jsonl: {out}"))
    sync(config)
    assert len(list(out.glob("*.jsonl"))) == 3
    (docs / "notes.txt").unlink()
    sync(config)
    assert len(list(out.glob("*.jsonl"))) == 2


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"source": {"local": {"path": "x", "inclde": []}}}, "source.local.inclde: Extra inputs"),
        ({"source": {"local": {"path": "x"}}, "chunker": {"max_tokens": 0}}, "chunker.max_tokens"),
        (
            {"source": {"local": {"path": "x"}}, "chunker": {"max_tokens": 10, "min_tokens": 5, "overlap_tokens": 10}},
            "overlap_tokens",
        ),
        ({"source": {"local": {"path": "x"}}, "sink": {"sqlite": "a", "jsonl": "b"}}, "exactly one"),
        ({"source": {"local": {"path": "${INGEST_TEST_UNSET_VAR}"}}}, "INGEST_TEST_UNSET_VAR is not set"),
        ({"source": {"local": {"path": "x"}}, "cleaners": ["no_such_cleaner"]}, "unknown cleaner"),
        ({"source": {"local": {"path": "x"}}, "chunker": {"tokenizer": "gpt9"}}, "unknown tokenizer"),
    ],
)
def test_config_errors_name_the_key(raw, message):
    with pytest.raises(ConfigError, match=message.replace("$", r"\$").replace("{", r"\{").replace("}", r"\}")):
        parse_config(raw)


def test_environment_variables_expand(monkeypatch, tmp_path):
    monkeypatch.setenv("DOCS_DIR", str(tmp_path))
    config, _, _ = parse_config({"source": {"local": {"path": "${DOCS_DIR}"}}})
    assert config.source.local.path == tmp_path


def test_cli_run_reports_failures_with_exit_code(workspace):
    docs, config, index = workspace
    (docs / "broken.md").write_bytes(b"\x00\x01\x02")
    proc = subprocess.run([sys.executable, "-m", "ingest", "run", str(config)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "broken.md" in proc.stderr and "failed" in proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(docs / "nope.yaml")], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "nope.yaml" in bad.stderr


def test_default_config_runs_on_the_bundled_examples(tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "configs", tmp_path / "configs")
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "run", "configs/local.yaml"], cwd=tmp_path, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "index.sqlite").exists()
    hits = subprocess.run(
        [sys.executable, "-m", "ingest", "search", "ibuprofen dose", "--json", "-k", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert '"Antipyretic dosing"' in hits.stdout


def test_a_persistently_failing_file_does_not_make_others_reprocess(workspace):
    docs, config, index = workspace
    (docs / "broken.md").write_bytes(b"\x00\x01\x02")
    sync(config)
    summary, status = sync(config)
    assert status["broken.md"] == "failed"
    assert summary.changed == 0 and summary.unchanged == 3


def test_workers_give_the_same_index_as_one_process(workspace, tmp_path):
    docs, config, index = workspace
    text = config.read_text()
    config.write_text(text + "workers: 1\n")
    sync(config)
    one = {d: chunk_texts(index, d) for d in ("fever.md", "notes.txt", "sub/policy.md")}
    config.write_text(text.replace(str(tmp_path / "out"), str(tmp_path / "out2")) + "workers: 2\n")
    summary, _ = sync(config)
    two = {d: chunk_texts(tmp_path / "out2" / "index.sqlite", d) for d in one}
    assert summary.changed == 3 and one == two and all(one.values())


def test_chunk_files_spreads_over_processes_and_names_failures(tmp_path, seeds):
    from ingest.chunker import ChunkOptions
    from ingest.runner.parallel import chunk_files

    bad = tmp_path / "bad.md"
    bad.write_bytes(b"\x00\x00")
    paths = [seeds / "paediatric-fever.md", bad, seeds / "paediatric-fever.md"]
    results = list(chunk_files(paths, ChunkOptions(max_tokens=700, tokenizer="chars"), workers=2))
    assert [r.path for r in results] == paths  # input order
    assert [len(r.chunks) for r in results] == [4, 0, 4]
    assert "bad.md" in results[1].error


def test_an_unreadable_folder_is_reported_and_nothing_under_it_is_deleted(workspace, monkeypatch):
    """Tests run as root here, which reads any folder: the walk is made to meet the permission
    error a user's run would, for the one folder."""
    import os

    docs, config, index = workspace
    sync(config)
    real_walk = os.walk

    def walk(top, onerror=None, **kwargs):
        for dirpath, dirnames, filenames in real_walk(top, onerror=onerror, **kwargs):
            if "sub" in dirnames:
                dirnames.remove("sub")
                onerror(PermissionError(13, "Permission denied", str(docs / "sub")))
            yield dirpath, dirnames, filenames

    monkeypatch.setattr("ingest.sources.local.os.walk", walk)
    summary, status = sync(config)
    assert status[str(docs / "sub")] == "failed" and "Permission denied" in summary.failures[0].error
    assert "sub/policy.md" not in status  # not listed, and not taken for deleted
    assert chunk_texts(index, "sub/policy.md") == ["Laptops are replaced every four years."]


def test_a_failing_file_is_not_parsed_again_until_it_changes(workspace):
    docs, config, index = workspace
    (docs / "broken.md").write_bytes(b"\x00\x01\x02")
    sync(config)
    summary, status = sync(config)
    assert status["broken.md"] == "failed" and "binary" in summary.failures[0].error
    assert summary.chunks_written == 0 and summary.changed == 0
