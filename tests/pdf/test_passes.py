"""The document passes of the PDF reader on pages built by hand (no PDF rendered): the margins
pass sets running headers and page numbers apart, the rejoin pass returns a title that opens
the first page to the body, and the heading rules make it the document's heading."""

from __future__ import annotations

from dataclasses import replace

import pymupdf

from ingest.blocks import Document
from ingest.loaders.pdf.headings import mark_units
from ingest.loaders.pdf.model import Line, PageLines, Unit
from ingest.loaders.pdf.paragraphs import box_of
from ingest.loaders.pdf.passes import (
    DOCUMENT_PASSES,
    PAGE_PASSES,
    DocumentWork,
    blocks,
    body_size,
    headings,
    hyphens,
    margins,
    rejoin_bands,
    run_document,
    table_heads,
    units,
)

WIDTH, HEIGHT = 612.0, 792.0
PROSE = (
    "The company reported revenue growth in every region during the quarter, driven by",
    "new contracts in the public sector and steady renewals among existing customers, while",
    "operating costs rose more slowly than sales, so that the margin improved by two points",
    "compared with the same quarter of the year before, as the board had expected.",
)


def _line(text: str, y: float, size: float = 10.0, bold: bool = False, block: int = 0, x: float = 72.0) -> Line:
    width = 0.5 * size * len(text)  # about half an em a character
    return Line(text, (x, y, min(x + width, WIDTH - 72.0), y + 1.2 * size), size, bold, block)


def _page(number: int, title: str | None = None) -> list[Line]:
    lines = [_line("ACME CORPORATION QUARTERLY REPORT", 40.0, size=8.0, block=0, x=200.0)] if title is None else []
    if title is not None:
        lines.append(_line(title, 60.0, size=18.0, bold=True, block=0))
    y = 200.0
    for k in range(3):  # three paragraphs of four lines, a blank line between
        for text in PROSE:
            lines.append(_line(text, y, block=1 + k))
            y += 12.0
        y += 12.0
    lines.append(_line(str(number), 750.0, size=8.0, block=9, x=300.0))
    return lines


def _work(pages: list[list[Line]]) -> DocumentWork:
    read = [(lines, [], n, pymupdf.Rect(0, 0, WIDTH, HEIGHT), (), "") for n, lines in enumerate(pages, 1)]
    document = Document(id="t.pdf", uri="t.pdf", name="t.pdf", mime_type="application/pdf", title="t")
    return DocumentWork(read, [], [], [], document)


def _texts(lines) -> list[str]:
    return [line.text for line in lines]


def test_margins_sets_running_header_and_page_numbers_apart():
    work = _work([_page(n) for n in range(1, 5)])
    margins(work)
    for number, (placed, _tables) in enumerate(work.pages, 1):
        assert _texts(placed.body) == list(PROSE) * 3
        bands = {band: _texts(lines) for band, lines in placed.margin}
        assert bands == {"top": ["ACME CORPORATION QUARTERLY REPORT"], "bottom": [str(number)]}


def test_body_size_is_the_size_most_characters_are_set_in():
    work = _work([_page(n) for n in range(1, 5)])
    margins(work)
    body_size(work)
    assert work.body == 10.0


def test_rejoin_returns_a_title_opening_the_first_page_to_the_body():
    work = _work([_page(1, title="Results for the Third Quarter")] + [_page(n) for n in range(2, 5)])
    margins(work)
    first = work.pages[0][0]
    assert "Results for the Third Quarter" in [t for _, lines in first.margin for t in _texts(lines)]
    body_size(work)
    rejoin_bands(work)
    first = work.pages[0][0]
    assert "Results for the Third Quarter" in _texts(first.body)
    assert [band for band, _ in first.margin] == ["bottom"]  # its page number stays apart
    for placed, _tables in work.pages[1:]:  # the running header appears on every other page
        assert "ACME CORPORATION QUARTERLY REPORT" not in _texts(placed.body)


def test_the_title_becomes_the_documents_heading_and_the_prose_its_paragraphs():
    work = run_document(_work([_page(1, title="Results for the Third Quarter")] + [_page(n) for n in range(2, 5)]))
    headings = [b for b in work.blocks if b.kind == "heading"]
    assert [(b.text, b.level) for b in headings] == [("Results for the Third Quarter", 1)]
    paragraphs = [b for b in work.blocks if b.kind == "paragraph" and not (b.meta or {}).get("band")]
    assert len(paragraphs) == 12  # three a page, none joined across a page number
    assert all(b.text.startswith("The company reported revenue growth") for b in paragraphs)
    assert all(b.path[-1] == "Results for the Third Quarter" for b in paragraphs)


def test_every_pass_says_what_it_reads_and_decides():
    for p in PAGE_PASSES + DOCUMENT_PASSES:
        assert p.__doc__ and p.__doc__.startswith("Reads"), p.__name__


def test_a_bold_larger_line_between_paragraphs_is_a_section_under_the_title():
    second = _page(2)
    at = next(k for k, line in enumerate(second) if line.bbox[1] >= 248.0)  # the second paragraph's first line
    y = second[at].bbox[1]
    second = (
        second[:at]
        + [_line("Regional Results", y, size=12.0, bold=True, block=7)]
        + [
            Line(ln.text, (ln.bbox[0], ln.bbox[1] + 24.0, ln.bbox[2], ln.bbox[3] + 24.0), ln.size, ln.bold, ln.block)
            if ln.size == 10.0
            else ln
            for ln in second[at:]
        ]
    )
    pages = [_page(1, title="Results for the Third Quarter"), second, _page(3), _page(4)]
    work = run_document(_work(pages))
    headings = [(b.text, b.level) for b in work.blocks if b.kind == "heading"]
    assert headings == [("Results for the Third Quarter", 1), ("Regional Results", 2)]
    after = [b for b in work.blocks if b.kind == "paragraph" and b.page == 2 and b.bbox and b.bbox[1] > y]
    assert after and all(b.path[-2:] == ("Results for the Third Quarter", "Regional Results") for b in after)


def test_each_block_names_the_pass_that_decided_it_and_inspect_shows_it():
    from ingest.blocks import Loaded
    from ingest.chunker import ChunkOptions
    from ingest.inspect import as_json, inspect_document

    work = run_document(_work([_page(1, title="Results for the Third Quarter")] + [_page(n) for n in range(2, 5)]))
    decided = {(b.kind, (b.meta or {}).get("band"), b.meta["pdf_pass"]) for b in work.blocks}
    assert decided == {
        ("heading", None, "headings"),
        ("paragraph", None, "units"),
        ("paragraph", "top", "margins"),  # the running header
        ("paragraph", "bottom", "margins"),  # the page numbers
    }
    shown = as_json(inspect_document(Loaded(work.document, work.blocks), (), ChunkOptions()))
    assert [b["decided_by"] for b in shown["blocks"]][:2] == ["headings", "units"]


# -- the decisions the passes write on units (pdf/model.py), read by the passes after them -------


def _placed(body: list[Line], margin=()) -> PageLines:
    return PageLines(1, WIDTH, HEIGHT, tuple(body), tuple(margin), 72.0)


def test_table_heads_sets_a_row_of_years_over_a_ruled_grid_in_its_columns():
    years = (_line("2021", 100.0, x=330.0), _line("2020", 100.0, x=470.0))
    columns = ((72.0, 250.0), (310.0, 400.0), (450.0, 540.0))
    rows = (("Revenue", "1,200", "1,100"), ("Net income", "300", "250"))
    grid = Unit("table", [], 1, rows=rows, bbox=(72.0, 114.0, 540.0, 160.0), columns=columns)
    aligned = replace(grid, columns=())  # a table read by alignment has no grid columns to set heads in
    for table, expected in ((grid, ("", "2021", "2020")), (aligned, None)):
        work = _work([])
        work.pages = [(_placed([], [("top", years)]), [table])]
        table_heads(work)
        placed, (out,) = work.pages[0]
        assert (out.rows or ())[0] == (expected or rows[0])
        assert out.header_rows == (1 if expected else 0)
        assert [band for band, _ in placed.margin] == ([] if expected else ["top"])


def test_units_marks_a_bold_line_inside_a_figure_and_headings_leaves_it_out():
    title = _line("Revenue by Region", 300.0, bold=True, block=5, x=200.0)
    body = [_line(text, 100.0 + 12.0 * k, block=1) for k, text in enumerate(PROSE)] + [title]
    body += [_line(text, 400.0 + 12.0 * k, block=6) for k, text in enumerate(PROSE)]
    figure = Unit("figure", [], 1, bbox=(150.0, 320.0, 450.0, 380.0), region=(150.0, 280.0, 450.0, 390.0))
    outside = replace(figure, region=(150.0, 320.0, 450.0, 390.0))  # the title stands over it
    for region_of, in_figure in ((figure, True), (outside, False)):
        work = _work([])
        work.pages = [(_placed(body), [region_of])]
        units(work)
        (marked,) = [u for _, page_units in work.units for u in page_units if u.text == title.text]
        assert marked.in_figure is in_figure
        work.body = 10.0
        hyphens(work)
        headings(work)
        (decided,) = [u for _, page_units in work.units for u in page_units if u.text == title.text]
        assert (decided.level is not None) is not in_figure


def test_a_label_joined_to_its_title_shares_its_row_with_neither_of_its_own_lines():
    label = _line("ITEM 5.", 100.0, bold=True, block=1)
    title = _line("MARKET FOR THE REGISTRANT'S COMMON EQUITY", 100.0, bold=True, block=2, x=140.0)
    prose = [_line(text, 130.0 + 12.0 * k, block=3) for k, text in enumerate(PROSE)]
    found = mark_units([Unit("paragraph", [label], 1), Unit("paragraph", [title], 1)], [], (label, title, *prose))
    assert [u.text for u in found] == ["ITEM 5. MARKET FOR THE REGISTRANT'S COMMON EQUITY"]
    assert found[0].joined == (label, title)
    assert not found[0].shares_row  # its own pieces are no cells beside it
    row = _line("Total", 300.0, bold=True, block=4)
    cells = [_line("1,200", 300.0, block=5, x=300.0), _line("900", 300.0, block=6, x=400.0)]
    (total,) = mark_units([Unit("paragraph", [row], 1)], [], (row, *cells))
    assert total.shares_row and not total.row_peers  # figures beside it: a row label


def test_a_paragraph_run_on_across_a_page_is_one_block_and_the_pages_units_stay_as_they_were():
    first = [_line(text, 600.0 + 12.0 * k, block=1) for k, text in enumerate(PROSE[:3])]
    second = [_line(text, 100.0 + 12.0 * k, block=1) for k, text in enumerate(PROSE[3:])]
    before, after = Unit("paragraph", first, 1), Unit("paragraph", second, 2)
    work = _work([])
    placed = [replace(_placed(first), number=1), replace(_placed(second), number=2)]
    work.units = [(placed[0], [before]), (placed[1], [after])]
    work.body = 10.0
    hyphens(work)
    headings(work)
    blocks(work)
    (block,) = [b for b in work.blocks if b.kind == "paragraph"]
    assert block.text == " ".join(PROSE)
    assert (block.page, (block.meta or {}).get("page_end")) == (1, 2)
    assert block.bbox == box_of(first)  # the box is the one on the first page
    assert before.lines == first and before.page_end is None  # the run-on is a new unit


def _cell(text: str, x0: float, y: float, x1: float | None = None) -> Line:
    return Line(text, (x0, y, x1 if x1 is not None else x0 + 4.0 * len(text), y + 8.0), 7.5, False, 0)


def _rect(box: tuple[float, float, float, float], stroked: bool = False, rect: bool = True) -> dict:
    return {"bbox": box, "isrect": rect, "stroked": stroked, "color": 0xD0E5F8}


def test_a_head_row_shaded_cell_by_cell_over_a_tables_figures_is_no_figure():
    from ingest.loaders.pdf.figures import tabulated

    # A head row of four shaded cells, each title stacked on three lines, over three rows of
    # figures on the paper: the head's region is the table's, not a drawing's.
    columns = [(52.0, 170.0), (180.0, 260.0), (270.0, 350.0), (360.0, 440.0)]
    titles = [("As of June 30", "(in millions)", ""), ("Unrealized", "gains", "on securities")]
    titles += [("Translation", "adjustments", "net"), ("Cash flow", "hedges", "")]
    head = [_cell(t, x0 + 2, 116 + 9 * n) for (x0, _), stack in zip(columns, titles) for n, t in enumerate(stack) if t]
    rows = [("Balance at April 1", "(4,813)", "(996)", "(3,087)"), ("Net change", "(4,031)", "(679)", "(1,348)")]
    rows += [("Balance at June 30", "(8,844)", "(1,675)", "(4,435)")]
    body = [_cell(text, x0 + 2, 156 + 12 * r) for r, row in enumerate(rows) for (x0, _), text in zip(columns, row)]
    head_region = (52.0, 114.0, 440.0, 150.0)
    fills = [_rect((x0, 114.0, x1, 150.0)) for x0, x1 in columns] + [_rect((52.0, 149.5, 440.0, 150.5), True)]
    assert tabulated([head_region], fills, head + body, 1) == [head_region]
    # The same labels over a curve (a path that is no rectangle) are a chart's: a figure.
    curve = fills + [_rect((60.0, 118.0, 430.0, 148.0), True, rect=False)]
    assert tabulated([head_region], curve, head + body, 1) == []


def test_a_head_underlined_in_pieces_is_no_figure_and_a_charts_bars_drawn_in_cells_stay_one():
    from ingest.loaders.pdf.figures import tabulated

    # Three stacked column titles over one underline cut at each column's gap (the pieces too
    # short to be rules alone), white cells behind two of them; no table under it to adjoin.
    columns = [(270.0, 345.0), (356.0, 427.0), (512.0, 588.0)]
    titles = [("Balance at", "Beginning of", "Period"), ("", "", "Increase"), ("", "Balance at End of", "Period")]
    head = [_cell(t, x0 + 4, 76 + 10 * n) for (x0, _), stack in zip(columns, titles) for n, t in enumerate(stack) if t]
    edges = [269.0, 275.0, 346.0, 350.0, 356.0, 427.0, 431.0, 437.0, 508.0, 512.0, 518.0, 588.0]
    underline = [_rect((a, 108.0, b, 108.7)) for a, b in zip(edges, edges[1:])]
    white = [{**_rect((x0, 75.0, x1, 108.7)), "color": 0xFFFFFF} for x0, x1 in (columns[0], columns[2])]
    region = (269.0, 75.0, 588.0, 108.7)
    assert tabulated([region], underline + white, head, 1) == [region]
    # Bars of a chart, each drawn as cells of one grey, start and end where their values are:
    # joined, they are bars shorter than the frame, not a row's shading across it.
    frame = (17.0, 259.0, 434.0, 398.0)
    spans = [(116.0, 370.0), (116.0, 275.0), (306.0, 402.0), (180.0, 338.0)]
    bars = [
        {**_rect((x, 280.0 + 20 * r, x + 31.7, 293.5 + 20 * r)), "color": 0xDDDDDD}
        for r, (x0, x1) in enumerate(spans)
        for x in range(int(x0), int(x1) - 1, 32)
    ]
    sides = [_rect((17.0, y, 17.7, y + 19.5)) for y in range(259, 390, 20)]
    labels = [_cell(f"7{r}7 MAX", 20, 282 + 20 * r) for r in range(4)] + [
        _cell(str(2011 + r), x1 + 4, 282 + 20 * r) for r, (_, x1) in enumerate(spans)
    ]
    assert tabulated([frame], bars + sides, labels, 1) == []
