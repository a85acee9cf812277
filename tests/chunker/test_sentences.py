from __future__ import annotations

import pytest

from ingest.chunker.sentences import sentence_spans


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Dr. Smith arrived. He sat down.", ["Dr. Smith arrived.", "He sat down."]),
        ("The U.S. Army base is large. It is old.", ["The U.S. Army base is large.", "It is old."]),
        ("Use e.g. Fig. 3 here. Then stop.", ["Use e.g. Fig. 3 here.", "Then stop."]),
        ("It runs 0.5 C below a rectal one. Record it.", ["It runs 0.5 C below a rectal one.", "Record it."]),
        ("J. R. R. Tolkien wrote it. People read it.", ["J. R. R. Tolkien wrote it.", "People read it."]),
        ("Wait... Then he left. Fine.", ["Wait... Then he left.", "Fine."]),
        ("1. First item here.\n2. Second item.", ["1. First item here.", "2. Second item."]),
        ("iv. Fourth point. Next one.", ["iv. Fourth point.", "Next one."]),
        (
            "The threshold is 39 C. Above six months it differs.",
            ["The threshold is 39 C.", "Above six months it differs."],
        ),
        ('He said "Stop." Then he left. (Really.) OK?', ['He said "Stop."', "Then he left.", "(Really.)", "OK?"]),
        ("Wrapped over\nlines. Second\nsentence.", ["Wrapped over\nlines.", "Second\nsentence."]),
        ("第一句。第二句。", ["第一句。", "第二句。"]),
        ("no terminal punctuation", ["no terminal punctuation"]),
        ("lower. case does not open a sentence", ["lower. case does not open a sentence"]),
    ],
)
def test_sentence_boundaries(text, expected):
    assert sentences(text) == expected


def test_spans_index_into_the_text_and_skip_whitespace():
    text = "  One.   Two.  "
    assert list(sentence_spans(text)) == [(2, 6), (9, 13)]
