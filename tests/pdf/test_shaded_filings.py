"""Tables the FinanceBench filings draw piece by piece, read in place from ../shared/ragbench (the
filings are CC-BY-NC: a page is cut from the PDF at test time, never copied into the project).

An underline cut at each column's gap, a grid's rules drawn one cell at a time and a row shaded
cell by cell leave as many paths as a chart's marks; joined into the rules and bands they are,
they draw only a table, and the table's words are body text. A chart beside them (a Gantt chart
whose bars are drawn the same way, cell by cell, inside a frame) stays a figure."""

from __future__ import annotations

import pymupdf
import pytest

from tests.paths import RAGBENCH
from tests.pdf.pages import load

FILINGS = RAGBENCH / "financebench" / "pdfs"


def _page(tmp_path, name: str, number: int):
    """The filing's page (1-based) as a PDF of its own, read by the loader: its blocks."""
    cut = pymupdf.open()
    with pymupdf.open(FILINGS / name) as src:
        cut.insert_pdf(src, from_page=number - 1, to_page=number - 1)
    _, blocks = load(cut, tmp_path)
    return blocks


@pytest.mark.parametrize(
    ("name", "number", "words"),
    [
        # A row shaded cell by cell under a rule drawn in pieces: the plan's figures.
        ("GENERALMILLS_2019_10K.pdf", 111, ("30,678,206", "47.12", "security holders")),
        # A head's column titles over an underline cut at each column's gap (white cells behind).
        ("MGMRESORTS_2022_10K.pdf", 88, ("Beginning of", "Increase", "Decrease")),
        ("MGMRESORTS_2022_10K.pdf", 105, ("Securities to be issued", "Weighted average")),
        ("MGMRESORTS_2023Q2_10Q.pdf", 39, ("Debt maturing in", "Thereafter", "Fair Value")),
        # A grid ruled one cell at a time, its rows left blank for the notations.
        ("PEPSICO_2023_8K_dated-2023-05-30.pdf", 80, ("Amount and", "Unpaid Principal", "Notation")),
        ("PEPSICO_2023_8K_dated-2023-05-30.pdf", 162, ("Amount and", "Unpaid Principal", "Notation")),
    ],
)
def test_a_table_drawn_in_pieces_is_no_figure(tmp_path, name, number, words):
    blocks = _page(tmp_path, name, number)
    assert [b.text for b in blocks if b.kind == "figure"] == []
    body = "\n".join(b.text for b in blocks)
    assert all(word in body for word in words)


def test_a_chart_drawn_in_pieces_stays_a_figure(tmp_path):
    # Boeing's go-ahead and delivery chart: bars of cells of differing lengths inside a frame.
    blocks = _page(tmp_path, "BOEING_2018_10K.pdf", 31)
    figures = [b.text for b in blocks if b.kind == "figure"]
    assert len(figures) == 1
    assert "737 MAX 7" in figures[0] and "2019" in figures[0] and "787-10" in figures[0]


def _rows(blocks) -> list[tuple[str, ...]]:
    """Every table block's rows, their cells with spaces made one."""
    return [tuple(" ".join(cell.split()) for cell in row) for b in blocks if b.kind == "table" for row in b.rows or ()]


def test_a_table_ruled_in_pieces_keeps_its_rows(tmp_path):
    # General Mills' plan table: its rules cut at every cell's edge, each row shaded cell by cell,
    # a label wrapped over three lines with its figures on the last. Its rows are a table's, each
    # label in the row of its figures, not a paragraph per cell.
    rows = _rows(_page(tmp_path, "GENERALMILLS_2019_10K.pdf", 111))
    assert (
        "Equity compensation plans approved by security holders",
        "30,678,206(b)",
        "$ 47.12",
        "30,265,462(d)",
    ) in rows
    assert ("Equity compensation plans not approved by security holders", "123,190(c)", "$ -", "-") in rows
    assert ("Total", "30,801,396", "$ 47.12", "30,265,462") in rows


@pytest.mark.parametrize("number", [80, 162])
def test_a_blank_form_ruled_cell_by_cell_is_a_table_of_its_heads(tmp_path, number):
    # PepsiCo's schedule of advances: a grid of thirty empty rows under its heads, each head
    # stacked over two or three lines. One row holds them, each whole in its column.
    blocks = _page(tmp_path, "PEPSICO_2023_8K_dated-2023-05-30.pdf", number)
    assert _rows(blocks) == [
        (
            "Date",
            "Amount and Currency of Advance",
            "Amount of Principal Paid Or Prepaid",
            "Unpaid Principal Balance",
            "Notation Made By",
        )
    ]


def _tables(blocks) -> list[list[tuple[str, ...]]]:
    """Each table block's rows, their cells with spaces made one."""
    return [[tuple(" ".join(c.split()) for c in row) for row in b.rows or ()] for b in blocks if b.kind == "table"]


def test_a_table_stacked_under_a_rule_is_a_table_of_its_own(tmp_path):
    # JPMorgan's wholesale loans by origination year: June's table ends on a rule (its totals and
    # charge-offs over it), and December's opens under that rule with its own heads. December's
    # heads head December's rows; they are no rows at the foot of June's.
    tables = _tables(_page(tmp_path, "JPMORGAN_2023Q2_10Q.pdf", 157))
    assert not [
        t for t in tables if any(r[0] == "Gross charge-offs" for r in t) and any("December 31, 2022" in r for r in t)
    ]
    december = [t for t in tables if any("December 31, 2022" in r for r in t) and any("$ 24,134" in r for r in t)]
    assert len(december) == 1
    assert [r[0] for r in december[0] if any(c.startswith("$") for c in r)] == [
        "Investment-grade",
        "Total retained loans",
    ]


def test_a_folio_under_a_ruled_table_is_no_row(tmp_path):
    # Boeing's anti-dilutive shares: the table's own bottom rule lies in its ruled body (a grid),
    # so the next rule down is the page's, under the folio "71", far below the last row.
    tables = _tables(_page(tmp_path, "BOEING_2022_10K.pdf", 75))
    ruled = [t for t in tables if t and t[0][0] == "Years ended December 31,"]
    assert ruled and all(r[0] != "71" for t in ruled for r in t)
    assert ruled[0][-1][0] == "Stock options"


def _lines(block) -> list[str]:
    """A block's lines as read: a table's rows (cells with spaces made one, blank ones left out),
    a text block whole."""
    if block.kind == "table":
        return [" ".join(" ".join(c.split()) for c in row if c.strip()) for row in block.rows or ()]
    return [" ".join(block.text.split())]


def test_a_table_ruled_round_a_grid_is_read_once(tmp_path):
    # Boeing's anti-dilutive shares: the body is a grid ruled cell by cell, and the rules over the
    # heads and under the folio (outside the grid) frame a table round it, heads and body. One
    # table reads the body: no row of it comes out twice (a grid's copy under the ruled table).
    read = [_lines(b) for b in _page(tmp_path, "BOEING_2022_10K.pdf", 75)]
    table = [ls for ls in read if "Stock options 0.8 0.3" in ls]
    assert len(table) == 1
    assert table[0][0] == "Years ended December 31, 2022 2021 2020"
    for line in table[0]:
        assert sum(1 for ls in read if any(line in other for other in ls)) == 1, line
