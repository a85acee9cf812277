"""The EPUB loader on the corpus's books; expected headings read off each book's OPF spine and
chapters by hand."""

from __future__ import annotations

import io
import zipfile

import pytest

from ingest.blocks import Document
from ingest.errors import LoaderError
from ingest.loaders import load_bytes, load_file
from tests.paths import CORPUS

PURVIS = CORPUS / "formats/docling/tests/data/epub/sources/epub_purvis_poetry.epub"
WINTER = CORPUS / "formats/unstructured/example-docs/winter-sports.epub"


def test_chapters_are_sections_in_spine_order():
    loaded = load_file(PURVIS)
    assert loaded.document.title == "Poetry"
    assert loaded.document.meta["author"] == "Sarah Louisa Forten Purvis"
    headings = [b.text for b in loaded.blocks if b.kind == "heading"]
    # spine: titlepage (h1 Poetry), imprint, poetry (16 poems), colophon, uncopyright
    assert headings[:4] == ["Poetry", "Imprint", "The Grave of the Slave", "The Slave Girl’s Address to Her Mother"]
    assert headings[-3:] == ["A Prayer", "Colophon", "Uncopyright"]
    poem = next(b for b in loaded.blocks if b.text.startswith("The cold storms of winter"))
    assert poem.path == ("Poetry", "The Grave of the Slave")


def test_a_book_of_several_chapter_files_keeps_their_order():
    blocks = load_file(WINTER).blocks
    texts = [b.text for b in blocks]
    start = next(i for i, t in enumerate(texts) if "START OF THE PROJECT GUTENBERG EBOOK" in t)
    end = next(i for i, t in enumerate(texts) if "END OF THE PROJECT GUTENBERG EBOOK" in t)
    assert start < end  # the licence's header opens the first spine file, its footer closes the last


def _epub(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"PK\x03\x04 truncated", "not a ZIP"),
        (_epub({"mimetype": "application/epub+zip"}), "no META-INF/container.xml"),
    ],
)
def test_bad_books_are_named(data, said):
    doc = Document(id="b", uri="file:///book.epub", name="book.epub", mime_type="application/epub+zip")
    with pytest.raises(LoaderError) as err:
        load_bytes(data, doc)
    assert "book.epub" in str(err.value) and said in str(err.value)
