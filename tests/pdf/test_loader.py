"""The PDF loader on real files: errors, tables, outline headings, lists, paragraphs, positions."""

from __future__ import annotations

import json
import re

import pymupdf
import pytest

from ingest.errors import LoaderError
from ingest.loaders import load_bytes, load_file, local_document
from ingest.loaders.options import LoaderOptions, PdfOptions

DOCLING = "docling/pdf"


def load_variant(path, data: bytes, ocr: str = "auto"):
    """Load `data` as if it were the file at `path` (a damaged or re-saved copy of it)."""
    options = LoaderOptions(pdf=PdfOptions(ocr=ocr))
    return load_bytes(data, local_document(path, data, path.stat().st_mtime), options)


def test_zero_byte_pdf_is_a_warning(corpus):
    # An empty file is a warning with no blocks, in every format (#25); the run names the file.
    loaded = load_variant(corpus / DOCLING / "sources/multi_page.pdf", b"")
    assert loaded.blocks == () and loaded.warnings == ("is empty (0 bytes): nothing to index",)


def test_corrupt_pdf_names_file_and_cause(corpus):
    path = corpus / DOCLING / "sources/multi_page.pdf"
    data = path.read_bytes()
    garbage = bytes(b ^ 0x5A for b in data[:4096])  # scrambled: no header, no xref, no objects
    with pytest.raises(LoaderError, match=r"multi_page\.pdf.*not a readable PDF"):
        load_variant(path, garbage)


def test_encrypted_pdf_names_file_and_cause(corpus):
    path = corpus / DOCLING / "sources/multi_page.pdf"
    with pymupdf.open(path) as doc:
        data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    with pytest.raises(LoaderError, match=r"multi_page\.pdf.*encrypted.*password"):
        load_variant(path, data)


def _scanned(path, pages: int) -> bytes:
    """The first pages of a real PDF as images only, as a scanner would deliver them."""
    out = pymupdf.open()
    with pymupdf.open(path) as doc:
        for page in list(doc)[:pages]:
            pix = page.get_pixmap(dpi=50)
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pix)
    return out.tobytes()


def test_scanned_pdf_without_ocr_is_an_error_saying_to_ocr(corpus, monkeypatch):
    path = corpus / DOCLING / "sources/multi_page.pdf"
    # Turned off by the config, the advice is the setting (the extra is installed here)...
    with pytest.raises(LoaderError, match=r"multi_page\.pdf.*no text layer.*ocr: never.*ocr: auto") as off:
        load_variant(path, _scanned(path, 2), ocr="never")
    assert "install" not in str(off.value)
    # ...and without the extra, it is the extra.
    monkeypatch.setattr("ingest.loaders.pdf.ocr.available", lambda: False)
    with pytest.raises(LoaderError, match=r"multi_page\.pdf.*no text layer.*OCR extra.*ingest\[ocr\]"):
        load_variant(path, _scanned(path, 2), ocr="auto")


def test_scanned_pages_in_a_text_pdf_without_ocr_give_a_warning(corpus):
    path = corpus / DOCLING / "sources/multi_page.pdf"
    with pymupdf.open(path) as doc, pymupdf.open(stream=_scanned(path, 1), filetype="pdf") as scan:
        doc.insert_pdf(scan)
        data = doc.tobytes()
        pages = doc.page_count
    loaded = load_variant(path, data, ocr="never")
    assert len(loaded.warnings) == 1 and f"page {pages} is a scanned image" in loaded.warnings[0]
    assert loaded.blocks and max(b.page for b in loaded.blocks) < pages


def test_table_rows_match_ground_truth_and_stay_out_of_paragraphs(corpus):
    truth = json.loads((corpus / DOCLING / "groundtruth/2305.03393v1-pg9.json").read_text())
    [table] = truth["tables"]
    loaded = load_file(corpus / DOCLING / "sources/2305.03393v1-pg9.pdf")
    [block] = [b for b in loaded.blocks if b.kind == "table"]
    assert block.header_rows == 1
    assert len(block.rows[0]) == table["data"]["num_cols"]
    assert len(block.rows) == table["data"]["num_rows"]
    lines = block.text.splitlines()
    assert lines[0][0] == "|" and lines[0][1] != "|" and lines[1] == "|" + "---|" * table["data"]["num_cols"]
    cells = {n for c in table["data"]["table_cells"] for n in re.findall(r"\b\d\.\d{3}\b", c["text"])}
    assert cells  # TEDs and mAP figures
    rendered = " ".join(" ".join(r) for r in block.rows)
    assert all(c in rendered for c in cells)
    prose = " ".join(b.text for b in loaded.blocks if b.kind != "table")
    assert not any(c in prose for c in cells)


def test_outline_gives_headings_levels_and_paths(corpus):
    path = corpus / DOCLING / "bookmark_sample.pdf"
    with pymupdf.open(path) as doc:
        toc = doc.get_toc()
    loaded = load_file(path)
    headings = [b for b in loaded.blocks if b.kind == "heading"]
    assert [(h.level, h.text, h.page) for h in headings] == [tuple(t) for t in toc]
    title = loaded.document.title
    for h in headings:
        assert h.path[0] == title and h.path[-1] == h.text and len(h.path) == h.level + 1
    body = [b for b in loaded.blocks if b.kind == "paragraph" and not b.meta.get("band")]
    assert body and all(b.path[-1] in {h.text for h in headings} for b in body)


def test_font_headings_and_list_items_match_ground_truth(corpus):
    truth = json.loads((corpus / DOCLING / "groundtruth/multi_page.json").read_text())
    labels = [t["label"] for t in truth["texts"]]
    loaded = load_file(corpus / DOCLING / "sources/multi_page.pdf")
    headings = [b.text for b in loaded.blocks if b.kind == "heading"]
    items = [b for b in loaded.blocks if b.kind == "list_item"]
    assert headings == [t["text"] for t in truth["texts"] if t["label"] == "section_header"]
    assert len(items) == labels.count("list_item")
    assert not any(b.text.startswith("\u2022") for b in items)  # the bullet glyph is not text
    assert all(b.path[-1] in headings for b in items)


def test_list_levels_follow_marker_indent(corpus):
    loaded = load_file(corpus / "unstructured/example-docs/pdf/list-item-example.pdf")
    items = [b for b in loaded.blocks if b.kind == "list_item"]
    assert items
    by_level: dict[int, set[int]] = {}
    for b in items:
        by_level.setdefault(b.level, set()).add(round(b.bbox[0]))
    levels = sorted(by_level)
    assert levels == list(range(len(levels)))
    # deeper items sit further right than every shallower one
    for a, b in zip(levels, levels[1:]):
        assert min(by_level[b]) > min(by_level[a])


def test_paragraphs_rebuilt_across_lines_columns_and_pages(corpus):
    loaded = load_file(corpus / "unstructured/example-docs/pdf/multi-column-2p.pdf")
    text = "\n".join(b.text for b in loaded.blocks)
    assert "\ufb01" not in text and "\u00ad" not in text  # ligatures and soft hyphens normalised
    assert "diversified topics" in text  # "diversified" was typeset with the fi ligature
    assert "passages in the corpus" in text and "pas- sages" not in text  # "pas-\nsages"
    # The left column's last paragraph on page 1 runs on at the top of page 2 ("... First, ICT").
    [block] = [b for b in loaded.blocks if "QA datasets, it also suffers from two weaknesses" in b.text]
    assert block.page == 1 and block.meta["page_end"] == 2


def test_every_block_has_page_and_position(corpus):
    loaded = load_file(corpus / "unstructured/example-docs/pdf/layout-parser-paper-with-empty-pages.pdf")
    with pymupdf.open(corpus / "unstructured/example-docs/pdf/layout-parser-paper-with-empty-pages.pdf") as doc:
        empty = {p.number + 1 for p in doc if not p.get_text().strip()}
    assert empty  # the file has blank pages; they yield nothing
    for b in loaded.blocks:
        assert b.page is not None and b.page not in empty and b.bbox is not None


def test_three_columns_read_one_after_another(corpus):
    """Reliance's contents page sets its entries in three columns: each is read top to bottom
    before the next one to its right (positions from pymupdf's own text search)."""
    path = corpus / "unstructured/example-docs/pdf/reliance.pdf"
    phrases = [
        "Reliance at a Glance",
        "Stakeholder Value-creation",
        "10-year Financial Highlights",
        "Management Discussion",
        "Business Overview",
        "Awards and Recognition",
        "Integrated Approach",
        "Natural Capital",
        "Report on Corporate Governance",
        "Consolidated",
    ]
    with pymupdf.open(path) as doc:
        where = {p: doc[2].search_for(p)[0] for p in phrases}
    columns = sorted({round(r.x0 / 100) for r in where.values()})
    assert len(columns) == 3  # the phrases do sit in three columns
    text = " ".join(b.text for b in load_file(path).blocks if b.page == 3)
    at = {p: text.index(p) for p in phrases}
    for a in phrases:
        for b in phrases:
            if where[a].x1 < where[b].x0:  # a's column is left of b's
                assert at[a] < at[b], (a, b)


def test_control_characters_a_font_map_gives_are_no_text(tmp_path):
    # Codes below space come out of fonts whose map points glyphs at them; they are no letters,
    # and a chunk showing "grew\x10 by" holds a character no reader or tokenizer expects.
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Revenue grew\x10 by ten\x07 percent in the year.", fontsize=11)
    path = tmp_path / "controls.pdf"
    doc.save(path)
    [block] = load_file(path).blocks
    assert block.text == "Revenue grew by ten percent in the year."
