"""Shortcuts followed: to files and folders, each target once, cycles ended, resource keys sent,
and the targets' changes (edit, trash, loss of access) and the shortcut's own deletion followed on
incremental runs. Real google-api-python-client against the fake server, real pipeline and SQLite."""

from __future__ import annotations

import pytest

from ingest.runner.pipeline import run
from tests.drive.helpers import MD, drive_config, drive_paths, md, texts


@pytest.fixture
def company(fake_google):
    """Company/{HR/leave.md, Links/} synced; Elsewhere/{plan.md, Team/{roster.md}} outside it."""
    g = fake_google
    ids = {"top": g.add_folder("Company")}
    ids["hr"] = g.add_folder("HR", ids["top"])
    ids["links"] = g.add_folder("Links", ids["top"])
    ids["leave"] = g.add_file("leave.md", ids["hr"], md("Leave", "Twenty days of paid leave."), MD)
    ids["elsewhere"] = g.add_folder("Elsewhere")
    ids["plan"] = g.add_file("plan.md", ids["elsewhere"], md("Plan", "Ship the thing in May."), MD)
    ids["team"] = g.add_folder("Team", ids["elsewhere"])
    ids["roster"] = g.add_file("roster.md", ids["team"], md("Roster", "Ada, Grace and Linus."), MD)
    return g, ids


def test_shortcuts_to_a_file_and_a_folder_index_their_targets_once(tmp_path, company):
    g, ids = company
    g.add_shortcut("plan.md", ids["links"], ids["plan"])
    g.add_shortcut("plan again", ids["hr"], ids["plan"])  # two shortcuts, one target
    g.add_shortcut("Team", ids["links"], ids["team"])
    g.add_shortcut("leave.md", ids["links"], ids["leave"])  # a target the tree holds itself
    summary = run(*drive_config(tmp_path, g, ids["top"]))
    assert summary.ok, summary.failures
    assert summary.changed == 3 and summary.skipped == 0
    found = drive_paths(tmp_path)
    assert set(found) == {ids["leave"], ids["plan"], ids["roster"]}
    assert found[ids["leave"]] == "HR/leave.md"  # where it lives, not where a shortcut points from
    assert found[ids["roster"]] == "Links/Team/roster.md"
    assert found[ids["plan"]] in ("HR/plan.md", "Links/plan.md")
    assert "Ship the thing" in texts(tmp_path)[ids["plan"]]


def test_follow_shortcuts_false_leaves_them_alone(tmp_path, company):
    g, ids = company
    g.add_shortcut("plan.md", ids["links"], ids["plan"])
    g.add_shortcut("Team", ids["links"], ids["team"])
    summary = run(*drive_config(tmp_path, g, ids["top"], follow_shortcuts=False))
    assert summary.ok and set(drive_paths(tmp_path)) == {ids["leave"]}
    assert not any(ids["plan"] in p or ids["team"] in p for _, p in g.requests)


def test_a_shortcut_cycle_ends(tmp_path, company):
    g, ids = company
    g.add_shortcut("Back to Company", ids["links"], ids["top"])  # points at the synced folder
    g.add_shortcut("Loop", ids["team"], ids["elsewhere"])  # Elsewhere/Team/Loop -> Elsewhere
    g.add_shortcut("Elsewhere", ids["links"], ids["elsewhere"])
    summary = run(*drive_config(tmp_path, g, ids["top"]))
    assert summary.ok, summary.failures
    found = drive_paths(tmp_path)
    assert found == {
        ids["leave"]: "HR/leave.md",
        ids["plan"]: "Links/Elsewhere/plan.md",
        ids["roster"]: "Links/Elsewhere/Team/roster.md",
    }
    listed = [p for _, p in g.requests if "/files?" in p and "in+parents" in p]
    assert len(listed) == 5  # Company, HR, Links, Elsewhere, Team: each folder listed once


def test_a_target_with_a_resource_key_is_opened_with_it(tmp_path, company):
    g, ids = company
    g.set_resource_key(ids["plan"], "0-AbCdEfGh")
    g.add_shortcut("plan.md", ids["links"], ids["plan"])
    summary = run(*drive_config(tmp_path, g, ids["top"]))
    assert summary.ok, summary.failures
    assert "Ship the thing" in texts(tmp_path)[ids["plan"]]
    sent = [r.headers.get("x-goog-drive-resource-keys") for r in g.log if ids["plan"] in r.target]
    assert sent and all(k == f"{ids['plan']}/0-AbCdEfGh" for k in sent)


def test_targets_edited_trashed_unshared_and_shortcuts_deleted_update_the_index(tmp_path, company):
    g, ids = company
    plan_link = g.add_shortcut("plan.md", ids["links"], ids["plan"])
    g.add_shortcut("Team", ids["links"], ids["team"])
    outside = g.add_file("faq.md", ids["elsewhere"], md("FAQ", "Ask the help desk."), MD)
    faq_link = g.add_shortcut("faq.md", ids["links"], outside)
    config = drive_config(tmp_path, g, ids["top"])
    assert run(*config).changed == 4

    g.update(ids["plan"], content=md("Plan", "Ship the thing in June."))  # a target edited
    g.update(ids["roster"], content=md("Roster", "Ada, Grace, Linus and Barbara."))  # in a followed folder
    new = g.add_file("hiring.md", ids["team"], md("Hiring", "Two engineers."), MD)  # new in a followed folder
    summary = run(*config)
    assert summary.ok and summary.notes == () and summary.changed == 3
    found = texts(tmp_path)
    assert "June" in found[ids["plan"]] and "Barbara" in found[ids["roster"]] and new in found

    g.trash(ids["plan"])  # a target trashed
    g.delete(faq_link)  # a shortcut deleted: its target goes
    summary = run(*config)
    assert summary.ok and summary.deleted == 2
    assert set(texts(tmp_path)) == {ids["leave"], ids["roster"], new}

    g.untrash(ids["plan"])  # back from the trash: the shortcut still points at it
    assert run(*config).changed == 1 and ids["plan"] in texts(tmp_path)
    g.revoke_access(ids["plan"])  # unshared from us: Drive reports it removed
    summary = run(*config)
    assert summary.ok and summary.deleted == 1 and ids["plan"] not in texts(tmp_path)
    g.grant_access(ids["plan"])
    assert run(*config).changed == 1 and ids["plan"] in texts(tmp_path)

    g.delete(plan_link)
    g.add_shortcut("plan (copy)", ids["hr"], ids["plan"])  # another shortcut to the same target
    summary = run(*config)
    assert summary.ok and summary.deleted == 0 and ids["plan"] in texts(tmp_path)


def test_a_new_shortcut_to_a_folder_is_walked_on_an_incremental_run(tmp_path, company):
    g, ids = company
    config = drive_config(tmp_path, g, ids["top"])
    run(*config)
    g.add_shortcut("Team", ids["hr"], ids["team"])
    summary = run(*config)
    assert summary.ok and summary.changed == 1 and drive_paths(tmp_path)[ids["roster"]] == "HR/Team/roster.md"


def test_a_shortcut_to_a_file_in_another_shared_drive_follows_that_drives_log(tmp_path, company):
    g, ids = company
    drive = g.add_shared_drive("Finance")
    budget = g.add_file("budget.md", drive, md("Budget", "Ten million."), MD)
    g.add_shortcut("budget.md", ids["links"], budget)
    config = drive_config(tmp_path, g, ids["top"])
    assert run(*config).changed == 2
    g.update(budget, content=md("Budget", "Twelve million."))  # a change in the drive's own log
    summary = run(*config)
    assert summary.ok and summary.changed == 1 and "Twelve" in texts(tmp_path)[budget]
    assert any("/changes?" in p and f"driveId={drive}" in p for _, p in g.requests)
