"""The one pipe-table rendering: empty cells cost no padding, signs stand with their figures, and the
table still parses as GFM."""

from __future__ import annotations

from markdown_it import MarkdownIt

from ingest.chunker.tokens import get_tokenizer
from ingest.table_text import header_lines, render_table, table_cells

# A statement row as PDF grids give it: a currency column and spacer columns around each figure.
ROWS = [("", "2022", "", "2021", ""), ("Net income", "$", "5,363", "", "$ 4,869"), ("", "", "", "", "")]


def test_an_empty_cell_is_two_bare_pipes():
    rows = [("", "2022", "2021"), ("Net income", "5,363", ""), ("", "", "")]
    assert render_table(rows).splitlines() == ["||2022|2021|", "|---|---|---|", "|Net income|5,363||", "||||"]


def test_a_statement_row_reads_label_then_one_cell_a_figure():
    # "$" in a column of its own, the figure beside it, and the next year's sign in the figure's cell.
    assert render_table(ROWS).splitlines() == [
        "||2022|2021||",
        "|---|---|---|---|",
        "|Net income|$5,363||$4,869|",
        "|||||",
    ]


def test_unpadded_empty_cells_cost_fewer_tokens():
    tok = get_tokenizer("cl100k_base")
    padded = "\n".join("| " + " | ".join(r) + " |" for r in ROWS)
    assert tok.count(render_table(ROWS, 0)) < tok.count(padded) - 5


def _parsed_rows(text: str) -> list[list[str]]:
    rows, row, cell = [], None, None
    for t in MarkdownIt("commonmark").enable("table").parse(text):
        if t.type == "tr_open":
            row = []
        elif t.type in ("th_open", "td_open"):
            cell = ""
        elif t.type == "inline" and cell is not None:
            cell = t.content
        elif t.type in ("th_close", "td_close"):
            row.append(cell)
            cell = None
        elif t.type == "tr_close":
            rows.append(row)
    return rows


def test_the_rendering_parses_back_to_its_cells_in_gfm():
    assert _parsed_rows(render_table(ROWS)) == table_cells(ROWS, 1)
    assert table_cells(ROWS, 1) == [["", "2022", "2021", ""], ["Net income", "$5,363", "", "$4,869"], [""] * 4]


def test_the_header_is_found_before_the_delimiter_line():
    lines = render_table(ROWS, 1).splitlines()
    assert header_lines(lines, 1) == 2
    assert header_lines(render_table(ROWS, 0).splitlines(), 0) == 0


def test_a_column_empty_in_every_row_is_left_out():
    rows = [("", "", "2022", "", "2021"), ("Revenue", "", "46,298", "", "51,761"), ("Cost", "", "(36,386)", "", "")]
    assert render_table(rows).splitlines() == [
        "||2022|2021|",
        "|---|---|---|",
        "|Revenue|46,298|51,761|",
        "|Cost|(36,386)||",
    ]
    assert _parsed_rows(render_table(rows)) == [[r[0], r[2], r[4]] for r in rows]
    assert render_table([("", ""), ("", "")], 0) == "|||\n|||"  # nothing to keep: the shape stays


def test_a_sign_cell_goes_to_the_figure_it_belongs_to():
    rows = [
        ("Purchases of PP&E", "(1,577", ")", "(1,373", ")"),
        ("Margin", "5.5", "%", "$", "—"),
        ("Debt", "$", "(351)", "(", "12)"),
    ]
    assert table_cells(rows) == [
        ["Purchases of PP&E", "(1,577)", "(1,373)"],
        ["Margin", "5.5%", "$—"],
        ["Debt", "$(351)", "(12)"],
    ]


def test_a_sign_left_at_the_end_of_a_cell_opens_the_next_figure():
    rows = [("October 1-31, 2018", "2,346,310 $", "198.16", "2,346,310 $", "1,039")]
    assert table_cells(rows) == [["October 1-31, 2018", "2,346,310", "$198.16", "2,346,310", "$1,039"]]
    # Several figures in one cell are a grid that caught two columns: left as read.
    assert table_cells([("Balance", "$ 2,536 $ 3,324 $", "208")]) == [["Balance", "$ 2,536 $ 3,324 $", "208"]]


def test_a_sign_beside_words_stays_where_it_is():
    rows = [("Currency", "$", "US dollars"), ("Share", "%", "of sales")]
    assert table_cells(rows) == [list(r) for r in rows]


def test_a_figure_column_split_by_its_signs_is_one_column_again():
    # Rows with "$" put their figure in the column after the sign, rows without it in the sign's.
    rows = [
        ("(in thousands)", "", "", "", ""),
        ("Income before tax", "298,407", "", "35,146", ""),
        ("Provision for taxes", "4,448", "", "(1,369)", ""),
        ("Net income", "$", "293,959", "$", "36,515"),
    ]
    assert render_table(rows).splitlines() == [
        "|(in thousands)|||",
        "|---|---|---|",
        "|Income before tax|298,407|35,146|",
        "|Provision for taxes|4,448|(1,369)|",
        "|Net income|$293,959|$36,515|",
    ]


def test_columns_that_never_share_a_row_stay_apart_unless_both_hold_figures():
    # Debit and credit never share a row, but their heads do; labels never join a figure column.
    ledger = [("", "Debit", "Credit"), ("Cash", "100", ""), ("Sales", "", "100")]
    assert table_cells(ledger, 1) == [list(r) for r in ledger]
    assert table_cells(ledger[1:], 0) == [list(r) for r in ledger[1:]]  # figures in both, no header
    groups = [("Assets", "", ""), ("", "2023", "2022"), ("Cash", "", "5")]
    assert table_cells(groups, 0) == [list(r) for r in groups]
    words = [("North", "", "open"), ("South", "closed", "")]
    assert table_cells(words, 0) == [list(r) for r in words]
    # Years that label rows stay the label column beside a sign column.
    years = [("", "Domestic", "", "Intl", ""), ("2021", "$", "216", "$", "25"), ("2022", "", "210", "", "27")]
    assert table_cells(years, 1) == [["", "Domestic", "Intl"], ["2021", "$216", "$25"], ["2022", "210", "27"]]


def test_signs_cost_fewer_tokens_than_cells_of_their_own():
    tok = get_tokenizer("cl100k_base")
    rows = [("", "2022", "", "2021", "")] + [(f"Line {i}", "$", f"{i},577", "$", f"({i},373", ")") for i in range(9)]
    apart = "\n".join("|" + "|".join(f" {c} " if c else "" for c in r) + "|" for r in rows)
    assert tok.count(render_table(rows, 1)) < 0.85 * tok.count(apart)


def test_a_cell_is_set_between_its_pipes_without_padding():
    # A padded statement row spends two to four tokens on the spaces around its pipes; the GFM
    # parse of the unpadded row gives the same cells.
    tok = get_tokenizer("cl100k_base")
    rows = [("", "2023", "2022")] + [(f"Cost of sales {i}", f"(36,{i}86)", f"(40,{i}77)") for i in range(9)]
    padded = [("|" + "|".join(f" {c} " if c else "" for c in r) + "|") for r in table_cells(rows, 1)]
    padded.insert(1, "|---|---|---|")
    assert tok.count(render_table(rows, 1)) < 0.85 * tok.count("\n".join(padded))
    assert _parsed_rows(render_table(rows, 1)) == _parsed_rows("\n".join(padded)) == table_cells(rows, 1)
    escaped = [("a | b", "1"), ("c", "2")]
    assert _parsed_rows(render_table(escaped, 1)) == [["a | b", "1"], ["c", "2"]]
