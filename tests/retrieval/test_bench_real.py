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


# ----------------------------------------------------------------------------- same retriever, pooled


def test_interval_of_differences_that_never_vary_is_the_difference_itself(rr):
    # half one: three questions +1, half two: one question 0. Stratified resampling keeps each
    # half's size, so every resample's pooled mean is (3 + 0) / 4.
    iv = rr.paired_interval([[1.0, 1.0, 1.0], [0.0]])
    assert (iv.diff, iv.low, iv.high) == (pytest.approx(0.75), pytest.approx(0.75), pytest.approx(0.75))
    assert (iv.better, iv.worse, iv.n) == (3, 0, 4)


def test_interval_spans_zero_for_an_even_split_and_excludes_it_for_a_clear_gain(rr):
    even = rr.paired_interval([[1.0, -1.0] * 20])
    assert even.diff == pytest.approx(0.0) and even.low < 0 < even.high
    # 40 questions, 30 better by 1 and 10 unchanged: mean .75, SE sqrt(.1875 / 40) = .068
    gain = rr.paired_interval([[1.0] * 30 + [0.0] * 10])
    assert gain.diff == pytest.approx(0.75) and 0.6 < gain.low < 0.75 < gain.high <= 0.9
    assert rr.paired_interval([[], []]) is None


def test_compare_pools_the_halves_and_picks_the_best_peer_on_the_pooled_mean(rr):
    # page hit. Half A: ingest 1,0; semchunk 1,1; chonkie 0,0. Half B: ingest 1; semchunk 0; chonkie 1.
    a = {
        "ingest": {"a1": {"b_page_hit": True}, "a2": {"b_page_hit": False}},
        "semchunk": {"a1": {"b_page_hit": True}, "a2": {"b_page_hit": True}},
        "chonkie": {"a1": {"b_page_hit": False}, "a2": {"b_page_hit": False}},
    }
    b = {
        "ingest": {"b1": {"b_page_hit": True}},
        "semchunk": {"b1": {"b_page_hit": False}},
        "chonkie": {"b1": {"b_page_hit": True}},
    }
    means, best, iv = rr.compare([a, b], "b_page_hit", PEERS)
    # pooled: ingest 2/3, semchunk 2/3, chonkie 1/3 -> semchunk; differences 0, -1, +1
    assert means == {"ingest": pytest.approx(2 / 3), "semchunk": pytest.approx(2 / 3), "chonkie": pytest.approx(1 / 3)}
    assert best == "semchunk"
    assert (iv.diff, iv.better, iv.worse, iv.n) == (pytest.approx(0.0), 1, 1, 3)
    # half B alone: chonkie is the best peer there
    assert rr.compare([b], "b_page_hit", PEERS)[1] == "chonkie"


def test_compare_table_has_a_row_per_chunker_and_the_interval_line(rr, runs):
    lines = rr.format_compare("mmlb", [runs], ("b_page_hit",), PEERS).splitlines()
    assert lines[0] == "| mmlb | page hit |"
    assert lines[2:5] == ["| ingest | 0.667 |", "| semchunk | 0.333 |", "| chonkie | 1.000 |"]
    # ingest - chonkie: 0, -1, 0
    assert lines[5].startswith("| ingest - best peer | -0.333 [") and lines[5].endswith("(0/1, n=3) vs chonkie |")


def test_sample_takes_the_documents_with_most_questions_per_page_within_the_budget(rr):
    questions = [{"doc": d} for d in ["a", "a", "b", "c", "c", "c"]]
    pages = {"a": 10, "b": 2, "c": 100}
    # questions per page: b .5, a .2, c .03; b (2 pages) and a (12 in all) fit in 12, c does not
    assert rr.sample_docs(questions, pages, 12) == ["a", "b"]
    # a no longer fits after b (2 + 10 > 11); c does not either
    assert rr.sample_docs(questions, pages, 11) == ["b"]
    assert rr.sample_docs(questions, pages, None) == ["a", "b", "c"]
