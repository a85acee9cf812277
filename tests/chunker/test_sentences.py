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
        # A CJK stop keeps the quote or bracket that closes after it.
        ("「今天下雨。」他说。", ["「今天下雨。」", "他说。"]),
        ("他说：“今天下雨。”然后走了。", ["他说：“今天下雨。”", "然后走了。"]),
        ("日本語の文です！次の文ですか？はい｡", ["日本語の文です！", "次の文ですか？", "はい｡"]),
        # Scripts without case open a sentence after a stop and a space, as a capital does.
        ("한국어 문장입니다. 다음 문장입니다.", ["한국어 문장입니다.", "다음 문장입니다."]),
        ("그는 학교에 간다. 나는 집에 있다.", ["그는 학교에 간다.", "나는 집에 있다."]),
        ("هل أنت بخير؟ نعم أنا بخير. شكرا", ["هل أنت بخير؟", "نعم أنا بخير.", "شكرا"]),
        ("זה משפט. זה עוד משפט.", ["זה משפט.", "זה עוד משפט."]),
        ("Привет. Как дела? хорошо.", ["Привет.", "Как дела? хорошо."]),
        # A capital of any cased script opens one, accented Latin and Cyrillic past Russian's too.
        ("Cena je 5 Kč. Šel domů. Řeka teče.", ["Cena je 5 Kč.", "Šel domů.", "Řeka teče."]),
        ("Jest zimno. Łódź leży w Polsce.", ["Jest zimno.", "Łódź leży w Polsce."]),
        ("Він прийшов. Ґанок старий.", ["Він прийшов.", "Ґанок старий."]),
        ("Hava soğuk. İstanbul büyük. şehir", ["Hava soğuk.", "İstanbul büyük. şehir"]),
        ("no terminal punctuation", ["no terminal punctuation"]),
        ("lower. case does not open a sentence", ["lower. case does not open a sentence"]),
    ],
)
def test_sentence_boundaries(text, expected):
    assert sentences(text) == expected


def test_spans_index_into_the_text_and_skip_whitespace():
    text = "  One.   Two.  "
    assert list(sentence_spans(text)) == [(2, 6), (9, 13)]
