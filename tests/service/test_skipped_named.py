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

# What no loader reads, by name: (type, the reason the run must give). MIME types by their
# registrations: text/html (RFC 2854), message/rfc822 (RFC 5322); the office types' names vary
# with the system's MIME table, so only their form is fixed.
UNSUPPORTED = {
    "deck.pptx": (".pptx", r"no loader for \.pptx \(.+\)"),
    "page.html": (".html", re.escape("no loader for .html (text/html)")),
    "mail.eml": (".eml", re.escape("no loader for .eml (message/rfc822)")),
    "minutes.odt": (".odt", r"no loader for \.odt \(.+\)"),
}


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(ROOT / "examples" / "paediatric-fever.md", docs)
    (docs / "deck.pptx").write_bytes(b"PK\x03\x04 a presentation")
    (docs / "page.html").write_text("<html><body><h1>Intranet</h1></body></html>\n")
    (docs / "mail.eml").write_text("From: a@example.com\nSubject: leave\n\nTwenty days.\n")
    (docs / "minutes.odt").write_bytes(b"PK\x03\x04 a text document")
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
    assert row.split(None, 1)[1].strip() == "4: .eml 1, .html 1, .odt 1, .pptx 1"
    record = json.loads(summary.read_text())
    assert record["skipped"] == 4 and record["skipped_by_type"] == {".eml": 1, ".html": 1, ".odt": 1, ".pptx": 1}
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
        assert final["skipped"] == 4 and final["skipped_by_type"] == {".eml": 1, ".html": 1, ".odt": 1, ".pptx": 1}
