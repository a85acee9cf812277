"""The document passes of the PDF reader on pages built by hand (no PDF rendered): the margins
pass sets running headers and page numbers apart, the rejoin pass returns a title that opens
the first page to the body, and the heading rules make it the document's heading."""

from __future__ import annotations

import pymupdf

from ingest.blocks import Document
from ingest.loaders.pdf.model import Line
from ingest.loaders.pdf.passes import (
    DOCUMENT_PASSES,
    PAGE_PASSES,
    DocumentWork,
    body_size,
    margins,
    rejoin_bands,
    run_document,
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
