"""The empty_cells and merged_cells cleaners: what they change, what they leave, what they report."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from ingest.cleaners import CleanContext, build_chain, clean
from ingest.cleaners.empty_cells import cleaner as empty_cells
from ingest.cleaners.merged_cells import MergedCellsOptions
from ingest.cleaners.merged_cells import cleaner as merged_cells
from ingest.errors import CleanerError
from ingest.loaders import load_bytes, load_file, local_document
from ingest.table_text import render_table


def test_merged_cells_leaves_tables_without_merge_facts_alone(corpus):
    """A Markdown table (no merges to describe) and a merge-free sheet come out as they went in."""
    for path in (
        corpus / "unstructured/example-docs/simple-table.md",
        corpus / "docling/xlsx/sources/xlsx_02_sample_sales_data.xlsm",
    ):
        loaded = load_file(path)
        assert any(b.kind == "table" for b in loaded.blocks)
        ctx = CleanContext(loaded.document, MergedCellsOptions())
        assert tuple(merged_cells.run(loaded.blocks, ctx)) == loaded.blocks
        assert not any(ctx.removed.values())


def test_merged_cells_without_flattening_blanks_covered_cells_only(corpus):
    loaded = load_file(corpus / "docling/xlsx/sources/xlsx_01.xlsx")
    tables = [b for b in loaded.blocks if b.kind == "table" and b.meta.get("covered")]
    ctx = CleanContext(loaded.document, MergedCellsOptions(flatten_header=False))
    out = [b for b in merged_cells.run(tables, ctx)]
    for before, after in zip(tables, out, strict=True):
        covered = set(before.meta["covered"])
        assert after.header_rows == before.header_rows and len(after.rows) == len(before.rows)
        for r, row in enumerate(after.rows):
            for c, cell in enumerate(row):
                assert cell == ("" if (r, c) in covered else before.rows[r][c])
        assert after.text == render_table(after.rows, after.header_rows)
    # Each covered cell held a copy of its anchor's text; each such copy is reported once.
    assert ctx.removed["cells"] == sum(1 for b in tables for r, c in b.meta["covered"] if b.rows[r][c])


def test_merged_cells_options_are_checked(corpus):
    with pytest.raises(CleanerError, match="merged_cells"):
        build_chain([("merged_cells", {"flatten_header": "sometimes"})])


def test_empty_cells_counts_what_it_drops_and_is_idempotent(corpus):
    """A sheet whose regions after a title peel leave no empty line: nothing to drop, nothing said;
    the questions CSV with a blank line and spacer column inserted: exactly those go."""
    loaded = load_file(corpus / "unstructured/example-docs/stanley-cups.xlsx")
    ctx = CleanContext(loaded.document, None)
    assert tuple(empty_cells.run(loaded.blocks, ctx)) == loaded.blocks and not ctx.removed

    text = (corpus / "chunking_evaluation/questions_df.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))[:20]
    buf = io.StringIO()
    writer = csv.writer(buf)
    for i, row in enumerate(rows):
        writer.writerow(["", *row])
        if i == 5:
            writer.writerow([""] * (len(row) + 1))
    data = buf.getvalue().encode()
    doc = local_document(Path("padded.csv"), data, 0.0)
    loaded = load_bytes(data, doc)
    blocks, report = clean(loaded.blocks, doc, build_chain([]))
    (table,) = list(blocks)
    counted = report["empty_cells"]
    assert (counted["rows"], counted["columns"], counted["blocks"]) == (1, 1, 0)  # its counts, and ingest's
    assert counted["chars"] > 0
    assert [list(r) for r in table.rows] == [[c.strip() for c in row] for row in rows]
    ctx = CleanContext(doc, None)
    assert tuple(empty_cells.run([table], ctx)) == (table,) and not ctx.removed
