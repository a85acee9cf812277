"""The one pipe-table rendering: empty cells cost no padding and the table still parses as GFM."""

from __future__ import annotations

from markdown_it import MarkdownIt

from ingest.chunker.tokens import get_tokenizer
from ingest.table_text import header_lines, render_table

# A statement row as PDF grids give it: a currency column and spacer columns around each figure.
ROWS = [("", "2022", "", "2021", ""), ("Net income", "$", "5,363", "", "$ 4,869"), ("", "", "", "", "")]


def test_an_empty_cell_is_two_bare_pipes():
    assert render_table(ROWS).splitlines() == [
        "|| 2022 || 2021 ||",
        "|---|---|---|---|---|",
        "| Net income | $ | 5,363 || $ 4,869 |",
        "||||||",
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
    assert _parsed_rows(render_table(ROWS)) == [list(r) for r in ROWS]


def test_the_header_is_found_before_the_delimiter_line():
    lines = render_table(ROWS, 1).splitlines()
    assert header_lines(lines, 1) == 2
    assert header_lines(render_table(ROWS, 0).splitlines(), 0) == 0


def test_a_column_empty_in_every_row_is_left_out():
    rows = [("", "", "2022", "", "2021"), ("Revenue", "", "46,298", "", "51,761"), ("Cost", "", "(36,386)", "", "")]
    assert render_table(rows).splitlines() == [
        "|| 2022 | 2021 |",
        "|---|---|---|",
        "| Revenue | 46,298 | 51,761 |",
        "| Cost | (36,386) ||",
    ]
    assert _parsed_rows(render_table(rows)) == [[r[0], r[2], r[4]] for r in rows]
    assert render_table([("", ""), ("", "")], 0) == "|||\n|||"  # nothing to keep: the shape stays
