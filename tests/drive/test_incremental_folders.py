"""Adversarial review (third round) of what changed after the second: Drive's incremental sync
listing only a folder created in or moved into the tree, the gitignore-style globs, the cleaner
chain keeping configured default cleaners in place, and `ingest run --every` after a run that raises.

Drive tests use the fake Google server (tests/fake_google/) through the real client and the real
pipeline; glob tests compare with what git itself does (`git check-ignore` semantics, verified
against git 2.x while writing them). The tests of the bugs it found failed before their fixes."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from ingest.config import LocalSourceConfig, parse_config
from ingest.errors import IngestError
from ingest.pipeline import run
from ingest.sources.local import LocalSource
from tests.drive.helpers import drive_config, md, texts

MD = "text/markdown"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def sync(tmp_path: Path, g, folder: str, **drive) -> tuple:
    results = []
    cfg, steps, options = drive_config(tmp_path, g, folder, **drive)
    summary = run(cfg, steps, options, results.append)
    return summary, {r.doc_id: r for r in results}


def paths(tmp_path: Path) -> dict[str, str]:
    """The Drive path the index holds for each document, by id."""
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        return {i: json.loads(m)["drive_path"] for i, m in db.execute("SELECT id, meta FROM documents")}


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
    ids = {"top": g.add_folder("Company")}
    ids["hr"] = g.add_folder("HR", ids["top"])
    ids["eng"] = g.add_folder("Engineering", ids["top"])
    ids["archive"] = g.add_folder("Archive", ids["top"])
    ids["outside"] = g.add_folder("Elsewhere")
    ids["leave"] = g.add_file("leave.md", ids["hr"], md("Leave", "Twenty days of paid leave."), MD)
    ids["deploy"] = g.add_file("deploy.md", ids["eng"], md("Deploy", "Run the pipeline twice."), MD)
    ids["old"] = g.add_file("old.md", ids["archive"], md("Old", "Superseded."), MD)
    return g, ids


def first_sync(tmp_path, tree):
    g, ids = tree
    summary, _ = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and set(paths(tmp_path)) == {ids["leave"], ids["deploy"]}
    return g, ids


# -- Drive: a folder created in or moved into the tree ----------------------------------------------


def test_new_folder_with_a_file_moved_in_from_the_tree_lists_only_that_folder_and_follows_it(tmp_path, tree):
    g, ids = first_sync(tmp_path, tree)
    new = g.add_folder("Policies", ids["top"])
    g.move(ids["leave"], new)
    fresh = g.add_file("travel.md", new, md("Travel", "Book trains, not planes."), MD)
    before = len(g.requests)
    summary, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok, summary.failures
    assert listed_folders(g, before) == [new]  # not the whole tree
    assert paths(tmp_path) == {
        ids["leave"]: "Policies/leave.md",
        fresh: "Policies/travel.md",
        ids["deploy"]: "Engineering/deploy.md",
    }
    assert results[ids["leave"]].status == "changed" and results[ids["deploy"]].status == "unchanged"
    # the cursor knows the new folder: an edit in it is seen, trashing it deletes what it holds
    g.update(fresh, content=md("Travel", "Trains only, second class."))
    summary, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert results[fresh].status == "changed" and "second class" in texts(tmp_path)[fresh]
    g.trash(new)
    summary, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and set(paths(tmp_path)) == {ids["deploy"]}
    assert results[ids["leave"]].status == results[fresh].status == "deleted"


def test_new_folder_inside_a_new_folder_whose_change_comes_later(tmp_path, tree):
    g, ids = first_sync(tmp_path, tree)
    outer = g.add_folder("Draft", ids["top"])
    inner = g.add_folder("Q3", outer)
    doc = g.add_file("plan.md", inner, md("Plan", "Hire two engineers."), MD)
    g.update(outer, name="Plans")  # the outer folder's latest change now follows the inner one's
    before = len(g.requests)
    summary, _ = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok, summary.failures
    assert paths(tmp_path)[doc] == "Plans/Q3/plan.md"
    assert sorted(listed_folders(g, before)) == sorted([outer, inner])  # each listed once
    g.update(doc, content=md("Plan", "Hire three engineers."))
    sync(tmp_path, g, ids["top"], exclude=["Archive/"])
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
    sync(tmp_path, g, ids["top"], exclude=["Archive/"])  # nothing of Team is ours yet
    g.move(team, ids["eng"])
    summary, _ = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok, summary.failures
    got = paths(tmp_path)
    assert got[a] == "Engineering/Team/welcome.md" and got[b] == "Engineering/Team/Onboarding/Week 1/laptop.md"
    assert c not in got
    g.update(b, content=md("Laptop", "Collect it from IT on day one."))
    _, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert results[b].status == "changed"
    g.move(team, ids["outside"])  # and out again: all of it goes
    _, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert set(paths(tmp_path)) == {ids["leave"], ids["deploy"]}
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
    summary, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and summary.failed == 0, summary.failures
    assert paths(tmp_path) == {}
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
    summary, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok, summary.failures
    assert listed_folders(g, before) == []  # neither excluded folder is listed
    assert set(paths(tmp_path)) == {ids["leave"]} and results[ids["deploy"]].status == "deleted"
    g.update(x, content=md("Draft", "Still unfinished."))
    g.update(y, content=md("Minutes", "Still old."))
    summary, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert set(paths(tmp_path)) == {ids["leave"]} and x not in results and y not in results
    g.update(new, name="Drafts")  # out of the glob again: the folder is new to the tree, listed
    summary, _ = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and paths(tmp_path) == {
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
    summary, results = sync(tmp_path, g, ids["top"], exclude=["Archive/"])
    assert summary.ok and summary.failed == 0, summary.failures
    assert paths(tmp_path) == {f: "HR/Two/f.md", ids["deploy"]: "Engineering/deploy.md"}
    assert results[ids["leave"]].status == "deleted" and short not in results


# -- globs against git ------------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path):
    root = tmp_path / "t"
    for name in [
        "docs/keep.md",
        "docs/drop.md",
        "docs/sub/deep.md",
        "foo/bar/x.md",
        "foo/baz/y.md",
        "a.md",
        "notes/todo.txt",
        "notes/n.md",
    ]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"# {name}\n")
    return root


def listed(root: Path, **options) -> list[str]:
    return sorted(i.doc_id for i in LocalSource(LocalSourceConfig(path=root, **options)).items())


def test_globs_agree_with_git_on_common_patterns(files):
    # each verdict checked with `git ls-files --others --exclude-standard` over the same tree
    assert listed(files, exclude=["**/sub/**"]) == [
        "a.md",
        "docs/drop.md",
        "docs/keep.md",
        "foo/bar/x.md",
        "foo/baz/y.md",
        "notes/n.md",
        "notes/todo.txt",
    ]
    assert listed(files, exclude=["foo/**/x.md", "[!a-m]*.txt"]) == [
        "a.md",
        "docs/drop.md",
        "docs/keep.md",
        "docs/sub/deep.md",
        "foo/baz/y.md",
        "notes/n.md",
    ]
    assert listed(files, exclude=["*", "!*.md"]) == ["a.md"]  # `*` excludes the folders too
    assert listed(files, exclude=["docs/", "!docs/keep.md"]) == [  # nothing in an excluded folder returns
        "a.md",
        "foo/bar/x.md",
        "foo/baz/y.md",
        "notes/n.md",
        "notes/todo.txt",
    ]


def test_negation_after_a_contents_pattern_keeps_the_file_as_git_does(files):
    # git: `docs/*` (or `docs/**`) excludes what is in docs, not docs, so a later `!` brings a file back
    assert "docs/keep.md" in listed(files, exclude=["docs/*", "!docs/keep.md"])
    assert "docs/keep.md" in listed(files, exclude=["docs/**", "!docs/keep.md"])
    # gitignore(5)'s example: "exclude everything except directory foo/bar"
    assert listed(files, exclude=["/*", "!/foo", "/foo/*", "!/foo/bar"]) == ["foo/bar/x.md"]


def test_negation_after_a_contents_pattern_on_drive(tmp_path, fake_google):
    g = fake_google
    top = g.add_folder("Company")
    reports = g.add_folder("Reports", top)
    q3 = g.add_file("q3.md", reports, md("Q3", "Revenue grew."), MD)
    g.add_file("q2.md", reports, md("Q2", "Revenue flat."), MD)
    summary, _ = sync(tmp_path, g, top, exclude=["Reports/*", "!Reports/q3.md"])
    assert summary.ok and set(paths(tmp_path)) == {q3}


def test_backslash_escapes_a_bracket_as_in_git(tmp_path):
    root = tmp_path / "t"
    root.mkdir()
    for name in ["Budget [DRAFT].md", "Budget D.md", "Plan [DRAFT] v2.md"]:
        (root / name).write_text("# x\n")
    assert listed(root, exclude=[r"*\[DRAFT\]*"]) == ["Budget D.md"]


def test_a_bad_character_range_is_a_config_error(tmp_path, fake_google):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n")
    raw = {
        "source": {"local": {"path": str(tmp_path / "docs"), "exclude": ["[a-Z]*.tmp"]}},
        "sink": {"sqlite": str(tmp_path / "index.sqlite")},
        "state": str(tmp_path / "state.sqlite"),
        "workers": 1,
    }
    with pytest.raises(IngestError, match="exclude"):
        run(*parse_config(raw))


# -- cleaners: configured defaults, options in the settings hash, plugins ---------------------------


PLUGIN = """
from dataclasses import replace

def tag(blocks, ctx):
    for block in blocks:
        yield replace(block, text=block.text.replace("paid", "PLUGGED")) if hasattr(block, "text") else block
    ctx.count("documents")
"""


def local_raw(tmp_path: Path, docs: Path, cleaners: list) -> dict:
    return {
        "source": {"local": {"path": str(docs)}},
        "sink": {"sqlite": str(tmp_path / "index.sqlite")},
        "state": str(tmp_path / "state.sqlite"),
        "workers": 1,
        "cleaners": cleaners,
    }


def local_sync(raw: dict) -> tuple:
    results = []
    summary = run(*parse_config(raw), results.append)
    return summary, {r.doc_id: r for r in results}


def test_configured_default_cleaner_stays_on_its_formats_and_options_reprocess(tmp_path, corpus):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "leave.md").write_bytes(md("Leave", "Twenty days of paid leave a year."))
    (docs / "plan.docx").write_bytes((corpus / "python_docx" / "blk-paras-and-tables.docx").read_bytes())
    plain = local_raw(tmp_path, docs, [])
    summary, results = local_sync(plain)
    assert summary.ok and summary.changed == 2
    # naming a default cleaner with its default options changes nothing: no re-processing
    summary, results = local_sync(local_raw(tmp_path, docs, [{"running_headers": None}, "empty_cells"]))
    assert summary.changed == 0 and summary.unchanged == 2
    for r in results.values():
        assert "running_headers" not in r.cleaned and "empty_cells" not in r.cleaned  # not widened
    # new options re-process the documents the cleaner runs on, and only those (issue #9): a
    # PDF-only cleaner leaves Markdown and Word alone, one for every format takes them all
    summary, _ = local_sync(local_raw(tmp_path, docs, [{"running_headers": {"min_pages": 5}}]))
    assert summary.changed == 0 and summary.unchanged == 2
    summary, _ = local_sync(local_raw(tmp_path, docs, [{"track_changes": {"mode": "reject"}}]))
    assert summary.changed == 2


def test_plugin_named_by_module_attr_runs_on_every_document(tmp_path, corpus, monkeypatch):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "review_sync_plugin.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(plugins))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "leave.md").write_bytes(md("Leave", "Twenty days of paid leave a year."))
    (docs / "plan.docx").write_bytes((corpus / "python_docx" / "blk-paras-and-tables.docx").read_bytes())
    summary, results = local_sync(local_raw(tmp_path, docs, ["review_sync_plugin:tag", {"furniture": False}]))
    assert summary.ok and summary.changed == 2, summary.failures
    for r in results.values():
        assert r.cleaned["review_sync_plugin:tag"]["documents"] == 1, r  # its own count, beside ingest's
        assert "furniture" not in r.cleaned
    assert "PLUGGED leave" in texts(tmp_path)["leave.md"]
    assert results["leave.md"].cleaned["review_sync_plugin:tag"]["chars"] == -3  # "paid" -> "PLUGGED": added


# -- ingest run --every -------------------------------------------------------------------------------


def test_every_reports_a_raising_run_goes_on_and_ctrl_c_exits_3(tmp_path):
    docs = tmp_path / "docs"  # missing: every run raises SourceError
    cfg = tmp_path / "ingest.yaml"
    cfg.write_text(
        f"source:\n  local: {{path: {docs}}}\nsink:\n  sqlite: {tmp_path / 'index.sqlite'}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "ingest", "run", str(cfg), "--every", "1s", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        failures, deadline = 0, time.monotonic() + 30
        while failures < 2 and time.monotonic() < deadline:
            failures += "run failed" in proc.stderr.readline()
        assert failures == 2 and proc.poll() is None
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    # Ctrl-C between runs exits as the last run ended: 3, the run itself failed (issue #9).
    assert proc.returncode == 3 and "stopped" in err and "Traceback" not in err
