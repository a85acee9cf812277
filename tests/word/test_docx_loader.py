"""The .docx loader on real documents: structure, tables, furniture, fields, text boxes, errors."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from ingest.blocks import Loaded
from ingest.cleaners import build_chain, clean
from ingest.errors import LoaderError
from ingest.loaders import load_bytes, load_file, local_document


def load(path: Path) -> Loaded:
    return load_file(path)


def cleaned(loaded: Loaded) -> list:
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    return list(blocks)


def test_heading_paths_follow_styles_and_the_title_is_the_root(corpus):
    loaded = load(corpus / "docling/docx/sources/unit_test_headers.docx")
    headings = [(b.level, b.path) for b in loaded.blocks if b.kind == "heading"]
    # The Title style is the document's only Title: it roots every path, Heading 1 sits below it.
    assert headings[0] == (1, ("Test Document",))
    assert (1, ("Test Document", "Section 1")) in headings
    assert (3, ("Test Document", "Section 1", "Section 1.2", "Section 1.2.3")) in headings
    # A Heading 3 directly under a Heading 1 nests under it; the next Heading 2 replaces it.
    assert (3, ("Test Document", "Section 2", "Section 2.1.1")) in headings
    assert (2, ("Test Document", "Section 2", "Section 2.1")) in headings
    para = next(b for b in loaded.blocks if b.text == "Paragraph 1.2.3.1")
    assert para.path == ("Test Document", "Section 1", "Section 1.2", "Section 1.2.3")
    assert loaded.document.title == "Test Document"


def test_numbered_headings_keep_their_number_and_lists_their_levels(corpus):
    loaded = load(corpus / "docling/docx/sources/list_after_num_headers.docx")
    headings = [b.text for b in loaded.blocks if b.kind == "heading"]
    assert "1. ĐỐI TƯỢNG ÁP DỤNG" in headings  # numbering.xml: decimal, lvlText "%1."
    assert "1. Glosario" in headings
    items = [b for b in loaded.blocks if b.kind == "list_item"]
    assert [b.level for b in items[:2]] == [1, 1]
    assert items[2].text == "Term 1: Definition 1" and items[2].level == 0
    # The file name roots the paths: the document has two level-2 headings and no single top.
    assert loaded.document.title == "list_after_num_headers"
    assert items[2].path == ("list_after_num_headers", "1. Glosario")


def test_list_markers_count_like_word(corpus):
    loaded = load(corpus / "docling/docx/sources/word_sample.docx")
    items = [(b.text, b.meta["marker"]) for b in loaded.blocks if b.kind == "list_item"]
    assert items[:6] == [
        ("You can relax and look around", "•"),
        ("Paddle about", "•"),
        ("Enjoy summer warmth", "•"),
        ("Wear sunglasses", "1."),
        ("Don’t forget to drink water", "2."),
        ("Use sun cream", "3."),
    ]
    kinds = {b.text: b.kind for b in loaded.blocks}
    assert kinds["Figure 1: This is a cute duckling"] == "caption"
    assert kinds["I like to eat leaves"] == "quote"


def test_list_levels_and_markers_from_numbering_properties(corpus):
    loaded = load(corpus / "unstructured/example-docs/example-list-items-multiple.docx")
    items = [(b.level, b.meta["marker"]) for b in loaded.blocks if b.kind == "list_item"]
    # numbering.xml: "%1)" decimal, "%2)" lowerLetter, "%3)" lowerRoman, "(%4)", "(%5)" lowerLetter.
    assert items[2:] == [(0, "1)"), (0, "2)"), (1, "a)"), (1, "b)"), (2, "i)"), (2, "ii)"), (3, "(1)"), (4, "(a)")]
    nested = load(corpus / "unstructured/example-docs/category-level.docx")
    levels = [(b.text, b.level) for b in nested.blocks if b.kind == "list_item"]
    assert levels == [("A top level list item", 0), ("Next level", 1), ("Same", 1), ("Second top-level list item", 0)]


def test_merged_cells_appear_once_and_covered_cells_are_listed(corpus):
    # Each cell names the grid positions it spans: "34-123" spans rows 3-4 and columns 1-3.
    loaded = load(corpus / "docx2python/merged_cells.docx")
    table = next(b for b in loaded.blocks if b.kind == "table")
    assert table.rows == (
        ("0-0", "0-12", "", "0-3"),
        ("12-0", "1-1", "1-2", "1-3"),
        ("", "2-1", "2-2", "2-3"),
        ("3-0", "34-123", "", ""),
        ("4-0", "", "", ""),
    )
    assert set(table.meta["covered"]) == {(0, 2), (2, 0), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3)}
    assert set(table.meta["merges"]) == {(0, 1, 0, 2), (1, 0, 2, 0), (3, 1, 4, 3)}
    assert table.text.splitlines()[0] == "|0-0|0-12||0-3|"  # a covered cell is empty: two bare pipes


def test_incomplete_rows_are_padded_to_the_grid(corpus):
    loaded = load(corpus / "unstructured/example-docs/tables-with-incomplete-rows.docx")
    tables = [b for b in loaded.blocks if b.kind == "table"]
    assert tables[0].rows == (("a", "b"), ("c", "d"))
    assert tables[1].rows == (("a", ""), ("b", "c"))
    assert all(len({len(r) for r in t.rows}) == 1 for t in tables)


def test_nested_table_text_stays_in_its_cell(corpus):
    loaded = load(corpus / "docling/docx/sources/docx_rich_cells.docx")
    outer = [b for b in loaded.blocks if b.kind == "table" and "Rich cell" in b.text][0]
    cell = outer.rows[2][1]
    assert "A nested table" in cell and "Cell 1" in cell and "Cell 3" in cell


@pytest.mark.parametrize(
    "name, header, footer",
    [
        ("unstructured/example-docs/docx-hdrftr.docx", "First header para", "para1"),
        ("python_docx/hdr-header-footer.docx", "Header for section-1", "Footer for section 1"),
    ],
)
def test_headers_and_footers_are_furniture_and_gone_after_cleaning(corpus, name, header, footer):
    loaded = load(corpus / name)
    furniture = " ".join(b.text for b in loaded.blocks if b.layer == "furniture")
    assert header in furniture and footer in furniture
    body = " ".join(b.text for b in cleaned(loaded))
    assert header not in body and footer not in body
    assert body  # the body itself is kept


def test_even_and_first_page_headers_are_read(corpus):
    even = load(corpus / "python_docx/doc-odd-even-hdrs.docx")
    assert {(b.meta["type"], b.text) for b in even.blocks if b.layer == "furniture"} == {
        ("even", "Even page header."),
        ("default", "Odd page header."),
    }
    first = load(corpus / "python_docx/sct-first-page-hdrftr.docx")
    assert ("first", "First Page Header (section 2)") in {
        (b.meta["type"], b.text) for b in first.blocks if b.layer == "furniture"
    }


def test_page_fields_never_reach_the_text(corpus):
    # Footers hold "- PAGE -" in text boxes; Word's cached page number (6) must not survive.
    loaded = load(corpus / "docx2python/libreoffice_conversion.docx")
    footers = [b.text for b in loaded.blocks if b.layer == "furniture" and b.meta["part"] == "footer"]
    assert footers and all(not any(ch.isdigit() for ch in t) for t in footers)
    # word_sample numbers its caption with SEQ (kept) and its footer page with PAGE (dropped).
    sample = load(corpus / "docling/docx/sources/word_sample.docx")
    assert any(b.text == "Figure 1: This is a cute duckling" for b in sample.blocks)


def test_text_boxes_are_read(corpus):
    loaded = load(corpus / "docling/docx/sources/textbox.docx")
    text = " ".join(b.text for b in loaded.blocks)
    assert "Suggested Reportable Symptoms" in text
    assert "Case closed." in text
    assert any(b.meta.get("textbox") for b in loaded.blocks)


def test_hyperlinks_are_text_with_a_link_mark(corpus):
    loaded = load(corpus / "docling/docx/sources/unit_test_formatting.docx")
    block = next(b for b in loaded.blocks if b.text.startswith("Normal italic bold underline"))
    (link,) = [m for m in block.marks if m.kind == "link"]
    assert block.text[link.start : link.end] == "hyperlink"
    assert link.attrs["href"] == "https://github.com/DS4SD/docling"


def test_strict_ooxml_opens(corpus):
    loaded = load(corpus / "docling/docx/sources/Strict.docx")
    transitional = load(corpus / "docling/docx/sources/Transitional.docx")
    assert [b.text for b in loaded.blocks] == [b.text for b in transitional.blocks]
    assert loaded.blocks


def _document(path: Path, data: bytes):
    return local_document(path.with_suffix(".docx"), data, 0)


def test_zero_byte_file_says_it_is_empty(corpus, tmp_path):
    # Not a failure: an empty file is a warning with no blocks, in every format (#25).
    loaded = load_bytes(b"", _document(tmp_path / "empty.docx", b""))
    assert loaded.blocks == () and loaded.warnings == ("is empty (0 bytes): nothing to index",)


def test_not_a_zip_says_so(corpus):
    data = (corpus / "docling/docx/groundtruth/word_sample.docx.md").read_bytes()
    with pytest.raises(LoaderError, match="not a ZIP archive") as err:
        load_bytes(data, _document(Path("word_sample.md"), data))
    assert "word_sample.docx" in str(err.value)  # the error names the file


def test_truncated_docx_is_a_clear_loader_error(corpus):
    data = (corpus / "docling/docx/sources/word_sample.docx").read_bytes()
    with pytest.raises(LoaderError, match="ZIP|damaged"):
        load_bytes(data[: len(data) // 2], _document(Path("cut.docx"), data))


def test_a_zip_without_a_word_document_is_refused(corpus):
    xlsx = next((corpus / "openpyxl").rglob("*.xlsx"))
    data = xlsx.read_bytes()
    assert zipfile.is_zipfile(xlsx)
    with pytest.raises(LoaderError, match="not a Word document"):
        load_bytes(data, _document(xlsx, data))
