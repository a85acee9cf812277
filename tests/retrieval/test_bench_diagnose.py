"""benchmarks/retrieval_diagnose.py's text measures, on hand-made chunks. Statement rows are read
with ragbench's own scorer (../shared/ragbench/tools/rag_eval.py): that test asks for `shared`, so it
is marked `corpus`; the rest need no shared data."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def rd():
    import retrieval_diagnose  # benchmarks/ is on the test path

    return retrieval_diagnose


@pytest.fixture(scope="module")
def rag_eval(rd, shared):
    return rd.load_rag_eval(shared / "ragbench")


TABLE = "| Assets | 2022 | 2021 |\n|---|---|---|\n| Cash || $ 1,677.8 |\n|  |  | 450.0 |"


def test_pipe_syntax_is_stripped_down_to_the_cell_texts(rd):
    assert rd.strip_syntax(TABLE).split() == ["Assets", "2022", "2021", "Cash", "$", "1,677.8", "450.0"]


def test_a_header_counts_as_repeated_only_when_the_piece_before_opens_with_it(rd):
    piece = "| Assets | 2022 | 2021 |\n|---|---|---|\n| Receivables | 1,615.1 | 1,679.7 |"
    assert rd.repeated_header(TABLE, piece) == "| Assets | 2022 | 2021 |\n|---|---|---|"
    assert rd.repeated_header("Some prose.", piece) == ""
    assert rd.repeated_header(None, piece) == ""
    assert rd.repeated_header(TABLE, "Cash\n\n1,677.8\n\n450.0") == ""  # not a pipe table


def test_statement_rows_pair_a_label_with_the_figure_under_it(rd, rag_eval):
    RE = rag_eval
    evidence = (
        "Consolidated Balance Sheets\n(In Millions)\nCash and cash equivalents\n$\n1,677.8 $\n450.0\n"
        "Other receivables\n \n1,615.1\nNet income 2022\n5,363\n"
    )
    # a title followed by a label pairs with nothing; "$" alone is no figure, so the figure two
    # lines down still pairs with its label; a line holding a number is no label
    assert rd.statement_rows(RE, evidence) == [
        (("and", "cash", "equivalents"), "1677"),
        (("other", "receivables"), "1615"),
    ]


def test_table_heads_count_a_figure_in_the_header_row_once_per_table(rd):
    data_head = "| Net income | 5,363 | 4,869 |\n|---|---|---|\n| Taxes | 10 | 12 |"
    piece = "| Net income | 5,363 | 4,869 |\n|---|---|---|\n| Other | 1 | 2 |"  # the same table, a later piece
    column_head = "| Assets | 2022 | 2021 |\n|---|---|---|\n| Cash | 1 | 2 |"  # years head columns
    prose = "| " + "word " * 70 + "|\n|---|\n| x |"
    docs = {
        "d": [
            {"text": data_head, "kinds": ["table"]},
            {"text": piece, "kinds": ["table"]},
            {"text": "Cash", "kinds": ["paragraph"]},
            {"text": prose, "kinds": ["table"]},
            {"text": column_head + "\n\n" + "A long paragraph after the table. " * 12, "kinds": ["table", "paragraph"]},
        ]
    }
    # the paragraph after the last table is no cell of it
    assert rd.table_heads(docs) == "tables 3: header row holds a figure 0.333; a cell over 300 characters 0.333"
    assert rd.table_heads({"d": [{"text": column_head, "kinds": ["table"]}]}).startswith(
        "tables 1: header row holds a figure 0.000"
    )


def test_the_tokens_ranked_above_a_chunk_are_what_the_budget_spends_before_it(rd):
    counts = [300, 200, 600, 100]
    assert rd.tokens_before([2, 0, 3, 1], counts, 1) == 1000  # read only if the budget were larger
    assert rd.tokens_before([2, 0, 3, 1], counts, 2) == 0
    assert rd.best_in_budget({"a": (1.0, 3, 1000), "b": (0.5, 1, 600), "c": (0.2, 0, 0)}) == (
        "the best chunk is read within the budget for 2 of 3 questions"
    )


def test_a_table_line_in_the_other_table_texts(rd):
    assert rd.rerender("| Net income | $5,363 || $4,869 |", "bare") == "Net income | $5,363 || $4,869"
    assert rd.rerender("|| 2022 | 2021 |", "bare") == "|| 2022 | 2021"  # the empty first cell keeps its pipe
    assert rd.rerender("|---|---|---|", "bare") == "-|-"
    assert rd.rerender("| Net income | $5,363 || $4,869 |", "label") == "Net income: $5,363 | $4,869"
    assert rd.rerender("| Net income | $5,363 || $4,869 |", "spaces") == "Net income $5,363 $4,869"
    assert rd.rerender("|---|---|", "spaces") == ""


def test_hyphen_breaks_count_what_the_document_spells_and_what_is_read_joined(rd):
    pages = {"d": ["a long-term plan and the information\nnear- and long-\nterm value, the infor-\nmation"]}
    joined = {"d": [{"text": "near- and longterm value, the information"}]}
    kept = {"d": [{"text": "near- and long-term value, the information"}]}
    # "long-term" is spelt elsewhere, "information" too; "longterm" read joined, "information" right
    assert rd.hyphen_breaks(joined, pages) == "2 breaks, spelt with the hyphen elsewhere 1, joined 1; read joined 2"
    assert rd.hyphen_breaks(kept, pages).endswith("read joined 1")


def test_a_label_ending_a_chunk_of_its_section_is_counted(rd):
    path = ["Doc", "Results"]
    docs = {
        "d": [
            {"text": "Sales rose.\n\nCost of Sales:", "heading_path": path},
            {
                "text": "Cost of sales rose.\n\nThe reasons were these, in the order of their weight:",
                "heading_path": path,
            },
            {"text": "Prices.", "heading_path": ["Doc", "Other"]},
        ]
    }
    assert rd.dangling_labels(docs) == "1 of 1 seams inside a section cut a label from what it introduces"
