"""Court filings and long PDFs: no gutter line number, PACER stamp or page number in any chunk,
and no body text lost on the way. Expectations come from the documents themselves (pymupdf's
plain text, the pleading-paper convention), not from this loader's output."""

from __future__ import annotations

import re
from collections import Counter

import pymupdf
import pytest

from ingest.chunker import ChunkOptions, chunk
from ingest.chunker.units import display_text
from ingest.cleaners import build_chain, clean
from ingest.loaders import load_bytes, local_document
from ingest.loaders.options import LoaderOptions, PdfOptions

FREELAW = "freelaw_doctor/doctor/test_assets"
PACER = re.compile(r"(?i)\bcase:?\s+\S+\s+document:?\s+\d+")
DASHED = re.compile(r"(?:^|\s)-\s?\d{1,3}\s?-(?:\s|$)")
PAGE_OF = re.compile(r"(?i)\bpage \d+ of \d+")
# Four small numbers in a row: what a line-number gutter leaves when it is read into the text.
GUTTER_RUN = re.compile(r"\b(\d{1,2})\s+(\d{1,2})\s+(\d{1,2})\s+(\d{1,2})\b")


def run(path, ocr: str = "auto"):
    data = path.read_bytes()
    loaded = load_bytes(data, local_document(path, data, 0), LoaderOptions(pdf=PdfOptions(ocr=ocr)))
    blocks, report = clean(loaded.blocks, loaded.document, build_chain([]))
    blocks = list(blocks)
    chunks = list(chunk(loaded, ChunkOptions(), blocks=blocks))
    return loaded, blocks, chunks, report


def words(text: str) -> Counter:
    return Counter(re.findall(r"\w+", text.lower()))


def raw_lines(path) -> list[list[str]]:
    """pymupdf's own plain text (ligatures expanded) with a naive undoing of line-end hyphens."""
    with pymupdf.open(path) as doc:
        pages = [re.sub(r"-\n(?=[a-zà-ÿ])", "", page.get_text(flags=pymupdf.TEXT_MEDIABOX_CLIP)) for page in doc]
    return [[line.strip() for line in text.splitlines() if line.strip()] for text in pages]


def chunk_words(chunks) -> Counter:
    out = Counter()
    for c in chunks:
        out.update(words(c.text))
    for title in {t for c in chunks for t in c.heading_path}:
        out.update(words(title))
    return out


FILINGS = [
    f"{FREELAW}/recap_extract/gov.uscourts.cacd.652774.40.0.pdf",
    f"{FREELAW}/recap_extract/gov.uscourts.cand.203070.27.0.pdf",
    f"{FREELAW}/recap_documents/ca5_00516242060.pdf",
    f"{FREELAW}/missouri.pdf",
    "unstructured/example-docs/pdf/layout-parser-paper-with-empty-pages.pdf",
    "unstructured/example-docs/pdf/multi-column-2p.pdf",
    "unstructured/example-docs/language-docs/fr_olap.pdf",
]


@pytest.mark.parametrize("name", FILINGS)
def test_no_stamp_page_number_or_gutter_in_chunks(corpus, name):
    _, _, chunks, _ = run(corpus / name)
    assert chunks
    for c in chunks:
        assert not PACER.search(c.text), c.text[:200]
        assert not DASHED.search(c.text), c.text[:200]
        assert not PAGE_OF.search(c.text), c.text[:200]
        assert not GUTTER_RUN.search(c.text), c.text[:200]


@pytest.mark.parametrize("name", FILINGS)
def test_body_text_kept(corpus, name):
    """Every word of pymupdf's plain text survives cleaning, except those on furniture lines."""
    path = corpus / name
    furniture = re.compile(
        r"^(\d{1,2}|-\s?\d+\s?-|case:? .*(document|page).*|no\. 21-50498|(\d+ )?z\. shen et al\.|order|"
        r"8:16-cv-1261-doc \(kesx\)|arxiv:\S+ +\[cs\.\w\w\] +\d+ \w+ \d{4})$",
        re.I,
    )
    expected = Counter()
    for lines in raw_lines(path):
        for line in lines:
            if not furniture.match(line):
                expected.update(words(line))
    got = Counter()
    for block in run(path)[1]:  # blocks: a heading over an empty section opens no chunk
        got.update(words(block.text))
    kept = sum((expected & got).values()) / sum(expected.values())
    assert kept >= 0.985, kept


def test_pleading_gutter_removed_every_page(corpus):
    path = corpus / FREELAW / "recap_extract/gov.uscourts.cacd.652774.40.0.pdf"
    pages = len(raw_lines(path))
    _, blocks, _, report = run(path)
    assert report["line_numbers"]["lines"] == 28 * pages  # pleading paper numbers lines 1 to 28
    # The numbered paragraphs of the order keep their numbers: they sit inside the body's edge.
    shown = [display_text(b) for b in blocks]
    assert any(t.startswith("1. Defendant Leon") for t in shown)
    assert any(t.startswith("2. Defendant Leon") for t in shown)


def test_running_header_recurring_on_every_page_is_removed(corpus):
    path = corpus / FREELAW / "recap_documents/ca5_00516242060.pdf"
    pages = raw_lines(path)
    header = "No. 21-50498"
    assert sum(header in lines for lines in pages) == len(pages)  # on every page, once as the docket no.
    _, blocks, chunks, report = run(path)
    assert sum(c.text.count(header) for c in chunks) <= 1
    assert report["running_headers"]["lines"] >= 2 * len(pages) - 1
    # A page's last line may be its number; those go, the text above them stays.
    assert not any(b.text.strip().isdigit() and b.meta.get("band") for b in blocks)


def test_short_documents_keep_their_body(corpus):
    """One page: nothing recurs, so nothing is judged a running header; every word stays."""
    path = corpus / "unstructured/example-docs/pdf/header-test-doc.pdf"
    expected = Counter()
    for lines in raw_lines(path):
        for line in lines:
            expected.update(words(line))
    got = chunk_words(run(path)[2])
    assert expected - got == Counter()


def test_two_page_filing_loses_only_its_stamps(corpus):
    """Its two scanned pages read for their text layer only (no OCR): a stamp line on each."""
    path = corpus / FREELAW / "recap_extract/gov.uscourts.cand.203070.27.0.pdf"
    _, blocks, chunks, report = run(path, ocr="never")
    assert report["running_headers"]["lines"] == 2
    assert "2/2/09" in " ".join(c.text for c in chunks)  # the judge's date stamp is body text


STAMP = re.compile(r"(?i)^\W*(filed|received|entered|lodged)\b")
DATE = re.compile(
    r"(?i)^\W*(\d{1,2}/\d{1,2}/\d{2,4}|(january|february|march|april|may|june|july|august|"
    r"september|october|november|december) \d{1,2}, \d{4})\W*$"
)


@pytest.mark.parametrize("name", [f for f in FILINGS if f.startswith(FREELAW)])
def test_filing_stamps_and_dates_are_not_headings(corpus, name):
    """Clerks' stamps ("FILED", a date, a lone letter) are bold and short like headings, but head
    nothing: they stay text, and the sections of the filing keep their headings."""
    _, blocks, chunks, _ = run(corpus / name)
    titles = {b.text for b in blocks if b.kind == "heading"} | {t for c in chunks for t in c.heading_path}
    for title in titles:
        assert not STAMP.match(title), title
        assert not DATE.match(title), title
        assert sum(c.isalpha() for c in title) >= 2, title


def test_fifth_circuit_stamp_stays_text_under_the_court_heading(corpus):
    _, blocks, chunks, _ = run(corpus / FREELAW / "recap_documents/ca5_00516242060.pdf")
    headings = [b.text for b in blocks if b.kind == "heading"]
    # The opinion's own sections, as numbered in the filing, head its chunks.
    for section in ("I. Facts & Procedural Background", "II. Standard of Review", "III. Discussion", "IV. Conclusion"):
        assert section in headings
    text = " ".join(c.text for c in chunks)
    assert "FILED" in text and "March 16, 2022" in text
