"""Generated PDFs for the loader tests: a Page that writes lines top to bottom with pymupdf, filler
prose, and the loader + default cleaners run on the saved file."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pymupdf

from ingest.blocks import Document
from ingest.chunker import ChunkOptions, chunk
from ingest.cleaners import build_chain, clean
from ingest.loaders.pdf import loader as pdf

WORDS = (
    "the survey of water quality in the northern district found that most wells met the standard "
    "while a few near the old mill held more iron than the limit allows and were closed for repair "
)


def prose(n_words: int, seed: int = 0) -> str:
    words = WORDS.split()
    return " ".join(words[(seed + i) % len(words)] for i in range(n_words)).capitalize() + "."


class Page:
    """Writes lines top to bottom on one pymupdf page."""

    def __init__(self, doc: pymupdf.Document, width: float = 595, height: float = 842):
        self.page = doc.new_page(width=width, height=height)
        self.y = 90.0

    def text(self, x: float, y: float, text: str, size: float = 10, font: str = "helv") -> None:
        self.page.insert_text((x, y), text, fontsize=size, fontname=font)

    def para(
        self, text: str, x: float = 60, width: int = 90, size: float = 10, font: str = "helv", gap: float = 8
    ) -> None:
        for line in textwrap.wrap(text, width):
            self.y += size * 1.25
            self.text(x, self.y, line, size, font)
        self.y += gap

    def heading(self, text: str, size: float = 10, font: str = "hebo") -> None:
        self.y += 10
        self.para(text, size=size, font=font, gap=4)


def other_information(page: Page, titles: tuple[str, ...]) -> None:
    """A 10-Q's Part I heading and prose, then Part II's heading and its first items in plain
    type, each alone over the prose that answers it."""
    page.heading("Part I - Financial Information")
    page.para(prose(50, 9))
    page.heading("Part II - Other Information")
    for n, title in enumerate(titles):
        page.para(title, gap=4)
        page.para(prose(40, n))


def load(doc: pymupdf.Document, tmp_path: Path, name: str = "doc.pdf"):
    path = tmp_path / name
    doc.save(path)
    document = Document(id=name, uri=path.as_uri(), name=name, mime_type="application/pdf")
    loaded = pdf.load(path.read_bytes(), document)
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    return loaded, list(blocks)


def chunks_of(loaded, blocks) -> list:
    return list(chunk(loaded, ChunkOptions(max_tokens=400, min_tokens=0, overlap_tokens=0), blocks=blocks))


def all_text(blocks) -> str:
    return "\n".join(b.text for b in blocks)


def ruled_statement(page, top: float, labels: tuple[str, ...], size: float, seed: int) -> float:
    """A ruled statement table as a filing draws it: a label and three amounts a row, a rule over
    each row and under the last, four column rules; returns its bottom."""
    pitch = 12
    for r, label in enumerate(labels):
        y = top + r * pitch
        page.draw_line((55, y), (545, y), width=0.5)
        page.insert_text((57, y + 9), label, fontsize=size)
        for c, x in enumerate((370, 436, 502)):
            page.insert_text((x, y + 9), f"{(seed + 3) * (r + 2) * (c + 5) * 7:,}", fontsize=size)
    bottom = top + len(labels) * pitch
    page.draw_line((55, bottom), (545, bottom), width=0.5)
    for x in (55, 360, 430, 496, 545):
        page.draw_line((x, top), (x, bottom), width=0.5)
    return bottom


def paper_page(width: float = 612, height: float = 792) -> tuple[pymupdf.Document, pymupdf.Page]:
    """A new one-page document with a paper's opening text (120 words, 10 pt) from y=80 down."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    y = 80.0
    for line in textwrap.wrap(prose(120, 0), 95):
        page.insert_text((72, y), line, fontsize=10)
        y += 12.5
    return doc, page
