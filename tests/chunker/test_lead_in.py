"""A table's lead-in (its title, units, column labels: the short paragraphs right before it) stays
in the chunk of its first rows, also when the table is over budget and split: a question naming
the table then finds its figures."""

from __future__ import annotations

import pymupdf

from ingest import ChunkOptions, chunk
from ingest.chunker.lead_in import LEAD_IN_TOKENS
from ingest.chunker.tokens import get_tokenizer
from ingest.loaders.markdown.loader import parse
from tests.chunker.test_rules import DOC
from tests.paths import RAGBENCH
from tests.pdf.pages import load

ROWS = [f"| Product line {i} | {1000 + 37 * i:,} | {900 + 29 * i:,} |" for i in range(40)]
TABLE = "| Item | 2022 | 2021 |\n|---|---|---|\n" + "\n".join(ROWS)
OPTIONS = ChunkOptions(max_tokens=120)  # the table is several times the budget


def _chunks(markdown: str, options: ChunkOptions = OPTIONS):
    return list(chunk(parse(markdown, DOC), options))


def _rows_in_order(chunks) -> list[str]:
    return [line for c in chunks for line in c.text.split("\n") if line.startswith("| Product line")]


def test_a_title_before_a_split_table_stays_with_its_first_rows():
    title = "CONSOLIDATED STATEMENTS OF EARNINGS"
    units = "(Dollars in Millions Except Per Share Amounts)"
    chunks = _chunks(f"# Statements\n\n{title}\n\n{units}\n\n{TABLE}\n")
    first = chunks[0]
    assert first.text.startswith(f"{title}\n\n{units}\n\n| Item | 2022 | 2021 |")
    assert ROWS[0] in first.text
    assert all("table" in c.kinds for c in chunks)  # no chunk is the title alone
    assert all(c.token_count <= OPTIONS.max_tokens for c in chunks)
    assert _rows_in_order(chunks) == ROWS  # every row once, whole, in order


def test_a_long_paragraph_before_a_split_table_is_no_lead_in():
    tok = get_tokenizer(OPTIONS.tokenizer)
    prose = " ".join(f"Sales in region {i} grew on higher volume and price." for i in range(8))
    assert LEAD_IN_TOKENS < tok.count(prose) < OPTIONS.max_tokens
    chunks = _chunks(f"# Sales\n\n{prose}\n\n{TABLE}\n")
    assert chunks[0].text == prose  # the paragraph keeps its chunk, the table is not cut for it
    pieces = _chunks(f"# Sales\n\n{TABLE}\n")
    assert [c.text for c in chunks[1:]] == [c.text for c in pieces]


def test_a_lead_in_after_prose_moves_to_a_whole_table():
    prose = " ".join(f"Operating income in segment {i} rose on lower costs." for i in range(6))
    units = "(Dollars in millions)"
    table = "| Item | 2022 | 2021 |\n|---|---|---|\n" + "\n".join(ROWS[:5])
    chunks = _chunks(f"# Results\n\n{prose}\n\n{units}\n\n{table}\n", ChunkOptions(max_tokens=150))
    assert [c.text for c in chunks][0] == prose
    assert len(chunks) == 2 and chunks[1].text.endswith(f"\n\n{units}\n\n{table}")
    assert chunks[1].overlap_tokens  # the prose's last sentences lead it in, as overlap


def test_a_lead_in_that_opens_a_chunk_drops_the_carried_overlap_for_its_table():
    # The prose fills a chunk, so the lead-in opens the next one with the prose's last sentences
    # carried before it; the table's first rows still join it, without them.
    prose = " ".join(f"Operating income in segment {i} rose on lower costs." for i in range(10))
    prose += " Margins held in all of them."
    title = "Segment results were as follows:"
    chunks = _chunks(f"# Results\n\n{prose}\n\n{title}\n\n{TABLE}\n")
    assert chunks[0].text == prose
    assert chunks[1].text.startswith(f"{title}\n\n| Item |") and ROWS[0] in chunks[1].text
    assert chunks[1].overlap_tokens == 0
    assert _rows_in_order(chunks) == ROWS


def test_a_statements_title_in_a_filing_stays_with_its_rows(tmp_path):
    # Johnson & Johnson's 10-K, page 47: the statement's title, its units and the column years
    # are paragraphs above a table of more than the budget.
    cut = pymupdf.open()
    with pymupdf.open(RAGBENCH / "financebench" / "pdfs" / "JOHNSON_JOHNSON_2022_10K.pdf") as src:
        cut.insert_pdf(src, from_page=46, to_page=46)
    loaded, blocks = load(cut, tmp_path)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=256), blocks))
    sales = next(c for c in chunks if "Sales to customers" in c.text)
    assert "CONSOLIDATED STATEMENTS OF EARNINGS" in sales.text
