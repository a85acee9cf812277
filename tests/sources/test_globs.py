"""Globs as the README promises ("Globs work as in .gitignore"): include and exclude on a local
folder and on Drive, folder patterns, negation, character classes and escapes, each verdict as git
gives it (`git check-ignore` semantics, checked against git 2.x), a bad pattern a config error."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.config import LocalSourceConfig, parse_config
from ingest.errors import IngestError
from ingest.runner.pipeline import run
from ingest.sources.local import LocalSource
from tests.drive.helpers import MD, drive_paths, drive_sync, md


def write_files(root: Path, names: list[str]) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {name}\n\nText of {name}.\n")


def ids(root: Path, **options) -> list[str]:
    return [item.doc_id for item in LocalSource(LocalSourceConfig(path=root, **options)).items()]


def test_include_exclude_and_hidden(tmp_path):
    write_files(tmp_path, ["a.md", "docs/b.md", "docs/deep/c.txt", "docs/drafts/d.md", ".git/config.md", "docs/.e.md"])
    assert ids(tmp_path) == ["a.md", "docs/b.md", "docs/deep/c.txt", "docs/drafts/d.md"]
    assert ids(tmp_path, include=["**/*.md"]) == ["a.md", "docs/b.md", "docs/drafts/d.md"]
    assert ids(tmp_path, include=["docs/**/*.md"]) == ["docs/b.md", "docs/drafts/d.md"]
    assert ids(tmp_path, include=["docs/*.md"]) == ["docs/b.md"]  # `*` stays in its folder
    assert ids(tmp_path, exclude=["docs/drafts/*"]) == ["a.md", "docs/b.md", "docs/deep/c.txt"]
    assert ids(tmp_path, exclude=["**/drafts/**", "*.txt"]) == ["a.md", "docs/b.md"]
    assert ids(tmp_path, exclude=["drafts/"]) == ["a.md", "docs/b.md", "docs/deep/c.txt"]  # a folder
    assert ids(tmp_path, exclude=["docs/"]) == ["a.md"]
    assert ids(tmp_path, include=["/a.md", "/b.md"]) == ["a.md"]  # anchored at the root
    assert ".git/config.md" in ids(tmp_path, include_hidden=True)


def listed(root: Path, **options) -> list[str]:
    return sorted(i.doc_id for i in LocalSource(LocalSourceConfig(path=root, **options)).items())


@pytest.fixture
def tree(tmp_path):
    names = [
        "a.md",
        "docs/b.md",
        "docs/deep/c.md",
        "src/docs/d.md",
        "src/build/e.md",
        "build/f.txt",
        "report-1.md",
        "report-x.md",
        "keep.md",
    ]
    write_files(tmp_path / "t", names)
    (tmp_path / "t" / "docsfile").write_text("a file, not a folder\n")
    return tmp_path / "t"


def test_folder_patterns_take_what_is_inside(tree):
    assert listed(tree, include=["docs"]) == ["docs/b.md", "docs/deep/c.md", "src/docs/d.md"]  # any depth
    assert listed(tree, include=["/docs"]) == ["docs/b.md", "docs/deep/c.md"]  # anchored
    assert listed(tree, include=["docs/"]) == ["docs/b.md", "docs/deep/c.md", "src/docs/d.md"]
    assert listed(tree, include=["docs*/"]) == ["docs/b.md", "docs/deep/c.md", "src/docs/d.md"]  # not the file
    assert listed(tree, exclude=["**/build/**"]) == [
        "a.md",
        "docs/b.md",
        "docs/deep/c.md",
        "docsfile",
        "keep.md",
        "report-1.md",
        "report-x.md",
        "src/docs/d.md",
    ]
    assert listed(tree, include=["*.md"], exclude=["docs/", "/build"]) == [
        "a.md",
        "keep.md",
        "report-1.md",
        "report-x.md",
        "src/build/e.md",
    ]


def test_negation_takes_back_what_an_earlier_pattern_matched(tree):
    ids = listed(tree, include=["*.md"], exclude=["report-*", "!report-1.md"])
    assert "report-1.md" in ids and "report-x.md" not in ids
    # as in git, nothing inside an excluded folder comes back
    assert not any(i.startswith("docs/") for i in listed(tree, exclude=["docs/", "!docs/b.md"]))


def test_character_classes_match(tree):
    assert listed(tree, include=["report-[0-9].md"]) == ["report-1.md"]


@pytest.fixture
def files(tmp_path):
    root = tmp_path / "t"
    names = [
        "docs/keep.md",
        "docs/drop.md",
        "docs/sub/deep.md",
        "foo/bar/x.md",
        "foo/baz/y.md",
        "a.md",
        "notes/todo.txt",
        "notes/n.md",
    ]
    write_files(root, names)
    return root


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
    summary, _ = drive_sync(tmp_path, g, top, exclude=["Reports/*", "!Reports/q3.md"])
    assert summary.ok and set(drive_paths(tmp_path)) == {q3}


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
