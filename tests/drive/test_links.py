"""Every Drive chunk carries a `url` that opens its place: a Google Doc at the heading, a PDF at the
page, a Google Sheet at the tab, anything else at the file; `ingest search` prints it and its JSON
has it. Real client against the fake server, real loaders, pipeline and SQLite."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner

from ingest.cli.main import cli
from ingest.runner.pipeline import run
from tests.drive.helpers import MD, PDF, drive_config, md
from tests.local_job import local_config

GDOC = "encoda_gdoc/__fixtures__/test-fixture-1.gdoc"


def chunks(tmp_path, doc_id: str) -> list[tuple]:
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        return db.execute(
            "SELECT heading_path, page_start, url, text FROM chunks WHERE doc_id = ? ORDER BY chunk_index", (doc_id,)
        ).fetchall()


@pytest.fixture
def linked(tmp_path, fake_google, corpus):
    g = fake_google
    top = g.add_folder("Company")
    gdoc = json.loads((corpus / GDOC).read_text(encoding="utf-8"))
    ids = {
        "doc": g.add_google_doc("Fixture", top, gdoc),
        "pdf": g.add_file("q3.pdf", top, (corpus / "docling" / "pdf" / "sources" / "multi_page.pdf").read_bytes(), PDF),
        "sheet": g.add_google_sheet(
            "Budget",
            top,
            (corpus / "docling" / "xlsx" / "sources" / "xlsx_01.xlsx").read_bytes(),
            tabs={"Sheet1": 0, "Sheet2": 1803923, "Sheet3": 77, "Sheet4": 912},
        ),
        "md": g.add_file("leave.md", top, md("Leave", "Twenty days of paid leave."), MD),
    }
    assert run(*drive_config(tmp_path, g, top)).ok
    return g, ids, gdoc


def test_a_google_doc_chunk_opens_at_its_heading(tmp_path, linked):
    g, ids, gdoc = linked
    heading_ids = {}  # heading text -> headingId, read from the Docs JSON itself
    for el in gdoc["body"]["content"]:
        style = el.get("paragraph", {}).get("paragraphStyle", {})
        if style.get("headingId"):
            text = "".join(e.get("textRun", {}).get("content", "") for e in el["paragraph"]["elements"]).strip()
            heading_ids[text] = style["headingId"]
    base = f"https://docs.google.com/document/d/{ids['doc']}/edit"
    found = chunks(tmp_path, ids["doc"])
    nested = [url for path, _, url, text in found if "Braeburn" in text]
    assert nested == [f"{base}#heading={heading_ids['Nested']}"]
    for path, _, url, _ in found:
        deepest = next((heading_ids[h] for h in reversed(json.loads(path)) if h in heading_ids), None)
        assert url == (f"{base}#heading={deepest}" if deepest else base)


def test_a_pdf_chunk_opens_at_its_page_and_a_sheet_chunk_at_its_tab(tmp_path, linked):
    g, ids, _ = linked
    view = g.file(ids["pdf"])["webViewLink"]
    *body, card = chunks(tmp_path, ids["pdf"])
    pages = {page for _, page, _, _ in body}
    assert len(pages) > 1
    for _, page, url, _ in body:
        assert url == f"{view}#page={page}"
    assert card[1] is None and card[2] == view  # the document's card (#29) has no page: the file opens
    tabs = {json.loads(path)[1]: url for path, _, url, _ in chunks(tmp_path, ids["sheet"])}
    base = f"https://docs.google.com/spreadsheets/d/{ids['sheet']}/edit"
    assert tabs and all(
        url == base + "#gid=" + {"Sheet1": "0", "Sheet2": "1803923", "Sheet3": "77", "Sheet4": "912"}[tab]
        for tab, url in tabs.items()
    )
    assert any(r.target.startswith(f"/v4/spreadsheets/{ids['sheet']}") for r in g.log)
    assert {url for _, _, url, _ in chunks(tmp_path, ids["md"])} == {g.file(ids["md"])["webViewLink"]}


def test_a_sheet_whose_tabs_cannot_be_read_links_to_the_file_and_is_still_indexed(tmp_path, fake_google, corpus):
    g = fake_google
    top = g.add_folder("Company")
    sheet = g.add_google_sheet("Budget", top, (corpus / "docling" / "xlsx" / "sources" / "xlsx_01.xlsx").read_bytes())
    g.fail(r"/v4/spreadsheets/", 403, error_info="ACCESS_TOKEN_SCOPE_INSUFFICIENT")
    assert run(*drive_config(tmp_path, g, top)).ok
    assert {url for _, _, url, _ in chunks(tmp_path, sheet)} == {f"https://docs.google.com/spreadsheets/d/{sheet}/edit"}


def test_search_prints_the_url_and_its_json_has_it(tmp_path, linked):
    g, ids, _ = linked
    index = str(tmp_path / "index.sqlite")
    shown = CliRunner().invoke(cli, ["search", "Braeburn", "--index", index, "-k", "1"])
    assert shown.exit_code == 0, shown.output
    assert f"https://docs.google.com/document/d/{ids['doc']}/edit#heading=h." in shown.output
    as_json = CliRunner().invoke(cli, ["search", "Braeburn", "--index", index, "-k", "1", "--json"])
    (hit,) = [json.loads(line) for line in as_json.output.splitlines()]
    assert hit["url"] == hit["chunk"]["url"] and hit["url"].startswith("https://docs.google.com/document/d/")


def test_local_chunks_have_no_url(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nLocal text.\n")
    cfg = local_config(tmp_path / "docs", tmp_path)
    assert run(*cfg).ok
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        assert db.execute("SELECT DISTINCT url FROM chunks").fetchall() == [("",)]
