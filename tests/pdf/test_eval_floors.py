"""The PDF loader on the shared pdfeval development set, scored by that set's own tools.

`benchmarks/pdf_eval.py` lays the set out and runs `pdfeval_chunk.py` (this checkout's `ingest
chunk`) and `pdfeval_score.py`, unchanged; here the figures it measured are held as floors, so a
change that loses furniture, body text, headings or order on documents of these kinds fails. A
hidden set of the same kinds is scored the same way; these floors are what the dev set shows.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pdf_eval  # benchmarks/ is on the test path
import pytest


@pytest.fixture(scope="module")
def pooled(corpus, tmp_path_factory):
    shared = corpus.parent
    out = tmp_path_factory.mktemp("pdfeval")
    set_dir = pdf_eval.lay_out(shared, out)
    tools = shared / "pdfeval" / "tools"
    ingest = str(Path(sys.executable).with_name("ingest"))
    pdf_eval.run_chunk(tools, set_dir, out, "ingest", sys.executable, ingest, jobs=2)
    _, result = pdf_eval.run_score(tools, set_dir, out, ["ingest"], out / "score.json")
    rows = {}
    for label, struct_set, split, olmocr in pdf_eval.SETS:
        (row,) = pdf_eval.summary_rows(result, struct_set, split, olmocr)
        rows[label] = row
    return rows


def test_no_furniture_left_and_no_doubled_markers(pooled):
    for label in ("pdfeval dev", "corpus docling"):
        row = pooled[label]
        assert row["furn leaked"][0] == 0 and row["furn leaked"][1] >= 10, (label, row)
        assert row["dupmk"] == 0, label
    dev = pooled["pdfeval dev"]
    assert dev["olmocr absent"] == (12, 12)  # every header, footer, page number and stamp test


def test_body_headings_and_order_hold(pooled):
    dev, corpus = pooled["pdfeval dev"], pooled["corpus docling"]
    # 107/110: of the three misses, a footer the ground truth labels body on one page and
    # furniture on the next, a logo's copyright credit in the bottom band, and a chart title set
    # as a heading (benchmarks/README.md, "ground truth disagreements").
    assert dev["body kept"][0] / dev["body kept"][1] >= 0.97
    # 22/24 since #25 (23/24 before): a heading with no body of its own travels in the text of the
    # next section's chunk, not in a heading path, which is where the scorer looks
    assert dev["headings"][0] / dev["headings"][1] >= 22 / 24
    assert dev["head prec"][0] / dev["head prec"][1] >= 0.95
    # 77/83: the six pairs out of order are all one journal article's, whose ground truth orders
    # its items by their top edge across both columns (and lists one paragraph twice).
    assert dev["order"][0] / dev["order"][1] >= 0.92
    # All but one: right_to_left_02's ground truth labels its page number ("11", alone in the
    # page's bottom corner) body text, and the loader takes it for the page number it is.
    assert corpus["body kept"][0] >= corpus["body kept"][1] - 1
    # 20/21: the Persian form's letterhead title is a heading since its cell, shaded line by
    # line, is no table; the company name beside the logo is body.
    assert corpus["headings"][0] / corpus["headings"][1] >= 0.95
    # 26/26: the column heads over a questionnaire's grid of check boxes are no headings.
    assert corpus["head prec"][0] == corpus["head prec"][1] >= 26
    assert corpus["cells"][0] == corpus["cells"][1] >= 70
    # 84/97: of the 13 pairs out of order, 12 are the scorer's: it finds a paragraph by its first
    # 40 letters, so of two that open alike ("Lorem ipsum ...", "If your country has an
    # institutional legal aid provider (e.g. ...") the second is found at the first; and a
    # listing's caption set over its code, which the ground truth lists after the code. The
    # right-to-left form's table rows now read from the label on the right: 85/97, the ceiling.
    assert corpus["order"][0] >= 85


def test_figure_numbers_kept_out_of_the_text(pooled):
    # Chart axes were 13 bare-number lines on the dev set before figures were found.
    assert pooled["pdfeval dev"]["pgnum"] <= 5
