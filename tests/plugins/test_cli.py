"""`--config`/`--cleaner` on chunk and stats, `ingest run PATH`, `ingest plugins`, and plugin
sources, sinks and loaders named by `module:attr` in a config."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ingest.config import parse_config
from ingest.errors import ConfigError
from ingest.runner.pipeline import run
from tests.paths import ROOT

DOC = "# Leave\n\nCONFIDENTIAL\n\nTwenty days of paid leave a year.\n\n## Carry-over\n\nFive days carry over.\n"


def ingest(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ingest", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "leave.md").write_text(DOC)
    shutil.copytree(ROOT / "tests" / "plugins" / "plugin_package" / "ingest_banner", tmp_path / "ingest_banner")
    return tmp_path


def texts(proc: subprocess.CompletedProcess) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line)["text"] for line in proc.stdout.splitlines()]


def test_chunk_takes_a_configs_cleaners_and_chunker_and_flags_win(project):
    config = project / "sub" / "ingest.yaml"
    config.parent.mkdir()
    shutil.move(project / "ingest_banner", config.parent / "ingest_banner")  # importable from the config's folder
    config.write_text(
        "source:\n  local: {path: .}\nchunker: {max_tokens: 5, min_tokens: 0, overlap_tokens: 0}\n"
        "cleaners: ['ingest_banner.cleaner:strip_banner']\n"
    )
    small = texts(ingest("chunk", "leave.md", "--config", str(config), cwd=project))
    assert len(small) >= 3 and not any("CONFIDENTIAL" in t for t in small)
    big = texts(ingest("chunk", "leave.md", "--config", str(config), "--max-tokens", "500", cwd=project))
    assert len(big) == 2  # one chunk per heading path, the config's cleaner still on
    assert not any("CONFIDENTIAL" in t for t in big)


def test_cleaner_flag_by_module_attr_from_the_working_folder(project):
    assert any("CONFIDENTIAL" in t for t in texts(ingest("chunk", "leave.md", cwd=project)))
    out = texts(ingest("chunk", "leave.md", "--cleaner", "ingest_banner.cleaner:strip_banner", cwd=project))
    assert out and not any("CONFIDENTIAL" in t for t in out)
    proc = ingest("chunk", "leave.md", "--cleaner", "nosuch", cwd=project)
    assert proc.returncode == 2 and "unknown cleaner" in proc.stderr and "running_headers" in proc.stderr


def test_stats_with_a_config_measures_its_setting(project):
    config = project / "ingest.yaml"
    config.write_text("source:\n  local: {path: .}\nchunker: {max_tokens: 40, min_tokens: 0, overlap_tokens: 0}\n")
    proc = ingest("stats", "leave.md", "--config", str(config), "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    (row,) = [json.loads(line) for line in proc.stdout.splitlines()]
    assert (row["max_tokens"], row["overlap_tokens"]) == (40, 0)
    rows = ingest("stats", "leave.md", "--json", "--cleaner", "furniture:false", cwd=project).stdout.splitlines()
    assert len(rows) == 6  # without a config: the sweep of budgets


def test_run_a_folder_without_a_config(project):
    proc = ingest("run", str(project), "--index", "idx/leave.sqlite", "--quiet", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "idx" / "leave.sqlite").is_file() and (project / "idx" / "leave.state.sqlite").is_file()
    found = ingest("search", "carry over", "--index", "idx/leave.sqlite", "--json", cwd=project)
    assert "Five days carry over" in found.stdout
    again = ingest("run", str(project), "--index", "idx/leave.sqlite", "--quiet", cwd=project)
    assert "unchanged" in again.stdout and again.returncode == 0
    proc = ingest("run", str(project), "--quiet", cwd=project)  # defaults of configs/local.yaml
    assert (
        proc.returncode == 0
        and (project / "out" / "index.sqlite").is_file()
        and (project / "out" / "state.sqlite").is_file()
    )


def test_plugins_lists_builtins_with_their_details(tmp_path):
    proc = ingest("plugins", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "loaders:" in out and "cleaners:" in out and "sinks:" in out and "sources:" in out
    assert ".pdf" in out and "application/pdf" in out
    assert "min_pages=2" in out and "figures  (built in)" in out


STAGES = textwrap.dedent("""
    import json
    from pathlib import Path
    from pydantic import BaseModel
    from ingest.plugin_stages import SinkType, SourceType
    from ingest.sinks import Sink
    from ingest.sources import Item, Sync
    from ingest.blocks import Document

    class MemoryOptions(BaseModel):
        texts: dict[str, str]

    class MemorySource:
        def __init__(self, options):
            self.texts, self.key, self.errors = options.texts, "memory", []
        def sync(self, cursor):
            return Sync(items=[Item(n, n, "text/markdown", str(hash(t))) for n, t in self.texts.items()], complete=True)
        def read(self, item):
            return self.texts[item.doc_id].encode()
        def document(self, item, data):
            return Document(id=item.doc_id, uri="memory:" + item.doc_id, name=item.name, mime_type=item.mime_type)

    class DumpOptions(BaseModel):
        file: Path

    class DumpSink(Sink):
        def __init__(self, options):
            self.file = options.file
        def write(self, document, chunks):
            with self.file.open("a") as f:
                for c in chunks:
                    f.write(json.dumps([document.id, c.text]) + "\\n")
        def delete(self, doc_id):
            pass
        def close(self):
            pass

    memory = SourceType("memory", MemorySource, MemoryOptions)
    dump = SinkType("dump", DumpSink, DumpOptions)
""")


def test_plugin_source_and_sink_by_module_attr_with_their_options_checked(tmp_path):
    (tmp_path / "my_stages.py").write_text(STAGES)  # beside the config: importable from its folder
    out = tmp_path / "dump.jsonl"
    raw = {
        "source": {"my_stages:memory": {"texts": {"a.md": "# A\n\nAlpha text.\n"}}},
        "sink": {"my_stages:dump": {"file": str(out)}},
        "state": str(tmp_path / "s.sqlite"),
        "workers": 1,
    }
    summary = run(*parse_config(raw, base=tmp_path))
    assert summary.ok and summary.changed == 1
    assert json.loads(out.read_text().splitlines()[0]) == ["a.md", "Alpha text."]
    bad = {**raw, "sink": {"my_stages:dump": {"fiel": "x"}}}
    with pytest.raises(ConfigError, match=r"sink.my_stages:dump: unknown option 'fiel' \(its options: file\)"):
        parse_config(bad)
    with pytest.raises(ConfigError, match="exactly one source"):
        parse_config({**raw, "source": {**raw["source"], "local": {"path": "."}}})
    with pytest.raises(ConfigError, match="unknown source"):
        parse_config({**raw, "source": {"nosuch": {}}})
    sys.modules.pop("my_stages", None)
    sys.path.remove(str(tmp_path))


def test_chunk_says_why_a_file_gave_no_chunks(project):
    (project / "banner.md").write_text("CONFIDENTIAL\n")
    proc = ingest("chunk", "banner.md", "--cleaner", "ingest_banner.cleaner:strip_banner", cwd=project)
    assert proc.returncode == 0 and proc.stdout == ""
    assert "no chunks (strip_banner removed 1 blocks" in proc.stderr and "ingest inspect" in proc.stderr
