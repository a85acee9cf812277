"""The local folder source: globs, hidden files, stable ids, and the plain-text loader it feeds."""

from __future__ import annotations

import pytest

from ingest import chunk, load_file
from ingest.config import LocalSourceConfig
from ingest.errors import SourceError
from ingest.sources.local import LocalSource


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
