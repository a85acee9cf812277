"""`ingest inspect --html` opened in a real headless Chromium (Debian's, driven by Playwright):
the page loads offline, asks for nothing outside itself, and shows the removals of a real PDF
(running headers, page numbers) and of a tracked-changes .docx, each in its cleaner's colour."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = Path("/usr/bin/chromium")  # Debian's package; .ci/run installs it with apt-get
FILING = "freelaw_doctor/doctor/test_assets/recap_documents/ca5_00516242060.pdf"
TRACKED = "open_xml_powertools/TestFiles/RP/RP002-Deleted-Text.docx"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    assert CHROMIUM.exists(), "install Debian's chromium (apt-get install -y chromium), as .ci/run does"
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as pw:
        # A persistent context is how Playwright takes --user-data-dir (a fresh, throwaway profile).
        context = pw.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            viewport={"width": 1280, "height": 900},
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield context
        context.close()


def html_of(tmp_path: Path, document: Path) -> Path:
    out = tmp_path / (document.stem + ".html")
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "inspect", str(document), "--html", str(out)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    return out


def open_offline(browser, page_file: Path):
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.route("**/*", lambda route: route.continue_() if route.request.url == page_file.as_uri() else route.abort())
    page.goto(page_file.as_uri(), wait_until="load")
    assert requests == [page_file.as_uri()]  # nothing fetched but the page itself
    return page


def test_pdf_running_headers_and_page_numbers_highlighted(browser, corpus, tmp_path):
    page = open_offline(browser, html_of(tmp_path, corpus / FILING))
    headers = page.locator("del.removal[data-cleaner='running_headers']")
    numbers = page.locator("del.removal[data-cleaner='page_numbers']")
    assert headers.count() >= 10 and numbers.count() >= 5
    assert "Case: 21-50498" in headers.first.inner_text()
    assert numbers.nth(0).inner_text().strip().isdigit()
    style = headers.first.evaluate("e => [getComputedStyle(e).textDecorationLine, getComputedStyle(e).backgroundColor]")
    legend = page.locator(".legend span[data-cleaner='running_headers']").evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    other = page.locator(".legend span[data-cleaner='page_numbers']").evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    assert style == ["line-through", legend] and legend != other  # a colour per cleaner, as in the legend
    counts = page.locator("table.counts tr[data-cleaner='running_headers'] td").all_inner_texts()
    assert int(counts[1]) == headers.count()  # blocks removed, as highlighted
    assert headers.first.is_visible()
    chunks = page.locator(".chunk .head")
    assert chunks.count() >= 2 and "tokens" in chunks.first.inner_text()
    heads = chunks.all_inner_texts()
    body = [h for h in heads if h.startswith("chunk ")]
    assert heads[-1].startswith("card ") and len(body) == len(heads) - 1  # the filing's stamps: its card, last
    boundaries = page.locator("#document .boundary")  # each body chunk's start marked in the document too
    assert boundaries.count() == len(body)  # the card is no place in the document
    assert chunks.nth(1).inner_text().startswith(boundaries.nth(1).inner_text())  # same chunk, path, tokens
    shot = page.screenshot(full_page=False)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 20_000  # a rendered page, not a blank one
    (tmp_path / "filing.png").write_bytes(shot)


def test_tracked_deletion_highlighted(browser, corpus, tmp_path):
    page = open_offline(browser, html_of(tmp_path, corpus / TRACKED))
    cut = page.locator("del.removal[data-cleaner='track_changes']")
    assert cut.count() == 1 and cut.first.inner_text() == " provides"  # the tracked deletion
    block = page.locator(".block", has=cut).inner_text()
    assert "Video provides a powerful way" in block  # shown in place, inside the paragraph it was cut from
    assert page.locator(".chunk pre").first.inner_text().startswith("Video a powerful way")  # what was indexed
    assert cut.first.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    shot = page.screenshot()
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 10_000
