"""`ingest run` over a Google Drive folder: the real google-api-python-client against the fake
Drive + Docs server (tests/drive/fake_google/), real documents from the corpus, real SQLite."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

from ingest.config import parse_config
from ingest.errors import ConfigError
from ingest.runner.pipeline import run
from tests.drive.helpers import PDF, PPTX, drive_config, fetched, handbook
from tests.paths import FIXTURES

MEDIA = r"alt=media"


@pytest.fixture
def corpus_files(corpus) -> dict[str, bytes]:
    return {
        "docx": (corpus / "python_docx" / "blk-paras-and-tables.docx").read_bytes(),
        "pdf": (corpus / "docling" / "pdf" / "sources" / "multi_page.pdf").read_bytes(),
        "xlsx": sorted((corpus / "docling").rglob("*.xlsx"))[0].read_bytes(),
        "gdoc": json.loads(
            (corpus / "encoda_gdoc" / "__fixtures__" / "test-fixture-1.gdoc").read_text(encoding="utf-8")
        ),
    }


@pytest.fixture
def drive(fake_google, corpus_files):
    """The handbook tree (tests/drive/helpers.py handbook) in My Drive, a file outside it and a shortcut."""
    g = fake_google
    ids = handbook(g, None, corpus_files)
    ids["outside"] = g.add_file("elsewhere.md", None, b"# Not ours\n\nOutside the synced folder.\n", "text/markdown")
    ids["shortcut"] = g.add_shortcut("leave shortcut", ids["reports"], ids["leave"])
    return g, ids


def config(tmp_path: Path, g, folder: str, **drive) -> tuple:
    return drive_config(tmp_path, g, folder, **{"exclude": ["Archive/"], **drive})


def indexed(tmp_path: Path) -> dict[str, int]:
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        return dict(db.execute("SELECT doc_id, COUNT(*) FROM chunks GROUP BY doc_id"))


def test_first_run_indexes_the_tree_and_the_second_fetches_nothing(tmp_path, drive):
    g, ids = drive
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok, summary.failures
    docs = indexed(tmp_path)
    assert set(docs) == {ids["leave"], ids["travel"], ids["pdf"], ids["docx"], ids["sheet"]}
    assert summary.changed == 5 and summary.skipped == 0  # the shortcut is not a document; Archive/ excluded
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        travel = db.execute(
            "SELECT heading_path FROM chunks WHERE doc_id = ? AND text LIKE '%Braeburn%'", (ids["travel"],)
        ).fetchone()
        name, uri, meta = db.execute("SELECT name, uri, meta FROM documents WHERE id = ?", (ids["pdf"],)).fetchone()
    assert "Nested" in travel[0]  # read through the Docs API: heading styles kept
    assert name == "q3.pdf" and ids["pdf"] in uri and json.loads(meta)["drive_path"] == "Reports/q3.pdf"
    before = len(g.requests)
    again = run(*config(tmp_path, g, ids["top"]))
    assert again.ok and again.changed == 0 and again.unchanged == 5 and again.deleted == 0
    assert fetched(g, before) == []  # the changes feed said nothing changed: nothing downloaded
    assert indexed(tmp_path) == docs


def test_changes_feed_edits_renames_moves_trash_and_deletions(tmp_path, drive):
    g, ids = drive
    run(*config(tmp_path, g, ids["top"]))
    chunks_before = indexed(tmp_path)
    g.update(ids["leave"], content=b"# Leave\n\nThirty days of paid leave a year.\n")
    g.update(ids["docx"], name="plan-2027.docx")  # metadata only
    g.trash(ids["pdf"])
    g.delete(ids["sheet"])
    g.move(ids["outside"], ids["policies"])  # moved into the tree
    new = g.add_file("new.md", ids["reports"], b"# New\n\nA brand new page.\n", "text/markdown")
    g.add_file("ignored.md", ids["archive"], b"# Ignored\n\nExcluded folder.\n", "text/markdown")
    before = len(g.requests)
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok, summary.failures
    assert summary.deleted == 2 and summary.changed == 4  # leave, plan (renamed), outside, new
    docs = indexed(tmp_path)
    assert set(docs) == {ids["leave"], ids["travel"], ids["docx"], ids["outside"], new}
    assert docs[ids["travel"]] == chunks_before[ids["travel"]]
    downloads = fetched(g, before)
    assert all(ids["travel"] not in p for p in downloads)  # untouched: not fetched
    assert any(ids["docx"] in p for p in downloads)  # renamed: the new name roots its heading paths
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        (name,) = db.execute("SELECT name FROM documents WHERE id = ?", (ids["docx"],)).fetchone()
    assert name == "plan-2027.docx"
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        text = " ".join(t for (t,) in db.execute("SELECT text FROM chunks WHERE doc_id = ?", (ids["leave"],)))
    assert "Thirty days" in text and "Twenty days" not in text
    g.move(ids["leave"], g.root_id)  # moved out of the tree
    assert run(*config(tmp_path, g, ids["top"])).deleted == 1
    assert ids["leave"] not in indexed(tmp_path)


def test_a_folder_change_lists_the_tree_again(tmp_path, drive):
    g, ids = drive
    run(*config(tmp_path, g, ids["top"]))
    g.trash(ids["reports"])  # Drive records one change, for the folder only
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and summary.deleted == 3
    assert set(indexed(tmp_path)) == {ids["leave"], ids["travel"]}
    g.untrash(ids["reports"])
    g.update(ids["archive"], name="Old stuff")  # renamed: no longer excluded by "Archive/"
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and summary.changed == 4  # Reports' three back, plus old.md
    assert ids["old"] in indexed(tmp_path)
    extra = g.add_folder("Extra")  # outside the tree, with a file in it
    note = g.add_file("note.md", extra, b"# Note\n\nMoved in with its folder.\n", "text/markdown")
    assert run(*config(tmp_path, g, ids["top"])).changed == 0
    g.move(extra, ids["policies"])  # one change, for the folder: its file comes with it
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and summary.changed == 1 and note in indexed(tmp_path)


def test_expired_cursor_falls_back_to_a_full_listing_and_says_so(tmp_path, drive):
    g, ids = drive
    run(*config(tmp_path, g, ids["top"]))
    g.delete(ids["leave"])
    g.expire_page_tokens()
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and summary.deleted == 1 and summary.unchanged == 4
    assert any("expired" in n for n in summary.notes)
    g.update(ids["docx"], name="renamed.docx")
    assert run(*config(tmp_path, g, ids["top"])).notes == ()  # the new cursor works


def test_rate_limits_5xx_and_dropped_connections_are_retried(tmp_path, drive, monkeypatch):
    g, ids = drive
    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)  # the client's back-off timer, recorded not slept
    g.fail(r"/files\?", 429)
    g.fail(r"/files/" + ids["pdf"] + r"\?.*alt=media", 403, reason="userRateLimitExceeded")
    g.fail(r"/documents/", 503, times=2)
    g.fail(r"/files/" + ids["docx"] + r"\?.*alt=media", drop=True)
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok, summary.failures
    assert len(indexed(tmp_path)) == 5
    assert len(waits) >= 4  # a back-off per refused request (httplib2 itself re-sends after a drop)
    docx_gets = [p for _, p in g.requests if ids["docx"] in p and MEDIA in p]
    assert len(docx_gets) >= 2  # the dropped download was sent again


def test_a_file_that_cannot_be_fetched_is_retried_and_holds_the_cursor(tmp_path, drive, monkeypatch):
    g, ids = drive
    monkeypatch.setattr(time, "sleep", lambda s: None)
    run(*config(tmp_path, g, ids["top"]))
    g.update(ids["leave"], content=b"# Leave\n\nForty days.\n")
    g.update(ids["docx"], name="plan-v2.docx")
    g.fail(r"/files/" + ids["leave"] + r"\?.*alt=media", 500, times=3)  # the first try and both retries
    summary = run(*config(tmp_path, g, ids["top"], retries=2))
    assert not summary.ok and [f.doc_id for f in summary.failures] == [ids["leave"]]
    assert summary.failures[0].retry and "500" in summary.failures[0].error
    assert ids["leave"] in indexed(tmp_path)  # the old chunks stay until the new ones are in
    summary = run(*config(tmp_path, g, ids["top"]))  # the same changes again: the cursor held
    assert summary.ok and summary.changed == 1
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        text = " ".join(t for (t,) in db.execute("SELECT text FROM chunks WHERE doc_id = ?", (ids["leave"],)))
    assert "Forty days" in text


def test_bad_file_is_named_and_the_run_goes_on(tmp_path, drive):
    g, ids = drive
    broken = g.add_file("broken.pdf", ids["reports"], b"%PDF-1.7\n not really a pdf", PDF)
    huge = g.add_file("huge.md", ids["reports"], b"# Huge\n\n" + b"word " * 300_000, "text/markdown")
    summary = run(*config(tmp_path, g, ids["top"], max_file_mb=1))
    assert {f.doc_id for f in summary.failures} == {broken, huge}
    errors = {f.doc_id: f.error for f in summary.failures}
    assert errors[broken].startswith("Reports/broken.pdf: ") and "not a readable PDF" in errors[broken]
    assert errors[huge].startswith("Reports/huge.md: ") and "max_file_mb" in errors[huge]
    assert not any(f.retry for f in summary.failures)  # verdicts on these versions, not fetch failures
    assert summary.changed == 5 and len(indexed(tmp_path)) == 5


def test_unlistable_folder_deletes_nothing(tmp_path, drive, monkeypatch):
    g, ids = drive
    monkeypatch.setattr(time, "sleep", lambda s: None)
    run(*config(tmp_path, g, ids["top"]))
    g.expire_page_tokens()  # force a full listing
    g.fail(r"/files\?.*" + ids["reports"], 500, times=20)
    summary = run(*config(tmp_path, g, ids["top"], retries=1))
    assert not summary.ok and summary.deleted == 0
    assert len(indexed(tmp_path)) == 5


def test_config_errors_name_the_key(tmp_path, fake_google):
    with pytest.raises(ConfigError, match="credentials file"):
        parse_config({"source": {"drive": {"folder_id": "x", "credentials": str(tmp_path / "missing.json")}}})
    key = tmp_path / "key.json"
    key.write_text(json.dumps({"type": "external_account"}))
    with pytest.raises(ConfigError, match="token, not both"):
        parse_config({"source": {"drive": {"folder_id": "x", "credentials": str(key), "token": "t"}}})
    with pytest.raises(ConfigError, match="exactly one source"):
        parse_config({"source": {}})
    cfg = parse_config(
        {
            "source": {"drive": {"folder_id": "x", "credentials": str(key)}},
            "state": str(tmp_path / "s.sqlite"),
            "sink": {"sqlite": str(tmp_path / "i.sqlite")},
        }
    )
    with pytest.raises(ConfigError, match="service_account or authorized_user"):
        run(*cfg)


def test_rejected_credentials_fail_the_run_and_delete_nothing(tmp_path, drive):
    g, ids = drive
    run(*config(tmp_path, g, ids["top"]))
    g.expire_page_tokens()  # the next run must list everything, and cannot
    cfg, steps, options = config(tmp_path, g, ids["top"])
    bad = cfg.model_copy(
        update={
            "source": cfg.source.model_copy(update={"drive": cfg.source.drive.model_copy(update={"token": "revoked"})})
        }
    )
    summary = run(bad, steps, options)
    assert not summary.ok and summary.deleted == 0
    assert "refused the credentials" in summary.failures[0].error
    assert len(indexed(tmp_path)) == 5


def test_google_doc_comments_reach_the_index_and_their_changes_re_read_it(tmp_path, drive):
    g, ids = drive
    first = g.add_comment(
        ids["travel"], "Link to the tagged release?", quoted="here", author="Grace Hopper", replies=["Done."]
    )
    g.add_comment(ids["travel"], "Page-level remark, quoting nothing")
    cfg = config(tmp_path, g, ids["top"])
    kept = parse_config(
        {**json.loads(cfg[0].model_dump_json()), "cleaners": [{"comments": {"keep_as_metadata": True}}]}
    )
    assert run(*kept).ok
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        text, meta = db.execute(
            "SELECT text, meta FROM chunks WHERE doc_id = ? AND text LIKE '%take care%'", (ids["travel"],)
        ).fetchone()
        doc_meta = json.loads(db.execute("SELECT meta FROM documents WHERE id = ?", (ids["travel"],)).fetchone()[0])
    entries = {e["text"]: e for e in json.loads(meta)["comments"]}
    assert entries["Link to the tagged release?"]["anchor"] == "here" and entries["Done."]["parent"] == first
    assert "tagged release" not in text  # a comment is about the text, not in it
    assert len(doc_meta["comments"]) == 2  # the unanchored one is kept with the document
    g.resolve_comment(ids["travel"], first)  # bumps the file's version, not its modifiedTime
    before = len(g.requests)
    summary = run(*kept)
    assert summary.ok and summary.changed == 1
    assert any(ids["travel"] in p and "comments" in p for _, p in g.requests[before:])


def test_google_slides_are_read_as_their_pptx_export(tmp_path, drive, corpus):
    g, ids = drive
    deck = g.add_google_slides(
        "Quarterly review",
        ids["reports"],
        (corpus / "formats" / "unstructured" / "example-docs" / "sample-presentation.pptx").read_bytes(),
    )
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and summary.skipped == 0 and deck in indexed(tmp_path)
    exports = [p for _, p in g.requests if "/export?" in p and deck in p]
    assert exports and all("presentationml.presentation" in unquote(p) for p in exports)
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        rows = db.execute(
            "SELECT heading_path, page_start, url FROM chunks WHERE doc_id = ? ORDER BY chunk_index", (deck,)
        ).fetchall()
        name, mime = db.execute("SELECT name, mime_type FROM documents WHERE id = ?", (deck,)).fetchone()
    assert name == "Quarterly review" and mime == PPTX
    # Each slide is a section with its slide number as page, and opens at its slide: the ids are
    # those the export wrote on each slide's notes page ("p:notes", "g285fcc35375_0_0:notes", ...).
    base = f"https://docs.google.com/presentation/d/{deck}/edit#slide=id."
    slides = {(json.loads(path)[1], page, url) for path, page, url in rows}
    assert slides == {
        ("Title Slide", 1, base + "p"),
        ("This is the first content slide", 2, base + "g285fcc35375_0_0"),
        ("This is the second content slide", 3, base + "g285fcc35375_0_5"),
        ("This is kinda backwards, huh?", 4, base + "g285fcc35375_0_11"),
    }


def test_a_slides_export_without_slide_ids_links_to_the_presentation(tmp_path, drive):
    g, ids = drive
    # Made with python-pptx: no notes page names a slide id, so no chunk can open at its slide.
    deck = g.add_google_slides("Review", ids["reports"], (FIXTURES / "pptx" / "review.pptx").read_bytes())
    assert run(*config(tmp_path, g, ids["top"])).ok
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        rows = db.execute(
            "SELECT page_start, url FROM chunks WHERE doc_id = ? AND kinds != '[\"card\"]'", (deck,)
        ).fetchall()
        every_url = {url for (url,) in db.execute("SELECT url FROM chunks WHERE doc_id = ?", (deck,))}
    assert {page for page, _ in rows} == {1, 2, 3, 4}
    assert every_url == {f"https://docs.google.com/presentation/d/{deck}/edit"}  # the card's too


def test_a_file_drive_refuses_to_hand_over_does_not_hold_the_cursor(tmp_path, drive, monkeypatch):
    g, ids = drive
    monkeypatch.setattr(time, "sleep", lambda s: None)
    run(*config(tmp_path, g, ids["top"]))
    g.update(ids["leave"], content=b"# Leave\n\nRestricted now.\n")
    g.fail(r"/files/" + ids["leave"] + r"\?.*alt=media", 403, reason="cannotDownloadFile", times=5)
    summary = run(*config(tmp_path, g, ids["top"]))
    (failure,) = summary.failures
    assert failure.doc_id == ids["leave"] and not failure.retry and "403" in failure.error
    before = len(g.requests)
    again = run(*config(tmp_path, g, ids["top"]))  # the cursor moved on: nothing is fetched again
    assert fetched(g, before) == [] and [f.doc_id for f in again.failures] == [ids["leave"]]


def test_a_new_folder_is_listed_on_its_own_not_the_whole_tree(tmp_path, drive):
    g, ids = drive
    run(*config(tmp_path, g, ids["top"]))
    projects = g.add_folder("Projects", ids["top"])
    nested = g.add_folder("2027", projects)
    plan = g.add_file("plan.md", nested, b"# Plan\n\nShip the thing.\n", "text/markdown")
    skipped = g.add_folder("Archive", projects)  # excluded by "Archive/" wherever it is
    g.add_file("old.md", skipped, b"# Old\n\nStale.\n", "text/markdown")
    outside = g.add_folder("Elsewhere")  # not under the tree
    g.add_file("x.md", outside, b"# X\n\nNot ours.\n", "text/markdown")
    before = len(g.requests)
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and summary.changed == 1 and plan in indexed(tmp_path)
    listed = [p for _, p in g.requests[before:] if "/files?" in p and "parents" in p]
    assert listed and not any(ids["top"] in p or ids["reports"] in p or skipped in p for p in listed)
    g.update(plan, content=b"# Plan\n\nShip it twice.\n")  # the new folder is part of the tree now
    assert run(*config(tmp_path, g, ids["top"])).changed == 1


# ---------------------------------------------------------------- shared drives


@pytest.fixture
def shared(fake_google, corpus_files):
    """Handbook/{Policies/{leave.md, Travel (Google Doc)}, Reports/{q3.pdf, plan.docx, budget (Google
    Sheet)}, Archive/old.md} in the shared drive "Company", and a busy My Drive beside it."""
    g = fake_google
    ids = {"team": g.add_shared_drive("Company")}
    ids.update(handbook(g, ids["team"], corpus_files))
    ids["mine"] = g.add_folder("Handbook")  # the same name in My Drive: not ours
    ids["personal"] = g.add_file("leave.md", ids["mine"], b"# Leave\n\nMy own notes.\n", "text/markdown")
    return g, ids


def test_a_folder_in_a_shared_drive_is_found_and_followed_through_the_drives_change_log(tmp_path, shared):
    g, ids = shared
    summary = run(*config(tmp_path, g, ids["top"]))  # no shared_drive_id: the source finds the drive
    assert summary.ok, summary.failures
    assert set(indexed(tmp_path)) == {ids["leave"], ids["travel"], ids["pdf"], ids["docx"], ids["sheet"]}
    assert any("/changes/startPageToken?" in p and f"driveId={ids['team']}" in p for _, p in g.requests)

    g.update(ids["leave"], content=b"# Leave\n\nThirty days of paid leave a year.\n")
    new = g.add_file("remote.md", ids["policies"], b"# Remote\n\nWork from anywhere.\n", "text/markdown")
    g.trash(ids["pdf"])
    g.delete(ids["sheet"])
    projects = g.add_folder("Projects", ids["top"])  # a new folder, listed on its own
    plan = g.add_file("roadmap.md", projects, b"# Roadmap\n\nShip it.\n", "text/markdown")
    g.update(ids["personal"], content=b"# Leave\n\nChanged in My Drive.\n")  # My Drive: not ours
    g.add_file("notes.md", ids["mine"], b"# Notes\n\nMine.\n", "text/markdown")
    before = len(g.requests)
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok, summary.failures
    assert summary.notes == () and summary.changed == 3 and summary.deleted == 2  # leave, remote, roadmap
    assert set(indexed(tmp_path)) == {ids["leave"], ids["travel"], ids["docx"], new, plan}
    read = [p for _, p in g.requests[before:] if "/changes?" in p]
    assert read and all(f"driveId={ids['team']}" in p for p in read)  # the drive's own log, not the user's
    assert not any(ids["top"] in p or ids["reports"] in p for _, p in g.requests[before:] if "/files?" in p)
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        text = " ".join(t for (t,) in db.execute("SELECT text FROM chunks WHERE doc_id = ?", (ids["leave"],)))
        (path,) = db.execute("SELECT meta FROM documents WHERE id = ?", (plan,)).fetchone()
    assert "Thirty days" in text and "Twenty days" not in text
    assert json.loads(path)["drive_path"] == "Projects/roadmap.md"

    g.add_file("later.md", ids["mine"], b"# Later\n\nMy Drive again.\n", "text/markdown")  # only My Drive moves
    quiet = run(*config(tmp_path, g, ids["top"]))
    assert quiet.ok and quiet.changed == 0 and quiet.deleted == 0 and quiet.unchanged == 5

    g.update(ids["docx"], name="plan-2027.docx")
    g.expire_page_tokens()  # every log's tokens: the whole folder is listed again, in the shared drive
    summary = run(*config(tmp_path, g, ids["top"]))
    assert summary.ok and any("expired" in n for n in summary.notes) and summary.changed == 1
    assert set(indexed(tmp_path)) == {ids["leave"], ids["travel"], ids["docx"], new, plan}


def test_a_shared_drive_named_in_the_config_and_a_whole_drive_synced(tmp_path, shared):
    g, ids = shared
    cfg = config(tmp_path, g, ids["top"], shared_drive_id=ids["team"])
    assert run(*cfg).ok and len(indexed(tmp_path)) == 5
    g.update(ids["leave"], content=b"# Leave\n\nForty days.\n")
    g.trash(ids["travel"])
    summary = run(*cfg)
    assert summary.ok and summary.changed == 1 and summary.deleted == 1

    whole = tmp_path / "whole"  # the drive's root folder as the synced folder (its id is the drive's)
    whole.mkdir()
    top_level = g.add_file("welcome.md", ids["team"], b"# Welcome\n\nStart here.\n", "text/markdown")
    summary = run(*config(whole, g, ids["team"]))
    assert summary.ok and set(indexed(whole)) == {ids["leave"], ids["pdf"], ids["docx"], ids["sheet"], top_level}
    g.update(top_level, content=b"# Welcome\n\nStart over here.\n")
    assert run(*config(whole, g, ids["team"])).changed == 1
