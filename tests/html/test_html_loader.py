"""The HTML loader on the corpus's saved pages (docling's and unstructured's test pages) and on
small pages written here; expected values read off the pages' markup by hand."""

from __future__ import annotations

import pytest

from ingest.blocks import Document
from ingest.cleaners import clean_blocks
from ingest.errors import LoaderError
from ingest.loaders import load_bytes, load_file
from tests.paths import CORPUS

DOCLING = CORPUS / "formats/docling/tests/data/html/sources"
UNSTRUCTURED = CORPUS / "formats/unstructured/example-docs"


def page(html: str | bytes, name: str = "page.html"):
    data = html.encode() if isinstance(html, str) else html
    return load_bytes(data, Document(id=name, uri=f"file:///{name}", name=name, mime_type="text/html", title="page"))


def test_rowspan_and_colspan_are_merges_with_the_th_row_as_header():
    (table,) = [b for b in load_file(DOCLING / "example_04.html").blocks if b.kind == "table"]
    assert table.rows == (
        ("Header 1", "Header 2 & 3 (colspan)", ""),
        ("Row 1 & 2, Col 1 (rowspan)", "Row 1, Col 2", "Row 1, Col 3"),
        ("", "Row 2, Col 2 & 3 (colspan)", ""),
        ("Row 3, Col 1", "Row 3, Col 2", "Row 3, Col 3"),
    )
    assert table.header_rows == 1
    assert set(table.meta["covered"]) == {(0, 2), (2, 0), (2, 2)}
    assert set(table.meta["merges"]) == {(0, 1, 0, 2), (1, 0, 2, 0), (2, 1, 2, 2)}
    # the merged_cells cleaner reads them: the shadows are no longer empty cells in the text
    (cleaned,) = [b for b in clean_blocks(load_file(DOCLING / "example_04.html")) if b.kind == "table"]
    assert "Row 1 & 2, Col 1 (rowspan)" in cleaned.text


def test_nested_lists_keep_their_levels_and_a_wrapper_item_takes_none():
    items = [(b.text, b.level) for b in load_file(DOCLING / "example_07.html").blocks]
    assert items[:3] == [("Asia", 0), ("China", 1), ("Japan", 1)]
    assert ("Switzerland", 1) in items and ("Bern", 2) in items and ("Africa", 0) in items


def test_ordered_lists_number_from_start():
    blocks = load_file(DOCLING / "example_01.html").blocks
    markers = [(b.text, b.meta.get("marker")) for b in blocks if b.kind == "list_item"]
    assert ("First item in ordered list", "1.") in markers
    assert ("First item in ordered list with start", "42.") in markers
    assert ("First item in unordered list", "-") in markers


def test_headings_make_paths_and_the_lone_h1_is_the_title():
    loaded = load_file(DOCLING / "example_01.html")
    assert loaded.document.title == "Introduction"
    para = next(b for b in loaded.blocks if b.text == "Some background information here.")
    assert para.path == ("Introduction", "Background")


def test_code_keeps_its_language_and_a_hidden_pre_is_dropped():
    blocks = page(
        "<h1>T</h1><pre><code class='language-python'>\nimport os\nprint(1)\n</code></pre>"
        "<pre hidden><code>secret</code></pre><p>Run <code>pip</code> first.</p>"
    ).blocks
    code = [b for b in blocks if b.kind == "code"]
    assert [(c.text, c.lang) for c in code] == [("import os\nprint(1)", "python")]
    assert any(b.text == "Run pip first." for b in blocks)


def test_chrome_is_furniture_and_main_is_the_content():
    html = """<html><head><title>Tea | Shop</title><style>p{}</style><script>var x=1</script></head><body>
      <header><a href="/">Shop</a><nav><ul><li>Home</li><li>About</li></ul></nav></header>
      <div class="promo">Sign up for our newsletter</div>
      <main><article><header><h1>Green tea</h1><p>By Ann</p></header>
        <p>Green tea is <b>steeped</b> at 80 degrees.</p>
        <p style="display: none">tracking pixel</p><p aria-hidden="true">icon</p>
        <blockquote><p>Tea is calm.</p></blockquote>
        <dl><dt>Sencha</dt><dd>Steamed leaves</dd></dl>
        <aside>Related: coffee</aside></article></main>
      <footer>(c) 2025 Shop</footer></body></html>"""
    loaded = page(html)
    layers = {b.text: b.layer for b in loaded.blocks}
    assert layers["Sign up for our newsletter"] == "furniture"  # outside main
    assert layers["Home"] == "furniture" and layers["(c) 2025 Shop"] == "furniture"
    assert layers["Related: coffee"] == "furniture"
    assert layers["By Ann"] == "body"  # an article's own header is its content
    assert not {"tracking pixel", "icon", "var x=1", "p{}"} & set(layers)
    kept = [(b.kind, b.text) for b in clean_blocks(loaded)]
    assert kept == [
        ("heading", "Green tea"),
        ("paragraph", "By Ann"),
        ("paragraph", "Green tea is steeped at 80 degrees."),
        ("quote", "Tea is calm."),
        ("paragraph", "Sencha: Steamed leaves"),
    ]
    assert loaded.document.title == "Green tea"


def test_a_table_without_th_takes_its_first_row_as_header_and_a_layout_table_is_walked():
    blocks = page(
        "<table><tr><td>Name</td><td>Qty</td></tr><tr><td>Tea</td><td>3</td></tr></table>"
        "<table role='presentation'><tr><td><p>Laid out</p></td><td><p>text</p></td></tr></table>"
    ).blocks
    table = blocks[0]
    assert table.kind == "table" and table.header_rows == 1 and table.meta["header_guessed"]
    assert [(b.kind, b.text) for b in blocks[1:]] == [("paragraph", "Laid out"), ("paragraph", "text")]


def test_line_breaks_and_blank_lines_of_an_unstyled_page():
    blocks = load_file(UNSTRUCTURED / "ideas-page.html").blocks
    assert blocks[0].text == "January 2023"  # <br><br> parts paragraphs in a page set out without <p>
    assert len(blocks) > 3


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ('<meta charset="windows-1251"><p>Привет</p>'.encode("cp1251"), "Привет"),
        ('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>caf\u00e9 \u2019</p>'.encode(
            "cp1252"), "caf\u00e9 \u2019"),  # latin-1 as the web reads it: windows-1252
        ("\ufeff<p>\u65e5\u672c</p>".encode("utf-16-le"), "\u65e5\u672c"),
        ('<?xml version="1.0" encoding="ISO-8859-15"?><html><body><p>\u20ac 5</p></body></html>'.encode(
            "iso-8859-15"), "\u20ac 5"),
    ],
)  # fmt: skip
def test_the_encoding_is_the_one_the_page_declares(data, expected):
    loaded = page(data)
    assert [b.text for b in loaded.blocks] == [expected]
    assert loaded.warnings == ()


def test_a_utf16_page_with_a_bom_reads():
    loaded = load_file(UNSTRUCTURED / "example-steelJIS-datasheet-utf-16.html")
    assert loaded.document.title == "SteelJIS: Japanese Steels and Alloys"
    assert any("日本語" in b.text for b in loaded.blocks)


def test_page_level_header_and_nav_of_a_real_page_are_furniture():
    loaded = load_file(UNSTRUCTURED / "example-with-scripts.html")
    home = next(b for b in loaded.blocks if b.text == "Home")
    assert home.layer == "furniture"
    title = next(b for b in loaded.blocks if b.kind == "heading")
    assert title.text == "Russian Offensive Campaign Assessment, December 13" and title.layer == "body"
    assert not any("function(" in b.text for b in loaded.blocks)  # scripts dropped


def test_a_binary_file_is_named():
    with pytest.raises(LoaderError) as err:
        page(b"\x89PNG\r\n\x1a\n\x00\x00\x00", name="broken.html")
    assert "broken.html" in str(err.value) and "binary" in str(err.value)


def test_an_empty_page_is_a_warning_as_in_every_format():
    loaded = page(b"", name="empty.html")
    assert loaded.blocks == () and loaded.warnings == ("is empty (0 bytes): nothing to index",)
