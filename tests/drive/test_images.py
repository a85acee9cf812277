"""Images and scans on Drive (#26): a real `ingest run` against the fake Google server, the real
google-api-python-client and RapidOCR. The scans are pages of a corpus text PDF rendered at test
time (tests/pdf/scans.py), so what OCR reads is checked against the page's own text layer."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from ingest.runner.pipeline import run
from tests.drive.helpers import MD, PDF, drive_config, drive_job_file, fetched, md, texts
from tests.pdf.scans import page_png, page_words, recall, scanned_pdf, words

AGREEMENT = "docling/pdf/bookmark_sample.pdf"  # three short pages: a title line, PART headings, clauses
DPI = 150  # a fax's or a phone scan's resolution: the cheaper OCR, and the harder read
RECALL = 0.9  # of the page's words (issue #26's target at 150 dpi)
SURE = 0.8  # the OCR confidence under which a page is a warning (README, Scanned pages and OCR)


def jpeg(png: bytes) -> bytes:
    out = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(out, format="JPEG", quality=85, dpi=(DPI, DPI))
    return out.getvalue()


def picture(fmt: str) -> bytes:
    """A small image with no text in it (a logo, a photo of a wall), in `fmt`."""
    out = io.BytesIO()
    Image.new("RGB", (320, 200), (200, 220, 240)).save(out, format=fmt)
    return out.getvalue()


def chunk_rows(tmp_path: Path, doc_id: str) -> list[tuple[list[str], str, dict]]:
    """(heading path, url, meta) of each of the document's chunks, in order."""
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        rows = db.execute(
            "SELECT heading_path, url, meta FROM chunks WHERE doc_id = ? ORDER BY chunk_index", (doc_id,)
        ).fetchall()
    return [(json.loads(path), url, json.loads(meta)) for path, url, meta in rows]


def ingest_run(job: Path, summary: Path) -> tuple[subprocess.CompletedProcess, dict]:
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(job), "--log-format", "text", "--summary-json", str(summary)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return done, json.loads(summary.read_text()) if summary.exists() else {}


def test_images_on_drive_are_ocred_indexed_and_linked_and_other_types_named(tmp_path, fake_google, corpus):
    g = fake_google
    page = corpus / AGREEMENT
    top = g.add_folder("Company")
    scans = g.add_folder("Scans", top)
    ids = {
        "png": g.add_file("termination.png", scans, page_png(page, 2, DPI), "image/png"),
        "jpg": g.add_file("definitions.jpg", scans, jpeg(page_png(page, 0, DPI)), "image/jpeg"),
        "blank": g.add_file("wall.png", scans, picture("PNG"), "image/png"),
        "gif": g.add_file("logo.gif", scans, picture("GIF"), "image/gif"),
        "webp": g.add_file("photo.webp", scans, picture("WEBP"), "image/webp"),
        "svg": g.add_file("diagram.svg", scans, b'<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"),
    }
    job = drive_job_file(tmp_path, g, top)
    done, summary = ingest_run(job, tmp_path / "summary.json")
    assert done.returncode == 0, done.stderr  # a warning and skips: no failure

    # Listed and fetched: the three readable images; the others named with their type, not fetched.
    assert {c["document"] for c in summary["changes"]} == {ids["png"], ids["jpg"], ids["blank"]}
    assert summary["failed"] == 0 and summary["failures"] == []
    skipped = {s["name"]: (s["type"], s["reason"]) for s in summary["skipped_list"]}
    assert skipped == {
        "Scans/logo.gif": (".gif", "no loader for .gif (image/gif)"),
        "Scans/photo.webp": (".webp", "no loader for .webp (image/webp)"),
        "Scans/diagram.svg": (".svg", "no loader for .svg (image/svg+xml)"),
    }
    assert summary["skipped_by_type"] == {".gif": 1, ".svg": 1, ".webp": 1}
    downloads = fetched(g, 0)
    assert all(ids[k] not in p for p in downloads for k in ("gif", "webp", "svg"))

    # An image without text: a warning naming it, indexed with nothing.
    [warning] = summary["warning_list"]
    assert warning["document"] == ids["blank"] and warning["name"] == "Scans/wall.png"
    assert "OCR found no text on page 1" in warning["warning"]
    assert "Scans/wall.png" in done.stderr + done.stdout  # the log names it by its path too
    assert chunk_rows(tmp_path, ids["blank"]) == []

    # OCRed: the page's own words, every chunk marked OCR with the engine's confidence and
    # linked to the Drive file; the JPEG's PART heading found from the type size as on text.
    read = texts(tmp_path)
    assert recall(page_words(page, 2), read[ids["png"]]) >= RECALL
    assert recall(page_words(page, 0), read[ids["jpg"]]) >= RECALL
    for key, mime in (("png", "image/png"), ("jpg", "image/jpeg")):
        rows = chunk_rows(tmp_path, ids[key])
        link = g.file(ids[key])["webViewLink"]
        assert rows and all(url == link for _, url, _ in rows)
        assert all(meta["ocr"] is True and meta["ocr_confidence"] >= SURE for _, _, meta in rows)
        with sqlite3.connect(tmp_path / "index.sqlite") as db:
            (indexed_mime, uri) = db.execute(
                "SELECT mime_type, uri FROM documents WHERE id = ?", (ids[key],)
            ).fetchone()
        assert indexed_mime == mime and uri == link
    headings = {tuple(words(h)) for path, _, _ in chunk_rows(tmp_path, ids["jpg"]) for h in path}
    assert ("part", "i", "definitions") in headings

    # Nothing changed on Drive: the next run fetches (and OCRs) nothing.
    before = len(g.requests)
    done, again = ingest_run(job, tmp_path / "again.json")
    assert done.returncode == 0, done.stderr
    assert again["unchanged"] == 3 and again["changed"] == 0 and fetched(g, before) == []


@pytest.fixture
def scan_folder(fake_google, corpus):
    """Company/Scans/{contract.pdf (page 2 of the agreement, as an image only), leave.md}."""
    g = fake_google
    top = g.add_folder("Company")
    scans = g.add_folder("Scans", top)
    scan = g.add_file("contract.pdf", scans, scanned_pdf(corpus / AGREEMENT, [1], DPI), PDF)
    g.add_file("leave.md", scans, md("Leave", "Twenty days of paid leave."), MD)
    return g, top, scan


def test_a_scanned_pdf_on_drive_is_ocred_and_with_ocr_never_is_an_error_that_keeps_the_index(
    tmp_path, scan_folder, corpus
):
    g, top, scan = scan_folder
    summary = run(*drive_config(tmp_path, g, top, top={"pdf": {"ocr": "auto"}}))
    assert summary.ok and summary.changed == 2, summary.failures
    rows = chunk_rows(tmp_path, scan)
    assert rows and all(meta["ocr"] is True and meta["ocr_confidence"] >= SURE for _, _, meta in rows)
    assert {url for _, url, _ in rows} == {g.file(scan)["webViewLink"] + "#page=1"}  # a PDF opens at its page
    held = texts(tmp_path)[scan]
    assert recall(page_words(corpus / AGREEMENT, 1), held) >= RECALL

    # OCR turned off: the settings changed for PDFs only, so the scan is read again and refused.
    summary = run(*drive_config(tmp_path, g, top, top={"pdf": {"ocr": "never"}}))
    [failure] = summary.failures
    assert failure.doc_id == scan and not failure.retry  # a verdict on this version, not a fetch fault
    assert failure.error.startswith("Scans/contract.pdf: ")
    assert "no text layer" in failure.error and "ocr: never" in failure.error and "ocr: auto" in failure.error
    assert "install" not in failure.error  # the extra is installed: the setting is what stops it
    assert summary.unchanged == 1  # leave.md: markdown's settings did not change
    assert texts(tmp_path)[scan] == held  # what the index held for it stays
