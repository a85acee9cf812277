"""The document card (issue #29): what the cleaners keep out of the body (a court filing's PACER
stamp, a Word file's headers) and the properties a loader read are one chunk of kind "card" after
the document's chunks, never in a body chunk. Expectations come from the files themselves (pymupdf's
own text and metadata, the .docx package's XML), not from ingest's output."""

from __future__ import annotations

import re
import zipfile
from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest
from lxml import etree

from ingest.blocks import Block, BlockMeta, Document, Loaded
from ingest.chunker import ChunkOptions, chunk, chunks_with_card, document_card
from ingest.cleaners import build_chain, clean
from ingest.loaders import load_bytes, load_file, local_document

FILING = "freelaw_doctor/doctor/test_assets/recap_documents/ca5_00516242060.pdf"
HEADERS_DOCX = "python_docx/doc-odd-even-hdrs.docx"
PACER = re.compile(r"(?i)^case:?\s+\S+.*\bdocument:?\s+\d+")
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def chunked(loaded: Loaded, options: ChunkOptions | None = None):
    options = options or ChunkOptions()
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    kept = list(blocks)
    return kept, list(chunks_with_card(loaded, options, kept))


def test_a_filings_stamp_is_in_its_card_once_and_in_no_body_chunk(corpus: Path) -> None:
    path = corpus / FILING
    with pymupdf.open(path) as doc:
        pages = [page.get_text().splitlines() for page in doc]
        created = doc.metadata["creationDate"]
    stamps = [line for lines in pages for line in lines if PACER.match(line)]
    assert len(stamps) == len(pages)  # the stamp heads every page, its page number changing
    loaded = load_file(path)
    kept, chunks = chunked(loaded)
    *body, card = chunks
    assert card.kinds == ("card",) and all("card" not in c.kinds for c in body)
    assert any(line.split() == stamps[0].split() for line in card.text.splitlines())
    # One line for all pages: the stamps differ only in their digits.
    assert sum(bool(PACER.match(line)) for line in card.text.splitlines()) == 1
    case = PACER.match(stamps[0]).group(0).split()[1]  # "21-50498"
    assert not any(PACER.search(c.text) for c in body)
    assert case in card.text
    assert f"{created[2:6]}-{created[6:8]}-{created[8:10]}" in card.text  # the PDF's creation date
    assert card.heading_path == (loaded.document.title,) and card.page_start is None
    # The body is chunk()'s, indexes and ids unmoved; the card comes after it.
    assert body == list(chunk(loaded, ChunkOptions(), kept))
    assert card.chunk_index == len(body) and card.id not in {c.id for c in body}
    assert card.token_count <= ChunkOptions().max_tokens


def test_word_headers_and_core_properties_are_in_the_card(corpus: Path) -> None:
    path = corpus / HEADERS_DOCX
    with zipfile.ZipFile(path) as z:
        parts = [n for n in z.namelist() if re.fullmatch(r"word/header\d*\.xml", n)]
        headers = {"".join(etree.fromstring(z.read(n)).itertext()).strip() for n in parts} - {""}
        core = etree.fromstring(z.read("docProps/core.xml"))
    author = core.findtext("{http://purl.org/dc/elements/1.1/}creator")
    assert headers and author
    _, chunks = chunked(load_file(path))
    *body, card = chunks
    assert card.kinds == ("card",)
    lines = card.text.splitlines()
    assert headers <= set(lines)
    assert f"Author: {author}" in lines
    assert not any(h in c.text for h in headers for c in body)


def test_markdown_gets_a_card_only_from_its_front_matter(tmp_path: Path) -> None:
    plain = tmp_path / "plain.md"
    plain.write_text("# Plain\n\nA paragraph with nothing about it.\n", encoding="utf-8")
    _, chunks = chunked(load_file(plain))
    assert chunks and all(c.kinds != ("card",) for c in chunks)
    fronted = tmp_path / "fronted.md"
    fronted.write_text(
        "---\ntitle: Leave policy\nowner: hr@example.com\ntags: [leave, holidays]\ndraft: true\n---\n\n"
        "# Leave policy\n\nStaff take leave in agreement with their manager.\n",
        encoding="utf-8",
    )
    _, chunks = chunked(load_file(fronted))
    card = chunks[-1]
    assert card.kinds == ("card",)
    assert card.text.splitlines() == ["Leave policy", "fronted.md", "Owner: hr@example.com", "Tags: leave, holidays"]


def test_the_switch_leaves_the_card_out(corpus: Path) -> None:
    loaded = load_file(corpus / FILING)
    kept, on = chunked(loaded)
    _, off = chunked(loaded, ChunkOptions(card=False))
    assert off == on[:-1] and on[-1].kinds == ("card",)


DOC = Document(id="d", uri="file:///d.pdf", name="d.pdf", mime_type="application/pdf", title="Annual report")


def band(text: str, page: int, where: str = "top", segments: tuple[str, ...] = ()) -> Block:
    meta = BlockMeta(band=where)  # type: ignore[typeddict-item]
    if segments:
        meta["segments"] = segments
    return Block("paragraph", text, ("Annual report",), page=page, meta=meta)


def test_furniture_lines_once_in_first_seen_order_page_numbers_left_out() -> None:
    body = Block("paragraph", "Revenue grew.", ("Annual report",), page=1, meta=BlockMeta(band=None))
    blocks = (
        band("Chapter 1 Overview  4", 1, segments=("Chapter 1 Overview", "4")),
        band("12", 1, "bottom"),
        body,
        band("Chapter 1 Overview  5", 2, segments=("Chapter 1 Overview", "5")),
        band("Chapter 2 Results  6", 3, segments=("Chapter 2 Results", "6")),
        band("- 7 -", 3, "bottom"),
        band("Revenue grew.", 3, "bottom"),  # its text is in the body: not shown again
        band("8 Chapter 2 Results", 4),  # an even page's header: its number on the left
    )
    loaded = Loaded(DOC, blocks)
    card = document_card(loaded, [body], ChunkOptions(), 1)
    assert card is not None
    assert card.text.splitlines() == ["Annual report", "d.pdf", "Chapter 1 Overview", "Chapter 2 Results"]
    assert document_card(Loaded(DOC, (body,)), [body], ChunkOptions(), 1) is None  # nothing beyond the title


def test_the_card_keeps_to_the_budget() -> None:
    lines = [band(f"Section {word} of the report", i) for i, word in enumerate("abcdefghijklmnopqrstuvwxyz", 1)]
    loaded = Loaded(DOC, tuple(lines))
    card = document_card(loaded, [], ChunkOptions(max_tokens=40, min_tokens=0, overlap_tokens=0), 0)
    assert card is not None and card.token_count <= 40
    shown = card.text.splitlines()
    assert shown[:3] == ["Annual report", "d.pdf", "Section a of the report"]
    assert 3 < len(shown) < 28  # cut by whole lines, in order
    assert shown[2:] == [b.text for b in lines[: len(shown) - 2]]


def test_pdf_properties_and_page_labels_are_document_facts() -> None:
    doc = pymupdf.open()
    for _ in range(6):
        doc.new_page()
    doc.set_page_labels(
        [
            {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
            {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1},
            {"startpage": 5, "prefix": "A-", "style": "D", "firstpagenum": 1},
        ]
    )
    doc.set_metadata({"author": "Jane Roe", "keywords": "outage, storage", "creationDate": "D:20240303091500Z"})
    doc[0].insert_text((72, 100), "Storage outage review")
    data = doc.tobytes()
    loaded = load_bytes(data, replace(local_document(Path("/x/review.pdf"), data, 0), title="review"))
    assert loaded.document.meta == {
        "author": "Jane Roe",
        "keywords": "outage, storage",
        "created": "2024-03-03",
        "page_labels": "i-ii, 1-3, A-1",
    }
    card = document_card(loaded, list(loaded.blocks), ChunkOptions(), 1)
    assert card is not None
    assert "Page labels: i-ii, 1-3, A-1" in card.text.splitlines()


@pytest.mark.parametrize("name", [FILING, HEADERS_DOCX])
def test_only_one_card_and_it_is_last(corpus: Path, name: str) -> None:
    _, chunks = chunked(load_file(corpus / name))
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    assert [c.kinds == ("card",) for c in chunks] == [False] * (len(chunks) - 1) + [True]


def test_page_labels_that_are_the_page_numbers_are_no_fact() -> None:
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page()
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "D", "firstpagenum": 1}])
    doc[0].insert_text((72, 100), "Three plain pages")
    data = doc.tobytes()
    loaded = load_bytes(data, local_document(Path("/x/plain.pdf"), data, 0))
    assert [p.get_label() for p in pymupdf.open(stream=data)] == ["1", "2", "3"]
    assert "page_labels" not in loaded.document.meta
