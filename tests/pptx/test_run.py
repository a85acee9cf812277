"""A .pptx through `ingest run`: chunks cite their slide as their page, and `pptx: {notes: false}`
re-processes the decks, and only them, at the next run."""

from __future__ import annotations

import shutil
import sqlite3

from tests.local_job import sync, write_config
from tests.paths import FIXTURES


def stored(index):
    with sqlite3.connect(index) as conn:
        return conn.execute("SELECT text, page_start FROM chunks ORDER BY doc_id, chunk_index").fetchall()


def test_slides_are_pages_and_the_notes_option_reprocesses_only_decks(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(FIXTURES / "pptx" / "review.pptx", docs / "review.pptx")
    (docs / "notes.md").write_text("# Notes\n\nA Markdown file beside the deck.\n", encoding="utf-8")
    summary, results = sync(write_config(tmp_path, docs))
    assert {r.status for r in results.values()} == {"changed"}
    chunks = stored(tmp_path / "index.sqlite")
    pages = {page for text, page in chunks if "warehouse" in text}
    assert pages == {2}  # the Lyon warehouse step and the notes on it, both slide 2
    assert any("Ask for questions." in text for text, _ in chunks)

    _, results = sync(write_config(tmp_path, docs, extra="pptx: {notes: false}\n"))
    assert {r.name: r.status for r in results.values()} == {"review.pptx": "changed", "notes.md": "unchanged"}
    chunks = stored(tmp_path / "index.sqlite")
    assert not any("Ask for questions." in text for text, _ in chunks)
    assert any("Hire two buyers" in text for text, _ in chunks)
