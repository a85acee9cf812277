"""Readers: each Drive file's permissions recorded with its document, kept in step on incremental
runs, and `search --as` showing a person only what they could open. Real client against the fake
server (permissions in listings, permissions.list for shared drives), real pipeline and SQLite."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner

from ingest.cli.main import cli
from ingest.runner.pipeline import run
from ingest.search.bm25 import principals, search
from tests.drive.helpers import MD, drive_config, md
from tests.local_job import local_config


def readers(tmp_path) -> dict[str, set[str]]:
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        out: dict[str, set[str]] = {}
        for doc_id, reader in db.execute("SELECT doc_id, reader FROM readers"):
            out.setdefault(doc_id, set()).add(reader)
        return out


def visible(tmp_path, query: str, email: str, groups: tuple[str, ...] = ()) -> set[str]:
    return {h.chunk.doc_id for h in search(tmp_path / "index.sqlite", query, k=50, readers=principals(email, groups))}


@pytest.fixture
def shared(fake_google):
    g = fake_google
    ids = {"top": g.add_folder("Company")}
    ids["salaries"] = g.add_file("salaries.md", ids["top"], md("Salaries", "Policy: pay bands by level."), MD)
    ids["handbook"] = g.add_file("handbook.md", ids["top"], md("Handbook", "Policy: work from anywhere."), MD)
    ids["roadmap"] = g.add_file("roadmap.md", ids["top"], md("Roadmap", "Policy: ship in May."), MD)
    ids["launch"] = g.add_file("launch.md", ids["top"], md("Launch", "Policy: press embargo."), MD)
    g.share(ids["salaries"], "alice@example.com")
    g.share(ids["handbook"], type="domain", domain="example.com")
    g.share(ids["roadmap"], "eng@example.com", type="group", role="writer")
    g.share(ids["launch"], type="anyone")
    return g, ids


def test_readers_are_recorded_and_search_as_a_person_shows_what_they_may_open(tmp_path, shared):
    g, ids = shared
    assert run(*drive_config(tmp_path, g, ids["top"])).ok
    assert readers(tmp_path) == {
        ids["salaries"]: {"user:me@example.com", "user:alice@example.com"},
        ids["handbook"]: {"user:me@example.com", "domain:example.com"},
        ids["roadmap"]: {"user:me@example.com", "group:eng@example.com"},
        ids["launch"]: {"user:me@example.com", "anyone"},
    }
    everything = set(ids.values()) - {ids["top"]}
    assert {h.chunk.doc_id for h in search(tmp_path / "index.sqlite", "policy", k=50)} == everything  # no filter
    assert visible(tmp_path, "policy", "alice@example.com") == {ids["salaries"], ids["handbook"], ids["launch"]}
    assert visible(tmp_path, "policy", "Bob@Example.com", ("eng@example.com",)) == {
        ids["handbook"],
        ids["roadmap"],
        ids["launch"],
    }
    assert visible(tmp_path, "policy", "eve@elsewhere.org") == {ids["launch"]}
    assert visible(tmp_path, "policy", "me@example.com") == everything


def test_a_file_unshared_between_runs_disappears_from_that_persons_results(tmp_path, shared):
    g, ids = shared
    config = drive_config(tmp_path, g, ids["top"])
    assert run(*config).ok
    assert ids["salaries"] in visible(tmp_path, "pay bands", "alice@example.com")
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        before = db.execute("SELECT id, text FROM chunks WHERE doc_id = ?", (ids["salaries"],)).fetchall()
    g.unshare(ids["salaries"], "alice@example.com")
    g.share(ids["roadmap"], "alice@example.com")  # and shared with her another way
    summary = run(*config)
    assert summary.ok and summary.notes == ()
    assert visible(tmp_path, "pay bands", "alice@example.com") == set()
    assert ids["roadmap"] in visible(tmp_path, "ship", "alice@example.com")
    assert readers(tmp_path)[ids["salaries"]] == {"user:me@example.com"}
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        after = db.execute("SELECT id, text FROM chunks WHERE doc_id = ?", (ids["salaries"],)).fetchall()
    assert after == before  # the same chunks, under new readers


def test_a_folder_shared_later_gives_its_files_that_reader(tmp_path, shared):
    g, ids = shared
    config = drive_config(tmp_path, g, ids["top"])
    assert run(*config).ok
    g.share(ids["top"], "carol@partner.org")  # Drive records a change for the folder only
    summary = run(*config)
    assert summary.ok
    assert visible(tmp_path, "policy", "carol@partner.org") == set(ids.values()) - {ids["top"]}


def test_shared_drive_readers_come_from_permissions_list_with_its_members(tmp_path, fake_google):
    g = fake_google
    drive = g.add_shared_drive("Finance")
    g.share(drive, "finance-team@example.com", type="group", role="organizer")  # the drive's members
    budget = g.add_file("budget.md", drive, md("Budget", "Ten million."), MD)
    g.share(budget, "auditor@example.com")
    assert "permissions" not in g.file(budget)  # Drive does not list them for shared drive items
    assert run(*drive_config(tmp_path, g, drive)).ok
    assert readers(tmp_path)[budget] == {"group:finance-team@example.com", "user:auditor@example.com"}
    assert any(f"/files/{budget}/permissions" in p for _, p in g.requests)
    assert visible(tmp_path, "million", "x@example.com", ("finance-team@example.com",)) == {budget}
    assert visible(tmp_path, "million", "x@example.com") == set()


def test_a_file_whose_permissions_cannot_be_read_is_shown_to_no_one_filtered(tmp_path, fake_google):
    g = fake_google
    drive = g.add_shared_drive("Legal")
    memo = g.add_file("memo.md", drive, md("Memo", "Settlement terms."), MD)
    g.fail(rf"/files/{memo}/permissions", 403, reason="insufficientFilePermissions")
    assert run(*drive_config(tmp_path, g, drive)).ok
    assert readers(tmp_path) == {memo: {""}}
    assert visible(tmp_path, "settlement", "me@example.com") == set()
    assert {h.chunk.doc_id for h in search(tmp_path / "index.sqlite", "settlement")} == {memo}


def test_local_files_have_no_readers_and_search_as_shows_them(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nLocal policy text.\n")
    cfg = local_config(tmp_path / "docs", tmp_path)
    assert run(*cfg).ok
    assert readers(tmp_path) == {}
    assert visible(tmp_path, "policy", "anyone@example.com") == {"a.md"}


def test_search_as_on_the_command_line(tmp_path, shared):
    g, ids = shared
    assert run(*drive_config(tmp_path, g, ids["top"])).ok
    index = str(tmp_path / "index.sqlite")
    out = CliRunner().invoke(
        cli,
        [
            "search",
            "policy",
            "--index",
            index,
            "-k",
            "10",
            "--json",
            "--as",
            "bob@elsewhere.org",
            "--groups",
            "eng@example.com",
        ],
    )
    assert out.exit_code == 0, out.output
    assert {json.loads(line)["chunk"]["doc_id"] for line in out.output.splitlines()} == {ids["roadmap"], ids["launch"]}
    bad = CliRunner().invoke(cli, ["search", "policy", "--index", index, "--groups", "eng@example.com"])
    assert bad.exit_code == 2 and "--as" in bad.output


def test_a_shared_drive_file_unshared_between_runs_disappears_for_that_person(tmp_path, fake_google):
    g = fake_google
    drive = g.add_shared_drive("Finance")
    budget = g.add_file("budget.md", drive, md("Budget", "Ten million."), MD)
    g.share(budget, "auditor@example.com")
    config = drive_config(tmp_path, g, drive)
    assert run(*config).ok and visible(tmp_path, "million", "auditor@example.com") == {budget}
    g.unshare(budget, "auditor@example.com")  # the drive's own change log reports it
    summary = run(*config)
    assert summary.ok and summary.changed == 1
    assert visible(tmp_path, "million", "auditor@example.com") == set()


def test_a_file_unshared_in_the_same_change_that_makes_it_fail_is_withheld(tmp_path, fake_google):
    g = fake_google
    top = g.add_folder("Company")
    salaries = g.add_file("salaries.md", top, md("Salaries", "Policy: pay bands by level."), MD)
    g.share(salaries, "alice@example.com")
    cfg = drive_config(tmp_path, g, top, max_file_mb=1)
    assert run(*cfg).ok
    assert visible(tmp_path, "pay bands", "alice@example.com") == {salaries}
    g.unshare(salaries, "alice@example.com")  # alice loses access, and the file grows past the limit
    g.update(salaries, content=md("Salaries", "Policy: pay bands by level. " + "x " * 800_000))
    assert run(*cfg).failed == 1
    assert visible(tmp_path, "pay bands", "alice@example.com") == set()
    assert {h.chunk.doc_id for h in search(tmp_path / "index.sqlite", "pay bands")} == {salaries}  # kept for admins
