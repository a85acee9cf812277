"""An unreachable source has an exit code of its own (5), apart from "some files failed" (1): a
service treats it as the failure it is, while a bad file stays the file's matter. Each case is a
real `python -m ingest run` against the fake Google server (or a local folder), read by its exit
code, its summary JSON and what the index still holds."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.drive.helpers import MD, company, drive_job_file, md

SOME_FAILED, UNREACHABLE = 1, 5  # README's exit-code table


def _job(tmp_path: Path, g, folder: str, **drive: object) -> Path:
    return drive_job_file(tmp_path, g, folder, **{"retries": 0, **drive})


def _run(config: Path, summary: Path, *more: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "ingest",
            "run",
            str(config),
            "--log-format",
            "text",
            "--summary-json",
            str(summary),
            *more,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _indexed(tmp_path: Path) -> set[str]:
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        return {row[0] for row in db.execute("SELECT id FROM documents")}


@pytest.fixture
def synced(tmp_path, fake_google):
    """Company/{HR/leave.md, Engineering/deploy.md} synced once, cleanly (exit 0)."""
    ids = company(fake_google)
    done = _run(_job(tmp_path, fake_google, ids["top"]), tmp_path / "first.json")
    assert done.returncode == 0, done.stderr
    assert _indexed(tmp_path) == {ids["leave"], ids["deploy"]}
    return fake_google, ids


def test_refused_credentials_exit_5_and_keep_the_index(tmp_path, synced):
    g, ids = synced
    summary = tmp_path / "s.json"
    done = _run(_job(tmp_path, g, ids["top"], token="revoked-token"), summary)
    assert done.returncode == UNREACHABLE, done.stderr
    record = json.loads(summary.read_text())
    assert record["exit_code"] == UNREACHABLE and record["deleted"] == 0
    assert len(record["unreachable"]) == 1 and "refused the credentials" in record["unreachable"][0]
    assert "could not be listed" in done.stderr and "ERROR" in done.stderr
    assert _indexed(tmp_path) == {ids["leave"], ids["deploy"]}


def test_a_google_host_dns_cannot_find_exits_5(tmp_path, synced):
    g, ids = synced
    summary = tmp_path / "s.json"
    offline = _job(
        tmp_path, g, ids["top"], drive_endpoint="http://drive.invalid/drive/v3/", docs_endpoint="http://docs.invalid/"
    )
    done = _run(offline, summary)
    assert done.returncode == UNREACHABLE, done.stderr
    record = json.loads(summary.read_text())
    assert "DNS lookup failed" in record["unreachable"][0] and record["deleted"] == 0
    assert _indexed(tmp_path) == {ids["leave"], ids["deploy"]}


def test_a_folder_drive_will_not_list_exits_5_and_deletes_nothing(tmp_path, synced):
    g, ids = synced
    g.fail(r"/files\?.*" + ids["hr"], 403, reason="insufficientFilePermissions", times=5)
    summary = tmp_path / "s.json"
    done = _run(_job(tmp_path, g, ids["top"]), summary, "--reprocess")  # no cursor: the tree is listed
    assert done.returncode == UNREACHABLE, done.stderr
    record = json.loads(summary.read_text())
    assert len(record["unreachable"]) == 1 and "HR" in record["unreachable"][0] and "403" in record["unreachable"][0]
    assert record["deleted"] == 0 and _indexed(tmp_path) == {ids["leave"], ids["deploy"]}


def test_a_server_error_is_retried_before_the_source_counts_as_unreachable(tmp_path, synced):
    g, ids = synced
    g.fail(r"/changes\?", 503, times=1)  # once: the retry reads the changes feed
    done = _run(_job(tmp_path, g, ids["top"], retries=1), tmp_path / "once.json")
    assert done.returncode == 0, done.stderr
    g.fail(r"/changes\?", 503, times=2)  # the try and its one retry: still down
    done = _run(_job(tmp_path, g, ids["top"], retries=1), tmp_path / "down.json")
    assert done.returncode == UNREACHABLE, done.stderr
    assert _indexed(tmp_path) == {ids["leave"], ids["deploy"]}


def test_a_file_that_fails_stays_exit_1_not_unreachable(tmp_path, synced):
    g, ids = synced
    g.add_file("broken.pdf", ids["hr"], b"%PDF-1.7 not really a PDF", "application/pdf")
    g.add_file("notes.md", ids["hr"], md("Notes", "Bring the budget sheet."), MD)
    summary = tmp_path / "s.json"
    done = _run(_job(tmp_path, g, ids["top"]), summary)
    assert done.returncode == SOME_FAILED, done.stderr
    record = json.loads(summary.read_text())
    assert record["unreachable"] == [] and [f["name"] for f in record["failures"]] == ["HR/broken.pdf"]


def test_a_local_folder_that_does_not_exist_exits_5(tmp_path):
    config = tmp_path / "job.yaml"
    config.write_text(
        f"source: {{local: {{path: {tmp_path / 'not-mounted'}}}}}\nsink: {{sqlite: {tmp_path / 'index.sqlite'}}}\n"
        f"state: {tmp_path / 'state.sqlite'}\n"
    )
    summary = tmp_path / "s.json"
    done = _run(config, summary)
    assert done.returncode == UNREACHABLE, done.stderr
    assert "not-mounted" in done.stderr and "source.local.path" in done.stderr
    assert json.loads(summary.read_text())["exit_code"] == UNREACHABLE
