"""docling's DOCX ground truth, file by file: headings in heading paths, body text and table cells
kept, page headers and footers gone after the default cleaners (see benchmarks/docx_groundtruth.py)."""

from __future__ import annotations

import docx_groundtruth as gt  # benchmarks/ is on the test path
import pytest

from tests.paths import CORPUS  # collection needs the corpus path before fixtures exist


@pytest.fixture(scope="module")
def scores(corpus):
    return {s.name: s for s in gt.scores(corpus)}


def _names():
    return sorted(p.name.removesuffix(".json") for p in (CORPUS / "docling/docx/groundtruth").glob("*.docx.json"))


def test_every_ground_truth_file_is_scored(scores):
    assert len(scores) == len(_names()) == 30
    assert sum(s.headings[1] for s in scores.values()) >= 50  # not vacuous
    assert sum(s.cells[1] for s in scores.values()) >= 200


@pytest.mark.parametrize("name", _names())
def test_file_matches_ground_truth(scores, name):
    s = scores[name]
    assert s.headings[0] == s.headings[1], s.missing
    assert s.body[0] == s.body[1], s.missing
    assert s.cells[0] == s.cells[1], s.missing
    assert not s.furniture_leaks
