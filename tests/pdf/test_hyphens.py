"""A hyphen at a line's end is kept or undone as the document itself spells the word: a compound
the document sets whole elsewhere ("long-term") keeps its hyphen, a word it sets whole elsewhere
("information") is joined, and where it sets neither, the breaks it does settle decide; a hyphen
before a capital or a figure is never a word break ("non-" + "GAAP")."""

from __future__ import annotations

import pymupdf

from ingest.loaders.pdf.hyphens import spelling
from tests.pdf.pages import load


def _paragraphs(paragraphs: list[list[str]]) -> pymupdf.Document:
    """Each paragraph's lines set as given, one under the other, the paragraphs a gap apart."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 90.0
    for lines in paragraphs:
        for line in lines:
            y += 12.5
            page.insert_text((60, y), line, fontsize=10, fontname="helv")
        y += 14
    return doc


def _text(tmp_path, paragraphs: list[list[str]]) -> str:
    _, blocks = load(_paragraphs(paragraphs), tmp_path)
    return "\n".join(b.text for b in blocks)


FILING = [
    [
        "The company expects its long-term debt to fall as the notes issued in the spring of",
        "the year mature, and it has no plans to replace them with new borrowing of any kind.",
    ],
    [
        "Management believes the plan will unlock near- and long-",
        "term value for shareholders while the well-known brands of the",
        "group keep their place in every market where they are sold.",
    ],
    [
        "The board reviewed the cross-",
        "currency swaps and the well-",
        "known risks of the plan before it approved the results on a non-",
        "GAAP basis for the year that ended in December of the last year.",
    ],
]


def test_a_compound_the_document_spells_keeps_its_hyphen_across_lines(tmp_path):
    text = _text(tmp_path, FILING)
    assert "near- and long-term value" in text
    assert "longterm" not in text


def test_where_the_document_spells_neither_its_settled_breaks_decide(tmp_path):
    text = _text(tmp_path, FILING)
    # "cross-currency" is set nowhere else; the document's settled breaks keep hyphens
    assert "the cross-currency swaps and the well-known risks" in text
    assert "crosscurrency" not in text


def test_a_hyphen_before_a_capital_is_no_word_break(tmp_path):
    text = _text(tmp_path, FILING)
    assert "on a non-GAAP basis" in text
    assert "non- GAAP" not in text


def test_a_word_the_document_sets_whole_is_joined(tmp_path):
    paper = [
        [
            "The information in the survey was gathered by hand from every well in the district,",
            "and the results were checked against the records of the water board of the region.",
        ],
        [
            "The survey shows that the infor-",
            "mation gathered by the board and the mea-",
            "surements taken in the field agree for most wells in the northern part of the district.",
        ],
        ["Every measurement was taken twice, in the morning and in the evening of the same day."],
    ]
    text = _text(tmp_path, paper)
    assert "the information gathered by the board" in text
    # "mea-surements" is set nowhere else; the one settled break here joined its word
    assert "the measurements taken in the field" in text


def test_spelling_counts_the_breaks_it_can_settle():
    evidence = spelling([["a long-term plan", "the infor-", "mation and the long-"], ["term plan"]])
    assert evidence.settles("long", "term") is True
    assert evidence.settles("infor", "mation") is None  # "information" is set nowhere whole
    assert evidence.keeps_hyphen("the cross-", "currency") is False  # no break settled: joined
    joined = spelling([["the information", "the infor-", "mation", "a cross-", "over"]])
    assert joined.settles("infor", "mation") is False and not joined.keeps
