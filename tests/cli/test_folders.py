"""`chunk`, `stats` and `inspect` take folders: every file a loader reads under one, each named in
the output, and each file no loader reads named as skipped; empty files are a warning naming the
file in every format, in these commands as in a run."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.local_job import ingest
from tests.paths import ROOT

EXAMPLES = ROOT / "examples"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    (docs / "policies").mkdir(parents=True)
    shutil.copy(EXAMPLES / "paediatric-fever.md", docs)
    shutil.copy(EXAMPLES / "incident-review.pdf", docs)
    shutil.copy(EXAMPLES / "travel-policy.docx", docs / "policies")
    (docs / "slides.odp").write_bytes(b"PK\x03\x04 not read")  # no loader: named as skipped
    (docs / ".hidden.md").write_text("# Hidden\n\nLeft out, as a local source leaves it.\n")
    return docs


def _files(docs: Path) -> list[str]:
    """The supported files, in the order the commands read them (name order, folder by folder)."""
    return [str(docs / n) for n in ("incident-review.pdf", "paediatric-fever.md", "policies/travel-policy.docx")]


def test_chunk_reads_every_supported_file_of_a_folder(folder: Path) -> None:
    proc = ingest("chunk", folder)
    assert proc.returncode == 0, proc.stderr
    chunks = [json.loads(line) for line in proc.stdout.splitlines()]
    assert list(dict.fromkeys(c["doc_id"] for c in chunks)) == [str(Path(f).resolve()) for f in _files(folder)]
    assert f"skipped {folder / 'slides.odp'}: no loader for .odp" in proc.stderr
    assert "hidden" not in proc.stderr + proc.stdout.lower()
    # The same chunks as the files given one by one.
    one_by_one = [ingest("chunk", f).stdout for f in _files(folder)]
    assert proc.stdout == "".join(one_by_one)


def test_stats_of_a_folder_measures_and_names_each_file(folder: Path) -> None:
    proc = ingest("stats", folder, "--max-tokens", "300", "--json")
    assert proc.returncode == 0, proc.stderr
    (row,) = [json.loads(line) for line in proc.stdout.splitlines()]
    assert row["files"] == _files(folder)
    assert re.findall(r"^read (.*)$", proc.stderr, re.M) == _files(folder)
    assert f"skipped {folder / 'slides.odp'}" in proc.stderr
    alone = [json.loads(ingest("stats", f, "--max-tokens", "300", "--json").stdout) for f in _files(folder)]
    assert row["sizes"]["n"] == sum(r["sizes"]["n"] for r in alone)
    table = ingest("stats", folder, "--max-tokens", "300")
    assert table.returncode == 0 and table.stdout.splitlines()[1].split()[:3] == ["300", "0", str(row["sizes"]["n"])]


def test_inspect_shows_each_file_of_a_folder_under_its_name(folder: Path) -> None:
    proc = ingest("inspect", folder, "--json")
    assert proc.returncode == 0, proc.stderr
    names = [json.loads(line)["document"]["name"] for line in proc.stdout.splitlines()]
    assert names == ["incident-review.pdf", "paediatric-fever.md", "travel-policy.docx"]
    shown = ingest("inspect", folder, "--changes-only")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    headers = [lines[i + 1] for i, line in enumerate(lines[:-1]) if set(line) == {"─"}]
    assert headers == _files(folder)
    assert "skipped" in shown.stderr and "slides.odp" in shown.stderr
    html = ingest("inspect", folder, "--html", folder.parent / "out.html")
    assert html.returncode == 2 and "give one file, not 3" in html.stderr


def test_a_folder_with_nothing_to_read_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "slides.odp").write_bytes(b"PK")
    proc = ingest("chunk", tmp_path)
    assert proc.returncode == 2 and "no file a loader reads" in proc.stderr and "slides.odp" in proc.stderr


EMPTY = ("md", "txt", "csv", "docx", "pdf", "xlsx", "html", "pptx", "eml", "epub")


def test_an_empty_file_is_a_warning_naming_it_in_every_format(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for ext in EMPTY:
        (docs / f"empty.{ext}").write_bytes(b"")
    (docs / "blank.md").write_bytes(b" \n\n\t\n")
    proc = ingest("chunk", docs)
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    for ext in EMPTY:
        assert f"warning: {docs / f'empty.{ext}'}: is empty (0 bytes): nothing to index" in proc.stderr
    assert f"warning: {docs / 'blank.md'}: holds only whitespace (5 bytes): nothing to index" in proc.stderr
    # A run says the same of each, counts them, and exits 0: an empty file is not a failed one.
    summary = tmp_path / "summary.json"
    run = ingest("run", docs, "--index", tmp_path / "index.sqlite", "--log-format", "text", "--summary-json", summary)
    assert run.returncode == 0, run.stderr
    for ext in EMPTY:
        assert f"INFO changed empty.{ext} (0 chunks" in run.stderr
        assert f"WARNING warning empty.{ext}: is empty (0 bytes)" in run.stderr
    record = json.loads(summary.read_text())
    assert (record["failed"], record["warnings"]) == (0, len(EMPTY) + 1)
