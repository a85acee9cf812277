"""benchmarks/retrieval_real.py's summary of rag_eval's output, on hand-made rows (no ragbench data).

The expected figures are worked out by hand below each input.
"""

from __future__ import annotations

import json
import math

import pytest


@pytest.fixture(scope="module")
def rr():
    import retrieval_real  # benchmarks/ is on the test path

    return retrieval_real


# Three questions in rag_eval's --per-question layout; q3 has no answer check, so no b_answer.
ROWS = [
    {"run": "ingest", "qid": "q1", "b_recall": 0.5, "b_page_hit": True, "b_answer": False},
    {"run": "ingest", "qid": "q2", "b_recall": 0.0, "b_page_hit": False, "b_answer": True},
    {"run": "ingest", "qid": "q3", "b_recall": 1.0, "b_page_hit": True},
    {"run": "semchunk", "qid": "q1", "b_recall": 0.75, "b_page_hit": True, "b_answer": True},
    {"run": "semchunk", "qid": "q2", "b_recall": 0.25, "b_page_hit": False, "b_answer": True},
    {"run": "semchunk", "qid": "q3", "b_recall": 0.5, "b_page_hit": False},
    {"run": "chonkie", "qid": "q1", "b_recall": 0.0, "b_page_hit": True, "b_answer": True},
    {"run": "chonkie", "qid": "q2", "b_recall": 0.0, "b_page_hit": True, "b_answer": False},
    {"run": "chonkie", "qid": "q3", "b_recall": 0.0, "b_page_hit": True},
]
PEERS = ["semchunk", "chonkie"]


@pytest.fixture()
def runs(rr, tmp_path):
    path = tmp_path / "per_question.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS) + "\n")  # a trailing blank line is skipped
    return rr.read_per_question(path)


def test_rows_are_grouped_by_run_and_question(runs):
    assert list(runs) == ["ingest", "semchunk", "chonkie"]
    assert runs["semchunk"]["q2"]["b_recall"] == 0.25


def test_booleans_count_as_0_or_1_and_a_missing_metric_leaves_the_question_out(rr, runs):
    assert rr.values(runs["ingest"], "b_page_hit") == {"q1": 1.0, "q2": 0.0, "q3": 1.0}
    assert rr.values(runs["ingest"], "b_answer") == {"q1": 0.0, "q2": 1.0}


def test_best_peer_is_chosen_per_metric(rr, runs):
    # recall: semchunk .5 vs chonkie 0; page hit: chonkie 1 vs semchunk 1/3; answer: semchunk 1 vs .5
    assert rr.best_peer(runs, "b_recall", PEERS) == "semchunk"
    assert rr.best_peer(runs, "b_page_hit", PEERS) == "chonkie"
    assert rr.best_peer(runs, "b_answer", PEERS) == "semchunk"


def test_paired_difference_and_its_standard_error(rr, runs):
    p = rr.paired(rr.values(runs["ingest"], "b_recall"), rr.values(runs["semchunk"], "b_recall"))
    # differences -.25, -.25, +.5: mean 0, sample variance (.0625 + .0625 + .25) / 2 = .1875
    assert p.diff == pytest.approx(0.0)
    assert p.se == pytest.approx(math.sqrt(0.1875 / 3))
    assert (p.better, p.worse, p.n) == (1, 2, 3)


def test_paired_uses_only_the_questions_both_runs_have(rr):
    p = rr.paired({"a": 1.0, "b": 0.0}, {"a": 0.0, "c": 1.0})
    assert (p.diff, p.se, p.n) == (1.0, 0.0, 1)
    assert rr.paired({"a": 1.0}, {"b": 1.0}) is None


def test_summary_sets_ingest_against_the_best_peer_of_each_metric(rr, runs):
    s = rr.summarise(runs, ("b_recall", "b_page_hit", "b_answer"), PEERS)
    assert s["means"]["ingest"]["b_recall"] == pytest.approx(0.5)
    assert s["means"]["semchunk"]["b_page_hit"] == pytest.approx(1 / 3)
    assert list(s["against"]) == ["ingest"]  # peers are not set against themselves
    peer, p = s["against"]["ingest"]["b_page_hit"]
    assert peer == "chonkie" and p.diff == pytest.approx(2 / 3 - 1)
    peer, p = s["against"]["ingest"]["b_answer"]
    assert peer == "semchunk" and p.diff == pytest.approx(-0.5) and p.n == 2


def test_table_rows_and_the_difference_line(rr, runs, tmp_path):
    score = tmp_path / "score.json"
    score.write_text(
        json.dumps(
            {
                "runs": [
                    {"run": "ingest", "chunks": 12, "chunk_tokens_mean": 180.4, "ceiling": 0.957},
                    {"run": "semchunk", "chunks": 9, "chunk_tokens_mean": 240.0, "ceiling": 0.969},
                ]
            }
        )
    )
    s = rr.summarise(runs, ("b_recall", "b_page_hit"), PEERS)
    lines = rr.format_table("financebench", s, ("b_recall", "b_page_hit"), rr.read_facts(score)).splitlines()
    assert lines[0] == "| financebench | evidence recall | page hit | chunks | tokens/chunk | ceiling |"
    assert lines[2] == "| ingest | 0.500 | 0.667 | 12 | 180 | 0.957 |"
    assert lines[4] == "| chonkie | 0.000 | 1.000 | - | - | - |"  # a run missing from the JSON
    assert lines[5].startswith("| ingest - best peer | +0.000 +- ")
    assert "(1/2) vs semchunk" in lines[5] and "-0.333 +- " in lines[5] and "(0/1) vs chonkie" in lines[5]


def test_peer_chunks_are_reused_only_at_the_same_size_and_versions(rr, tmp_path):
    (tmp_path / "_timing.json").write_text(
        json.dumps({"size": 256, "versions": {"semchunk": "4.1.1", "pymupdf": "1.28.2"}})
    )
    assert rr.cached(tmp_path, 256, {"semchunk": "4.1.1", "pymupdf": "1.28.2"})
    assert not rr.cached(tmp_path, 512, {"semchunk": "4.1.1", "pymupdf": "1.28.2"})
    assert not rr.cached(tmp_path, 256, {"semchunk": "4.2.0", "pymupdf": "1.28.2"})
    assert not rr.cached(tmp_path / "none", 256, {})
