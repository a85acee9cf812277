"""Every skipped file is named with its reason in the log, the JSON log and the summary JSON, and
counted by type in the terminal summary (issue #25): a folder of mixed files, through a real
`python -m ingest run`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.service.helpers import ingest_run

# What no loader reads, by name: (type, the reason the run must give). A .zip is application/zip
# (its IANA registration); the others' names vary with the system's MIME table (Outlook's .msg
# has none), so only the reason's form is fixed for them.
UNSUPPORTED = {
    "slides.odp": (".odp", r"no loader for \.odp \(.+\)"),
    "memo.rtf": (".rtf", r"no loader for \.rtf \(.+\)"),
    "bundle.zip": (".zip", re.escape("no loader for .zip (application/zip)")),
    "mail.msg": (".msg", r"no loader for \.msg \(.+\)"),
}
BY_TYPE = {".msg": 1, ".odp": 1, ".rtf": 1, ".zip": 1}


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(ROOT / "examples" / "paediatric-fever.md", docs)
    (docs / "slides.odp").write_bytes(b"PK\x03\x04 a presentation")
    (docs / "memo.rtf").write_text("{\\rtf1\\ansi Twenty days of leave.}\n")
    (docs / "bundle.zip").write_bytes(b"PK\x05\x06" + bytes(18))  # an empty archive
    (docs / "mail.msg").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1 an Outlook message")
    config = tmp_path / "job.yaml"
    config.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'index.sqlite'}}}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n"
    )
    return config


def _check_reason(name: str, reason: str) -> None:
    assert re.fullmatch(UNSUPPORTED[name][1], reason), (name, reason)


def test_the_text_log_the_summary_json_and_the_terminal_name_each_skip(mixed, tmp_path):
    summary = tmp_path / "summary.json"
    done = ingest_run(mixed, "--log-format", "text", "--summary-json", str(summary))
    assert done.returncode == 0, done.stderr
    lines = {line.split(" skipped ", 1)[1] for line in done.stderr.splitlines() if " INFO skipped " in line}
    assert {line.split(": ", 1)[0] for line in lines} == set(UNSUPPORTED)
    for line in lines:
        name, reason = line.split(": ", 1)
        _check_reason(name, reason)
    # The terminal summary counts them by type (stdout, in every log format).
    row = next(line for line in done.stdout.splitlines() if line.strip().startswith("skipped"))
    assert row.split(None, 1)[1].strip() == "4: .msg 1, .odp 1, .rtf 1, .zip 1"
    record = json.loads(summary.read_text())
    assert record["skipped"] == 4 and record["skipped_by_type"] == BY_TYPE
    listed = {entry["name"]: entry for entry in record["skipped_list"]}
    assert set(listed) == set(UNSUPPORTED)
    for name, entry in listed.items():
        assert entry["document"] == name and entry["type"] == UNSUPPORTED[name][0]
        _check_reason(name, entry["reason"])


def test_the_json_log_names_each_skip_every_run(mixed, tmp_path):
    for _ in range(2):  # the second run changes nothing, and still says what it does not read
        done = ingest_run(mixed, "--log-format", "json")
        assert done.returncode == 0, done.stderr
        events = [json.loads(line) for line in done.stderr.splitlines()]
        skipped = {e["name"]: e for e in events if e["action"] == "skipped"}
        assert set(skipped) == set(UNSUPPORTED)
        for name, event in skipped.items():
            assert event["level"] == "info" and event["document"] == name and event["type"] == UNSUPPORTED[name][0]
            _check_reason(name, event["reason"])
        (final,) = [e for e in events if e["action"] == "summary"]
        assert final["skipped"] == 4 and final["skipped_by_type"] == BY_TYPE
