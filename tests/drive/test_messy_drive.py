"""Adversarial review of the Drive source: a messy company Drive, served by the fake Google server
(tests/drive/fake_google/) and read through the real google-api-python-client, real pipeline, real SQLite.

The tests under "bugs found by review" each failed before their fix; their docstrings or names say
what a user saw."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from ingest.runner.pipeline import run
from tests.drive.helpers import MD, PDF, company, drive_config, fetched, md, texts


def config(tmp_path: Path, g, folder: str, workers: int = 1, **drive):
    return drive_config(tmp_path, g, folder, workers, **drive)


def documents(tmp_path: Path) -> dict[str, tuple[str, dict]]:
    """(name, meta) of each document row of the index."""
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        return {i: (n, json.loads(m)) for i, n, m in db.execute("SELECT id, name, meta FROM documents")}


@pytest.fixture
def tree(fake_google):
    g = fake_google
    ids = company(g)
    return g, ids


# ---------------------------------------------------------------------------------- bugs found by review, fixed


def test_adding_an_exclude_glob_removes_what_it_now_excludes(tmp_path, tree):
    g, ids = tree
    assert run(*config(tmp_path, g, ids["top"])).changed == 2
    summary = run(*config(tmp_path, g, ids["top"], exclude=["HR/"]))
    assert summary.deleted == 1 and set(texts(tmp_path)) == {ids["deploy"]}


def test_removing_an_exclude_glob_indexes_what_it_kept_out(tmp_path, tree):
    g, ids = tree
    assert run(*config(tmp_path, g, ids["top"], exclude=["HR/"])).changed == 1
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.changed == 1 and "Twenty days" in texts(tmp_path).get(ids["leave"], "")


def test_raising_max_file_mb_fetches_the_file_that_was_too_large(tmp_path, tree):
    g, ids = tree
    huge = g.add_file("huge.md", ids["hr"], b"# Huge\n\n" + b"word " * 300_000, MD)
    first = run(*config(tmp_path, g, ids["top"], max_file_mb=1))
    assert [f.doc_id for f in first.failures] == [huge] and "max_file_mb" in first.failures[0].error
    again = run(*config(tmp_path, g, ids["top"], max_file_mb=10))
    assert again.ok and huge in texts(tmp_path)


def test_an_unresolvable_google_host_is_a_reported_failure_not_a_crash(tmp_path, tree):
    g, ids = tree
    assert run(*config(tmp_path, g, ids["top"])).ok
    offline = config(
        tmp_path,
        g,
        ids["top"],
        retries=0,
        drive_endpoint="http://drive.invalid/drive/v3/",
        docs_endpoint="http://docs.invalid/",
    )
    summary = run(*offline)  # raises httplib2.error.ServerNotFoundError today
    assert not summary.ok and summary.deleted == 0 and summary.failures[0].retry
    assert "cannot reach Google" in summary.failures[0].error
    assert set(texts(tmp_path)) == {ids["leave"], ids["deploy"]}


def test_an_upload_drive_typed_octet_stream_is_read_by_its_extension(tmp_path, tree):
    g, ids = tree
    notes = g.add_file("notes.md", ids["hr"], md("Notes", "Quarterly offsite in Lisbon."), "application/octet-stream")
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.skipped == 0 and "Lisbon" in texts(tmp_path).get(notes, "")


def test_exclude_by_folder_name_without_a_slash_excludes_its_files(tmp_path, tree):
    g, ids = tree
    archive = g.add_folder("Archive", ids["hr"])
    old = g.add_file("old.md", archive, md("Old", "Superseded."), MD)
    run(*config(tmp_path, g, ids["top"], exclude=["Archive"]))
    assert old not in texts(tmp_path)


# ---------------------------------------------------------------------------------- behaviour that holds


def test_changes_spread_over_several_pages_are_all_read(tmp_path, tree):
    g, ids = tree
    run(*config(tmp_path, g, ids["top"]))
    elsewhere = g.add_folder("Personal")  # a busy Drive: 1005 changes outside the tree come first
    for i in range(1005):
        g.add_file(f"n{i}.md", elsewhere, b"x", MD)
    g.update(ids["leave"], content=md("Leave", "Thirty days of paid leave."))
    before = len(g.requests)
    summary = run(*config(tmp_path, g, ids["top"]))
    pages = [p for _, p in g.requests[before:] if p.startswith("/drive/v3/changes?")]
    assert len(pages) == 2  # pageSize 1000: the edit is on the second page
    assert summary.ok and summary.changed == 1 and summary.deleted == 0
    assert "Thirty days" in texts(tmp_path)[ids["leave"]]


def test_a_token_rejected_on_a_later_page_lists_the_tree_again(tmp_path, tree):
    g, ids = tree
    run(*config(tmp_path, g, ids["top"]))
    elsewhere = g.add_folder("Personal")
    for i in range(1005):
        g.add_file(f"n{i}.md", elsewhere, b"x", MD)
    g.update(ids["leave"], content=md("Leave", "Thirty days of paid leave."))
    g.delete(ids["deploy"])
    g.fail(r"/changes\?pageToken=2", 400, reason="invalid")  # the second page's token refused
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and summary.changed == 1 and summary.deleted == 1
    assert any("expired" in n for n in summary.notes)
    assert set(texts(tmp_path)) == {ids["leave"]}


def test_trashed_and_restored_is_unchanged_while_edited_and_moved_is_both(tmp_path, tree):
    g, ids = tree
    run(*config(tmp_path, g, ids["top"]))
    g.trash(ids["leave"])
    g.untrash(ids["leave"])
    g.update(ids["deploy"], content=md("Deploy", "Run the pipeline once."))
    g.move(ids["deploy"], ids["hr"])
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and summary.deleted == 0 and summary.changed == 1 and summary.unchanged == 1
    assert "once" in texts(tmp_path)[ids["deploy"]]
    assert documents(tmp_path)[ids["deploy"]][1]["drive_path"] == "HR/deploy.md"


def test_a_comments_failure_holds_the_cursor_and_the_next_run_counts_each_change_once(
    tmp_path, tree, corpus, monkeypatch
):
    monkeypatch.setattr(time, "sleep", lambda s: None)
    g, ids = tree
    gdoc = json.loads((corpus / "encoda_gdoc" / "__fixtures__" / "test-fixture-1.gdoc").read_text(encoding="utf-8"))
    travel = g.add_google_doc("Travel", ids["hr"], gdoc)
    run(*config(tmp_path, g, ids["top"]))
    g.add_comment(travel, "Which release?", quoted="here")
    g.update(ids["leave"], content=md("Leave", "Thirty days of paid leave."))
    g.fail(rf"/files/{travel}/comments", 500, times=2)  # the first try and its one retry
    held = run(*config(tmp_path, g, ids["top"], retries=1))
    assert [(f.doc_id, f.retry) for f in held.failures] == [(travel, True)] and held.changed == 1
    after = run(*config(tmp_path, g, ids["top"], retries=1))  # the same changes again
    assert after.ok and after.changed == 1 and after.unchanged == 2  # leave is not counted twice
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        (travel_chunks,) = db.execute("SELECT COUNT(*) FROM chunks WHERE doc_id = ?", (travel,)).fetchone()
    assert after.chunks_written == travel_chunks  # only the document whose fetch failed is written again


def test_a_sheet_too_large_to_export_is_a_verdict_and_the_cursor_moves_on(tmp_path, tree, corpus):
    g, ids = tree
    sheet = g.add_google_sheet("budget", ids["hr"], sorted((corpus / "docling").rglob("*.xlsx"))[0].read_bytes())
    g.fail(r"/export", 403, reason="exportSizeLimitExceeded")
    first = run(*config(tmp_path, g, ids["top"]))
    assert [(f.doc_id, f.retry) for f in first.failures] == [(sheet, False)]
    g.update(ids["leave"], content=md("Leave", "Thirty days of paid leave."))
    before = len(g.requests)
    second = run(*config(tmp_path, g, ids["top"]))
    assert second.changed == 1 and not any(sheet in p for p in fetched(g, before))  # not asked for again


def test_two_workers_process_drive_documents_in_a_process_pool(tmp_path, tree, corpus):
    g, ids = tree
    pdf = g.add_file(
        "q3.pdf", ids["eng"], (corpus / "docling" / "pdf" / "sources" / "multi_page.pdf").read_bytes(), PDF
    )
    gdoc = json.loads((corpus / "encoda_gdoc" / "__fixtures__" / "test-fixture-1.gdoc").read_text(encoding="utf-8"))
    travel = g.add_google_doc("Travel", ids["hr"], gdoc)
    summary = run(*config(tmp_path, g, ids["top"], workers=2))
    assert summary.ok and summary.changed == 4
    assert set(texts(tmp_path)) == {ids["leave"], ids["deploy"], pdf, travel}
    assert "Braeburn" in texts(tmp_path)[travel]
    g.update(ids["leave"], content=md("Leave", "Thirty days of paid leave."))
    again = run(*config(tmp_path, g, ids["top"], workers=2))
    assert again.ok and again.changed == 1 and again.unchanged == 3


def test_folder_id_root_syncs_all_of_my_drive(tmp_path, tree):
    g, ids = tree
    loose = g.add_file("loose.md", None, md("Loose", "At the top of My Drive."), MD)
    assert run(*config(tmp_path, g, "root")).changed == 3
    g.update(loose, content=md("Loose", "Edited at the top."))
    g.move(ids["leave"], ids["top"])
    summary = run(*config(tmp_path, g, "root"))
    assert summary.ok and summary.changed == 2 and summary.notes == ()
    docs = documents(tmp_path)
    assert docs[loose][1]["drive_path"] == "loose.md" and docs[ids["leave"]][1]["drive_path"] == "Company/leave.md"
    assert "Edited" in texts(tmp_path)[loose]


def test_messy_names_each_get_their_own_document(tmp_path, tree):
    g, ids = tree
    first = g.add_file("Notes.md", ids["hr"], md("Notes", "First copy."), MD)
    second = g.add_file("Notes.md", ids["hr"], md("Notes", "Second copy."), MD)
    slash = g.add_file("Q1/Q2 plan.md", ids["hr"], md("Plan", "Slash in the name."), MD)
    dot = g.add_file(".hidden.md", ids["hr"], md("Hidden", "Leading dot."), MD)
    uni = g.add_file("Überblick – 日本語.md", ids["hr"], md("Überblick", "Unicode name."), MD)
    long = g.add_file("x" * 300 + ".md", ids["hr"], md("Long", "Very long name."), MD)
    summary = run(*config(tmp_path, g, ids["top"], exclude=["HR/Q1*"]))  # a slash in a name is no folder
    assert summary.ok and summary.changed == 7
    found = texts(tmp_path)
    assert "First copy" in found[first] and "Second copy" in found[second] and slash not in found
    assert {dot, uni, long} <= set(found)
    assert documents(tmp_path)[uni][1]["drive_path"] == "HR/Überblick – 日本語.md"


def test_the_synced_folder_trashed_or_deleted_deletes_nothing_and_says_so(tmp_path, tree):
    g, ids = tree
    run(*config(tmp_path, g, ids["top"]))
    g.trash(ids["top"])
    trashed = run(*config(tmp_path, g, ids["top"]))
    assert not trashed.ok and trashed.deleted == 0 and "folder_id" in trashed.failures[0].error
    g.untrash(ids["top"])
    assert run(*config(tmp_path, g, ids["top"])).ok
    g.delete(ids["top"])
    gone = run(*config(tmp_path, g, ids["top"]))
    assert not gone.ok and gone.deleted == 0 and "404" in gone.failures[0].error
    assert set(texts(tmp_path)) == {ids["leave"], ids["deploy"]}
