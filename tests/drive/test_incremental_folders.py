"""Drive's incremental sync when a folder is created in or moved into the tree: only that folder is
listed, and what is inside it (nested folders, files moved in, renamed into an exclude glob) follows.
The fake Google server (tests/drive/fake_google/), the real client and the real pipeline; the tests
of the bugs a review found failed before their fixes."""

from __future__ import annotations

import urllib.parse

import pytest

from tests.drive.helpers import MD, company, drive_paths, drive_sync, md, texts


def listed_folders(g, since: int) -> list[str]:
    """The folder ids whose children were listed (files.list with `'<id>' in parents`) since `since`."""
    out = []
    for _, target in g.requests[since:]:
        if "/files?" not in target:
            continue
        q = urllib.parse.parse_qs(urllib.parse.urlsplit(target).query).get("q", [""])[0]
        if " in parents" in q:
            out.append(q.split("'")[1])
    return out


@pytest.fixture
def tree(fake_google):
    g = fake_google
    ids = company(g)
    ids["archive"] = g.add_folder("Archive", ids["top"])
    ids["outside"] = g.add_folder("Elsewhere")
    ids["old"] = g.add_file("old.md", ids["archive"], md("Old", "Superseded."), MD)
    return g, ids


def first_sync(tmp_path, tree):
    g, ids = tree
    summary, _ = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and set(drive_paths(tmp_path)) == {ids["leave"], ids["deploy"]}
    return g, ids


# -- Drive: a folder created in or moved into the tree ----------------------------------------------


def test_new_folder_with_a_file_moved_in_from_the_tree_lists_only_that_folder_and_follows_it(tmp_path, tree):
    g, ids = first_sync(tmp_path, tree)
    new = g.add_folder("Policies", ids["top"])
    g.move(ids["leave"], new)
    fresh = g.add_file("travel.md", new, md("Travel", "Book trains, not planes."), MD)
    before = len(g.requests)
    summary, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok, summary.failures
    assert listed_folders(g, before) == [new]  # not the whole tree
    assert drive_paths(tmp_path) == {
        ids["leave"]: "Policies/leave.md",
        fresh: "Policies/travel.md",
        ids["deploy"]: "Engineering/deploy.md",
    }
    assert results[ids["leave"]].status == "changed" and results[ids["deploy"]].status == "unchanged"
    # the cursor knows the new folder: an edit in it is seen, trashing it deletes what it holds
    g.update(fresh, content=md("Travel", "Trains only, second class."))
    summary, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert results[fresh].status == "changed" and "second class" in texts(tmp_path)[fresh]
    g.trash(new)
    summary, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and set(drive_paths(tmp_path)) == {ids["deploy"]}
    assert results[ids["leave"]].status == results[fresh].status == "deleted"


def test_new_folder_inside_a_new_folder_whose_change_comes_later(tmp_path, tree):
    g, ids = first_sync(tmp_path, tree)
    outer = g.add_folder("Draft", ids["top"])
    inner = g.add_folder("Q3", outer)
    doc = g.add_file("plan.md", inner, md("Plan", "Hire two engineers."), MD)
    g.update(outer, name="Plans")  # the outer folder's latest change now follows the inner one's
    before = len(g.requests)
    summary, _ = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok, summary.failures
    assert drive_paths(tmp_path)[doc] == "Plans/Q3/plan.md"
    assert sorted(listed_folders(g, before)) == sorted([outer, inner])  # each listed once
    g.update(doc, content=md("Plan", "Hire three engineers."))
    drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert "three engineers" in texts(tmp_path)[doc]


def test_folder_moved_in_from_outside_with_nested_folders_and_files(tmp_path, tree):
    g, ids = first_sync(tmp_path, tree)
    team = g.add_folder("Team", ids["outside"])
    sub = g.add_folder("Onboarding", team)
    deep = g.add_folder("Week 1", sub)
    a = g.add_file("welcome.md", team, md("Welcome", "Hello."), MD)
    b = g.add_file("laptop.md", deep, md("Laptop", "Collect it on day one."), MD)
    skipped = g.add_folder("Archive", sub)  # matches the exclude glob below the moved folder
    c = g.add_file("stale.md", skipped, md("Stale", "Old onboarding."), MD)
    drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])  # nothing of Team is ours yet
    g.move(team, ids["eng"])
    summary, _ = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok, summary.failures
    got = drive_paths(tmp_path)
    assert got[a] == "Engineering/Team/welcome.md" and got[b] == "Engineering/Team/Onboarding/Week 1/laptop.md"
    assert c not in got
    g.update(b, content=md("Laptop", "Collect it from IT on day one."))
    _, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert results[b].status == "changed"
    g.move(team, ids["outside"])  # and out again: all of it goes
    _, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert set(drive_paths(tmp_path)) == {ids["leave"], ids["deploy"]}
    assert results[a].status == results[b].status == "deleted"


def test_new_folder_trashed_or_moved_out_in_the_same_interval_takes_what_was_moved_into_it(tmp_path, tree):
    g, ids = first_sync(tmp_path, tree)
    bin_ = g.add_folder("To delete", ids["top"])
    gone = g.add_folder("Leaving", ids["hr"])
    g.add_file("scratch.md", bin_, md("Scratch", "Temporary."), MD)
    g.move(ids["leave"], bin_)
    g.move(ids["deploy"], gone)
    g.trash(bin_)
    g.move(gone, ids["outside"])
    summary, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and summary.failed == 0, summary.failures
    assert drive_paths(tmp_path) == {}
    assert results[ids["leave"]].status == results[ids["deploy"]].status == "deleted"


def test_new_folder_renamed_into_an_exclude_glob_or_made_in_an_excluded_folder(tmp_path, tree):
    g, ids = first_sync(tmp_path, tree)
    new = g.add_folder("Drafts", ids["top"])
    inside_excluded = g.add_folder("2019", ids["archive"])
    x = g.add_file("draft.md", new, md("Draft", "Unfinished."), MD)
    y = g.add_file("minutes.md", inside_excluded, md("Minutes", "Old minutes."), MD)
    g.move(ids["deploy"], new)
    g.update(new, name="Archive")  # a second folder named Archive: excluded too
    before = len(g.requests)
    summary, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok, summary.failures
    assert listed_folders(g, before) == []  # neither excluded folder is listed
    assert set(drive_paths(tmp_path)) == {ids["leave"]} and results[ids["deploy"]].status == "deleted"
    g.update(x, content=md("Draft", "Still unfinished."))
    g.update(y, content=md("Minutes", "Still old."))
    summary, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert set(drive_paths(tmp_path)) == {ids["leave"]} and x not in results and y not in results
    g.update(new, name="Drafts")  # out of the glob again: the folder is new to the tree, listed
    summary, _ = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and drive_paths(tmp_path) == {
        ids["leave"]: "HR/leave.md",
        x: "Drafts/draft.md",
        ids["deploy"]: "Drafts/deploy.md",
    }


def test_file_moved_between_two_new_folders_and_a_file_deleted_in_one(tmp_path, tree):
    g, ids = first_sync(tmp_path, tree)
    one = g.add_folder("One", ids["top"])
    two = g.add_folder("Two", ids["hr"])
    f = g.add_file("f.md", one, md("F", "Moves twice."), MD)
    g.move(f, two)
    g.move(ids["leave"], one)
    short = g.add_file("short.md", two, md("Short", "Lives a moment."), MD)
    g.delete(short)
    g.delete(ids["leave"])
    summary, results = drive_sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and summary.failed == 0, summary.failures
    assert drive_paths(tmp_path) == {f: "HR/Two/f.md", ids["deploy"]: "Engineering/deploy.md"}
    assert results[ids["leave"]].status == "deleted" and short not in results
