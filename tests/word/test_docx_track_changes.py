"""Tracked changes: Word's own accepted/rejected files are the ground truth (Open-Xml-PowerTools RP)."""

from __future__ import annotations

from pathlib import Path

import docx_track_changes as bench  # benchmarks/ is on the test path
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.blocks import Document, Mark
from ingest.cleaners import CleanContext, build_chain
from ingest.cleaners.track_changes import TrackChangesOptions, resolve_changes, resolve_track_changes
from ingest.errors import CleanerError
from ingest.loaders.word import docx
from tests.paths import CORPUS  # collection needs the corpus path before fixtures exist


@pytest.fixture(scope="module")
def rp(corpus) -> Path:
    return corpus / "open_xml_powertools" / "TestFiles" / "RP"


def _sets():
    return bench.rp_sets(CORPUS / "open_xml_powertools" / "TestFiles" / "RP")


def test_every_original_with_word_results_is_compared(rp):
    sets = bench.rp_sets(rp)
    assert len({o for o, _, _ in sets}) == 31
    assert len(sets) == 60  # RP001's two originals come with -Accepted only


@pytest.mark.parametrize("original, mode, expected", _sets(), ids=lambda x: x.stem if isinstance(x, Path) else x)
def test_resolved_text_equals_words_block_by_block(original, mode, expected):
    ours = bench.texts(bench.extracted(original, mode))
    word = bench.texts(bench.extracted(expected, None))
    assert ours == word, bench.first_difference(ours, word)


def _load(path: Path):
    doc = Document(id=str(path), uri=path.as_uri(), name=path.name, mime_type=docx.MIME, title=path.stem)
    return doc, docx.load(path.read_bytes(), doc).blocks


def _resolve(path: Path, mode: str):
    doc, blocks = _load(path)
    ctx = CleanContext(doc, TrackChangesOptions(mode=mode))
    return list(resolve_track_changes(blocks, ctx)), ctx.removed


def test_loader_keeps_deleted_text_with_author_and_date(rp):
    _, blocks = _load(rp / "RP002-Deleted-Text.docx")
    (mark,) = [m for b in blocks for m in b.marks if m.kind == "deletion"]
    block = next(b for b in blocks if mark in b.marks)
    assert block.text[mark.start : mark.end].strip()
    assert mark.attrs["author"] == "Eric White" and mark.attrs["date"].startswith("2017-")
    kept, _ = _resolve(rp / "RP002-Deleted-Text.docx", "keep")
    assert [b.marks for b in kept] == [b.marks for b in blocks]


def test_accepting_a_deleted_paragraph_mark_joins_the_paragraphs(rp):
    _, blocks = _load(rp / "RP005-Deleted-Paragraph-Mark.docx")
    assert len(blocks) == 2
    accepted, removed = _resolve(rp / "RP005-Deleted-Paragraph-Mark.docx", "accept")
    assert len(accepted) == 1 and removed["joins"] == 1
    assert "want to add.You can also type" in accepted[0].text  # Word joins without a space
    assert not accepted[0].marks
    rejected, _ = _resolve(rp / "RP005-Deleted-Paragraph-Mark.docx", "reject")
    assert len(rejected) == 2


def test_deleted_and_inserted_table_rows(rp):
    _, blocks = _load(rp / "RP009-Deleted-Table-Row.docx")
    (table,) = [b for b in blocks if b.kind == "table"]
    assert [r for r, m in table.meta["row_marks"] if m.kind == "deletion"] == [1]
    (accepted,) = [b for b in _resolve(rp / "RP009-Deleted-Table-Row.docx", "accept")[0] if b.kind == "table"]
    assert accepted.rows == (table.rows[0], table.rows[2])
    assert accepted.text.count("\n") == 2 and accepted.meta["row_marks"] == ()
    (rejected,) = [b for b in _resolve(rp / "RP010-Inserted-Table-Row.docx", "reject")[0] if b.kind == "table"]
    (inserted,) = [b for b in _load(rp / "RP010-Inserted-Table-Row.docx")[1] if b.kind == "table"]
    assert len(rejected.rows) == len(inserted.rows) - 1


def test_moves_resolve_like_a_deletion_and_an_insertion(rp):
    _, blocks = _load(rp / "RP015-MoveFrom-MoveTo.docx")
    moves = {m.attrs.get("move") for b in blocks for m in b.marks}
    assert {"from", "to"} <= moves


def test_options_are_checked_once_at_the_edge():
    with pytest.raises(CleanerError, match="mode"):
        build_chain([("track_changes", {"mode": "merge"})])
    names = [s.cleaner.name for s in build_chain([])]
    assert "track_changes" in names and "comments" in names  # on by default


@st.composite
def _marked_text(draw):
    text = draw(st.text(alphabet="ab \n", min_size=0, max_size=30))
    n = len(text)
    marks = []
    for _ in range(draw(st.integers(0, 5))):
        s = draw(st.integers(0, n))
        e = draw(st.integers(s, n))
        marks.append(Mark(draw(st.sampled_from(["insertion", "deletion", "comment", "link"])), s, e, {}))
    return text, marks


@given(_marked_text(), st.sampled_from(["accept", "reject"]))
def test_resolution_removes_exactly_the_rejected_spans_and_moves_other_marks(case, mode):
    text, marks = case
    drop = "deletion" if mode == "accept" else "insertion"
    gone = {i for m in marks if m.kind == drop for i in range(m.start, m.end)}
    out, kept, removed = resolve_changes(text, marks, mode)
    assert out == "".join(c for i, c in enumerate(text) if i not in gone)
    assert removed == len(gone)
    assert all(m.kind not in ("insertion", "deletion") for m in kept)
    for m in marks:  # a mark over untouched text still covers the same characters
        if m.kind in ("comment", "link") and m.end > m.start and not gone & set(range(m.start, m.end)):
            assert any(out[k.start : k.end] == text[m.start : m.end] for k in kept if k.kind == m.kind)
