"""The local folder source: globs, hidden files, stable ids, and the plain-text loader it feeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest import chunk, load_file
from ingest.config import LocalSourceConfig
from ingest.errors import SourceError
from ingest.sources.local import LocalSource


def tree(root: Path, names: list[str]) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {name}\n\nText of {name}.\n")


def ids(root: Path, **options) -> list[str]:
    return [item.doc_id for item in LocalSource(LocalSourceConfig(path=root, **options)).items()]


def test_include_exclude_and_hidden(tmp_path):
    tree(tmp_path, ["a.md", "docs/b.md", "docs/deep/c.txt", "docs/drafts/d.md", ".git/config.md", "docs/.e.md"])
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


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError, match="not a folder"):
        LocalSource(LocalSourceConfig(path=tmp_path / "nope"))


def test_plain_text_paragraphs_and_offsets(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("First paragraph,\nwrapped.\n\n\n  Second one.  \n")
    loaded = load_file(path)
    assert [b.text for b in loaded.blocks] == ["First paragraph,\nwrapped.", "Second one."]
    assert all(loaded.text[b.start : b.end] == b.text for b in loaded.blocks)
    assert [c.heading_path for c in chunk(loaded)] == [("notes",)]


def test_text_that_is_not_utf8_is_decoded_with_a_warning(tmp_path):
    path = tmp_path / "legacy.txt"
    path.write_bytes("Café prices rose.".encode("cp1252"))
    loaded = load_file(path)
    assert loaded.blocks[0].text == "Café prices rose."
    assert "Windows-1252" in loaded.warnings[0]
