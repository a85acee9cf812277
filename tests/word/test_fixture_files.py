"""The Word loader and its cleaners on tests/fixtures/word/memo.docx, made by
tests/fixtures/make_fixtures.py: a page header, a heading, a paragraph with a tracked insertion and
deletion, a paragraph with a comment. No ../shared needed."""

from __future__ import annotations

import pytest

from ingest import ChunkOptions, chunk
from ingest.cleaners import CleanContext, build_chain, clean
from ingest.cleaners.comments import CommentsOptions, drop_comments
from ingest.loaders import load_file
from tests.fixtures import make_fixtures as made
from tests.paths import FIXTURES

MEMO = FIXTURES / "word" / "memo.docx"
ORIGINAL = made.KEPT[:-1] + made.DELETED + "."
ACCEPTED = made.KEPT[:-1] + made.INSERTED + "."


@pytest.fixture(scope="module")
def loaded():
    return load_file(MEMO)


def cleaned_texts(loaded, *cleaners) -> list[str]:
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain(list(cleaners)))
    return [b.text for b in blocks]


def test_the_page_header_is_furniture_and_the_default_chain_drops_it(loaded):
    assert [(b.kind, b.text) for b in loaded.blocks if b.layer == "furniture"] == [("paragraph", made.DOCX_HEADER)]
    assert made.DOCX_HEADER not in cleaned_texts(loaded)


def test_tracked_changes_are_marks_with_their_author(loaded):
    (para,) = [b for b in loaded.blocks if b.text.startswith(made.KEPT[:-1])]
    changes = {m.kind: (para.text[m.start : m.end], m.attrs["author"]) for m in para.marks}
    assert changes == {"insertion": (made.INSERTED, made.AUTHOR), "deletion": (made.DELETED, made.AUTHOR)}


@pytest.mark.parametrize(
    "mode, expected",
    [("accept", ACCEPTED), ("reject", ORIGINAL), ("keep", made.KEPT[:-1] + made.INSERTED + made.DELETED + ".")],
)
def test_track_changes_modes(loaded, mode, expected):
    texts = cleaned_texts(loaded, ("track_changes", {"mode": mode}))
    assert expected in texts


def test_the_default_chain_accepts_the_changes(loaded):
    assert cleaned_texts(loaded) == [made.DOCX_TITLE, ACCEPTED, made.ANCHOR]


def test_the_comment_is_a_mark_on_its_anchor_never_body_text(loaded):
    marks = [(b.text[m.start : m.end], m.attrs) for b in loaded.blocks for m in b.marks if m.kind == "comment"]
    ((anchor, attrs),) = marks
    assert anchor == made.ANCHOR and attrs["text"] == made.COMMENT and attrs["author"] == made.AUTHOR
    assert all(made.COMMENT not in b.text for b in loaded.blocks)


def test_comments_kept_as_metadata_sit_on_the_block(loaded):
    ctx = CleanContext(loaded.document, CommentsOptions(keep_as_metadata=True))
    noted = {b.text: b.meta["comments"] for b in drop_comments(loaded.blocks, ctx) if "comments" in b.meta}
    assert [entry["text"] for entry in noted[made.ANCHOR]] == [made.COMMENT]


def test_chunks_hold_the_accepted_text_under_the_heading(loaded):
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    (only,) = chunk(loaded, ChunkOptions(), blocks=list(blocks))
    assert only.heading_path[-1] == made.DOCX_TITLE
    assert ACCEPTED in only.text and made.DELETED not in only.text and made.DOCX_HEADER not in only.text
