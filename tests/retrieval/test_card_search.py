"""The document card in an index (issue #29): `ingest search` finds a court filing by the case
number only its PACER stamp holds, `--no-cards` (and `Filters(exclude_kinds=...)`) leaves cards
out, a card's hit is not widened into the body, and a second run neither duplicates nor drops it."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pymupdf
import pytest

from ingest.search.bm25 import search
from ingest.search.filters import Filters
from tests.retrieval.examples_index import index_folder, ingest

FILING = "freelaw_doctor/doctor/test_assets/recap_documents/ca5_00516242060.pdf"
HEADERS_DOCX = "python_docx/doc-odd-even-hdrs.docx"
STAMP = re.compile(r"(?i)^case:?\s+(\S+)\s+document:?\s+(\d+)")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory, corpus: Path) -> tuple[Path, Path, str, str]:
    where = tmp_path_factory.mktemp("cards")
    docs = where / "docs"
    docs.mkdir()
    shutil.copy(corpus / FILING, docs / "filing.pdf")
    shutil.copy(corpus / HEADERS_DOCX, docs / "headers.docx")
    (docs / "notes.md").write_text("# Notes\n\nNothing about any case here.\n", encoding="utf-8")
    with pymupdf.open(docs / "filing.pdf") as doc:
        stamps = [m for line in doc[0].get_text().splitlines() if (m := STAMP.match(line.strip()))]
    assert stamps
    found = stamps[0]
    index = index_folder(docs, where)
    cfg = where / "job.json"
    return index, cfg, found.group(1), found.group(2)


def cli_hits(index: Path, query: str, *flags: str) -> list[dict]:
    done = ingest("search", query, "--index", index, "--json", "-k", "10", "--mode", "bm25", *flags)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_case_number_finds_the_filings_card(indexed) -> None:
    index, _, case, filing_id = indexed
    hits = cli_hits(index, f"{case} {filing_id}")
    cards = [h for h in hits if h["chunk"]["kinds"] == ["card"]]
    assert cards and cards[0]["rank"] == 1
    assert cards[0]["chunk"]["source"]["name"] == "filing.pdf"
    assert case in cards[0]["chunk"]["text"] and filing_id in cards[0]["chunk"]["text"]
    assert cards[0]["context"] == cards[0]["chunk"]["text"]  # a card is no window into the body


def test_no_cards_leaves_them_out(indexed) -> None:
    index, _, case, filing_id = indexed
    hits = cli_hits(index, f"{case} {filing_id}", "--no-cards")
    assert all(h["chunk"]["kinds"] != ["card"] for h in hits)
    assert all(filing_id not in h["context"] for h in hits)  # only the stamp held the filing id
    api = search(index, f"{case} {filing_id}", k=10, filters=Filters(exclude_kinds="card"))
    assert api and all("card" not in h.chunk.kinds for h in api)
    assert any("card" in h.chunk.kinds for h in search(index, f"{case} {filing_id}", k=10))


def test_the_terminal_output_names_a_card(indexed) -> None:
    index, _, case, _ = indexed
    done = ingest("search", case, "--index", index, "-k", "1", "--mode", "bm25")
    assert done.returncode == 0, done.stderr
    assert "card:" in done.stdout.splitlines()[0]


def cards(index: Path) -> list[tuple[str, int, str]]:
    with sqlite3.connect(index) as conn:
        rows = conn.execute("SELECT doc_id, chunk_index, text FROM chunks WHERE kinds = '[\"card\"]'").fetchall()
        counts = dict(conn.execute("SELECT doc_id, count(*) FROM chunks GROUP BY doc_id").fetchall())
    assert all(index_ == counts[doc] - 1 for doc, index_, _ in rows)  # each card last in its document
    return sorted(rows)


def test_a_rerun_keeps_one_card_a_document(indexed) -> None:
    index, cfg, _, _ = indexed
    before = cards(index)
    assert sorted(Path(doc).name for doc, _, _ in before) == ["filing.pdf", "headers.docx"]  # notes.md: none
    again = ingest("run", cfg, "--reprocess", "--quiet")
    assert again.returncode == 0, again.stdout + again.stderr
    assert cards(index) == before
