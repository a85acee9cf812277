"""The retrieval benchmark's character metrics, and the offline encoding the benchmarks hand to peers.

Expected values are worked out by hand from the chunking_evaluation protocol (corpus README).
"""

from __future__ import annotations

import csv
import json

import pytest

from ingest.chunker.tokens import encoding, get_tokenizer
from tests.paths import ROOT

BENCHMARKS = ROOT / "benchmarks"


@pytest.fixture(scope="module")
def ev():
    import retrieval_eval  # benchmarks/ is on the test path

    return retrieval_eval


def test_overlapping_retrieved_chunks_count_covered_characters_once(ev):
    a, b = ev.Piece("sotu", 50, 150, ""), ev.Piece("sotu", 140, 260, "")
    elsewhere = ev.Piece("wiki", 0, 1000, "")  # another corpus: costs length, covers nothing
    recall, precision, iou = ev.score([a, b, elsewhere], "sotu", [(100, 200)])
    # covered = [100, 150) + [140, 200) merged = [100, 200): 100 characters
    assert recall == 1.0
    assert precision == pytest.approx(100 / (100 + 120 + 1000))
    assert iou == pytest.approx(100 / (100 + 120 + 1000))


def test_uncovered_reference_characters_enter_the_iou_denominator(ev):
    recall, precision, iou = ev.score([ev.Piece("c", 150, 250, "")], "c", [(100, 200), (300, 350)])
    # covered 50 of 150 reference characters; 100 not covered
    assert recall == pytest.approx(50 / 150)
    assert precision == pytest.approx(50 / 100)
    assert iou == pytest.approx(50 / (100 + 100))


def test_a_chunk_of_the_same_offsets_in_another_corpus_covers_nothing(ev):
    assert ev.score([ev.Piece("other", 100, 200, "")], "c", [(100, 200)]) == (0.0, 0.0, 0.0)


def test_question_references_are_spans_of_their_corpus(ev, corpus):
    """The metrics take reference offsets as indexes into the corpus file as read: check every one."""
    assert ev.DATA.resolve() == (corpus / "chunking_evaluation").resolve()
    texts = {c: (ev.DATA / "corpora" / f"{c}.md").read_text(encoding="utf-8") for c in ev.CORPORA}
    with open(ev.DATA / "questions_df.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(ev.load_questions()) == 276
    for row, (_, corpus_id, spans) in zip(rows, ev.load_questions()):
        contents = [r["content"] for r in json.loads(row["references"])]
        assert [texts[corpus_id][s:e] for s, e in spans] == contents


def test_located_peer_chunks_follow_the_cursor_past_repeated_text(ev, tmp_path):
    path = tmp_path / "doc.md"
    path.write_text("Same line.\nSame line.\n", encoding="utf-8")
    pieces = ev._located(lambda text: ["Same line.", "Same line."])("doc", path)
    assert [(p.start, p.end) for p in pieces] == [(0, 10), (11, 21)]


def test_offline_encoding_is_cl100k(corpus):
    enc = encoding("cl100k_base")
    assert enc.name == "cl100k_base"
    assert enc.encode_ordinary("hello world") == [15339, 1917]
    text = (corpus / "chunking_evaluation" / "corpora" / "state_of_the_union.md").read_text(encoding="utf-8")
    assert len(enc.encode_ordinary(text)) == get_tokenizer("cl100k_base").count(text)
