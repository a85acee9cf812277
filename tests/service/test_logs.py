"""Logs a service can use: timestamped, levelled lines off a terminal, JSON events on request, a
summary file with what changed, loader warnings shown and counted, file names escaped."""

from __future__ import annotations

import json
import re

import pytest

from tests.service.helpers import ingest_run, workspace

LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (INFO|WARNING|ERROR) \S")


@pytest.fixture
def cfg(tmp_path):
    cfg = workspace(tmp_path, 3, slow=False)
    (tmp_path / "docs" / "legacy.txt").write_bytes("Café prices rose in the canteen.".encode("cp1252"))
    (tmp_path / "docs" / "broken.md").write_bytes(b"\x00\x01 binary, not Markdown")
    return cfg


def test_off_a_terminal_every_line_has_a_timestamp_and_a_level(cfg):
    proc = ingest_run(cfg)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 1 and lines
    assert all(LINE.match(line) for line in lines), proc.stderr
    assert any(" ERROR failed " in line and "broken.md" in line for line in lines)
    assert any(" INFO changed doc000.md" in line for line in lines)


def test_json_log_is_one_event_a_line(cfg):
    proc = ingest_run(cfg, "--log-format", "json")
    events = [json.loads(line) for line in proc.stderr.splitlines() if line.strip()]
    assert all({"time", "level", "action", "message"} <= set(e) for e in events)
    by_doc = {e["document"]: e for e in events if e["action"] in ("changed", "failed")}
    assert by_doc["doc000.md"]["duration_s"] >= 0 and by_doc["doc000.md"]["chunks"] == 1
    assert by_doc["broken.md"]["level"] == "error" and "NUL bytes" in by_doc["broken.md"]["reason"]
    summary = [e for e in events if e["action"] == "summary"][0]
    assert (summary["changed"], summary["failed"], summary["warnings"]) == (4, 1, 1)


def test_loader_warnings_are_shown_and_counted(cfg):
    proc = ingest_run(cfg)
    assert "WARNING warning legacy.txt: not valid UTF-8" in proc.stderr and "Windows-1252" in proc.stderr
    table = {line.split()[0]: line.split()[-1] for line in proc.stdout.splitlines() if line.split()}
    assert table["warnings"] == "1"


def test_summary_json_lists_counts_failures_and_changes(cfg, tmp_path):
    out = tmp_path / "last-run.json"
    ingest_run(cfg, "--summary-json", str(out))
    first = json.loads(out.read_text())
    assert first["exit_code"] == 1 and (first["changed"], first["failed"]) == (4, 1)
    assert [f["document"] for f in first["failures"]] == ["broken.md"]
    assert {c["document"]: c["action"] for c in first["changes"]} == {
        "doc000.md": "changed",
        "doc001.md": "changed",
        "doc002.md": "changed",
        "legacy.txt": "changed",
    }
    assert first["warning_list"][0]["document"] == "legacy.txt"
    (tmp_path / "docs" / "doc001.md").unlink()
    ingest_run(cfg, "--summary-json", str(out))
    second = json.loads(out.read_text())
    assert second["changes"] == [{"document": "doc001.md", "name": "doc001.md", "action": "deleted", "chunks": 0}]


@pytest.mark.parametrize("fmt", ["text", "pretty", "json"])
def test_terminal_escapes_in_file_names_are_shown_escaped(tmp_path, fmt):
    cfg = workspace(tmp_path, 1, slow=False)
    (tmp_path / "docs" / "evil\x1b]0;owned\x07\x1b[2J.md").write_bytes(b"\x00 binary")
    proc = ingest_run(cfg, "--log-format", fmt)
    assert proc.returncode == 1
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr
    assert "evil" in proc.stderr and ("\\x1b[2J" in proc.stderr or "\\u001b[2J" in proc.stderr)


def test_a_file_name_that_looks_like_markup_is_printed_as_it_is(tmp_path):
    cfg = workspace(tmp_path, 1, slow=False)
    (tmp_path / "docs" / "[bold]notes.md").write_bytes(b"\x00 binary")
    proc = ingest_run(cfg, "--log-format", "pretty")
    assert "[bold]notes.md" in proc.stderr


def test_quiet_keeps_problems_and_the_summary_only(cfg):
    proc = ingest_run(cfg, "--quiet")
    assert "changed doc000.md" not in proc.stderr
    assert "failed" in proc.stderr and "broken.md" in proc.stderr and "warning legacy.txt" in proc.stderr
    assert "run finished" in proc.stderr
