"""`ingest search` on a terminal: scores printed so that different ranks look different, and each
text printed once when the windows of two hits of one document overlap."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ingest.cli.search_output import score_texts
from tests.retrieval.examples_index import build, ingest

QUERY = "painkiller for a child with a temperature"
RULE = re.compile(r"^─+ (\d+)\. score (\S+)  (.*?) ─+$")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("shown"))  # the default job: minilm vectors beside bm25


def _printed(index: Path, mode: str) -> tuple[list[tuple[str, str]], list[str]]:
    """(rank, score) of each rule, and the text under the rules, from the terminal output."""
    proc = ingest("search", QUERY, "--index", index, "--mode", mode)
    assert proc.returncode == 0, proc.stderr
    rules = [m.groups()[:2] for m in map(RULE.match, proc.stdout.splitlines()) if m]
    return rules, [line for line in proc.stdout.splitlines() if not RULE.match(line)]


def test_hybrid_scores_print_apart(index: Path) -> None:
    rules, _ = _printed(index, "hybrid")
    assert [rank for rank, _ in rules] == ["1", "2", "3", "4", "5"]
    # The first hit is first in both rankings: 1/61 + 1/61, not "0.03" as every hit printed before.
    assert rules[0][1] == "0.03279"
    scores = [
        json.loads(line)["score"]
        for line in ingest("search", QUERY, "--index", index, "--mode", "hybrid", "--json").stdout.splitlines()
    ]
    # Scores that differ print differently (all five fused scores lie between 0.029 and 0.033).
    printed = [score for _, score in rules]
    assert len(set(printed)) == len(set(scores)) == 5


def test_overlapping_windows_print_each_paragraph_once(index: Path) -> None:
    # Hits 1 and 2 are neighbouring sections of paediatric-fever.md: with the default window of 1,
    # hit 2's context held all of hit 1's section and the table again.
    hits = [
        json.loads(line)
        for line in ingest("search", QUERY, "--index", index, "--mode", "hybrid", "--json").stdout.splitlines()
    ]
    assert hits[0]["chunk"]["doc_id"] == hits[1]["chunk"]["doc_id"] == "paediatric-fever.md"
    _, lines = _printed(index, "hybrid")
    printed = " ".join(" ".join(lines).split())  # the terminal wraps lines: compare words
    assert printed.count("| Paracetamol | 15 mg/kg | 4-6 h | 60 mg/kg |") == 1
    # Every paragraph the windows hold is printed exactly once: none lost, none repeated.
    paragraphs = {" ".join(p.split()) for hit in hits for p in hit["context"].split("\n\n") if len(p) > 40}
    assert {p: printed.count(p) for p in paragraphs} == dict.fromkeys(paragraphs, 1)
    # Hit 2's own section was shown under hit 1: it says so rather than printing it again.
    assert "(this chunk is in the context of hit 1 above)" in lines


def test_a_bm25_score_keeps_four_significant_digits(index: Path) -> None:
    rules, _ = _printed(index, "bm25")
    scores = [
        json.loads(line)["score"]
        for line in ingest("search", QUERY, "--index", index, "--mode", "bm25", "--json").stdout.splitlines()
    ]
    assert [float(s) for _, s in rules] == pytest.approx(scores, rel=5e-4)
    assert all(len(s.replace(".", "").lstrip("0")) == 4 for _, s in rules)


def test_scores_get_more_digits_only_to_tell_neighbours_apart() -> None:
    assert score_texts([12.3456, 0.5]) == ["12.35", "0.5000"]
    assert score_texts([0.0320181, 0.0320179]) == ["0.0320181", "0.0320179"]
    assert score_texts([1 / 61 + 1 / 63, 1 / 62 + 1 / 62]) == ["0.03227", "0.03226"]
    assert score_texts([0.5, 0.5]) == ["0.5000", "0.5000"]  # a tie stays a tie
