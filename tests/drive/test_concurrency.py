"""Concurrent fetches: the same index, the same requests and the same write order as one at a time,
and a failure in the middle still holds the cursor. Real client against the fake server (which
serves each connection on its own thread), real pipeline and SQLite. Timing is for benchmarks/."""

from __future__ import annotations

import json
import sqlite3
import time
from collections import Counter
from urllib.parse import urlsplit

import pytest

from ingest.runner.pipeline import run
from ingest.runner.read_ahead import read_ahead
from tests.drive.helpers import MD, drive_config, md


@pytest.fixture
def many(fake_google, corpus):
    g = fake_google
    top = g.add_folder("Company")
    gdoc = json.loads((corpus / "encoda_gdoc" / "__fixtures__" / "test-fixture-1.gdoc").read_text(encoding="utf-8"))
    ids = []
    for f in range(4):
        folder = g.add_folder(f"Team {f}", top)
        for i in range(12):
            ids.append(g.add_file(f"note-{i:02}.md", folder, md(f"Note {f}.{i}", f"Team {f} note {i} text."), MD))
        ids.append(g.add_google_doc(f"Travel {f}", folder, gdoc))
    return g, top, ids


def index_rows(path) -> list[tuple]:
    with sqlite3.connect(path / "index.sqlite") as db:
        return db.execute(
            "SELECT doc_id, chunk_index, text, heading_path, url FROM chunks ORDER BY doc_id, chunk_index"
        ).fetchall()


def requests_made(g, since: int) -> Counter:
    return Counter(urlsplit(p).path for _, p in g.requests[since:])


def test_concurrent_fetches_give_the_same_index_requests_and_order_as_serial(tmp_path, many):
    g, top, ids = many
    orders = {}
    for concurrency in (1, 8):
        out = tmp_path / f"c{concurrency}"
        out.mkdir()
        before = len(g.requests)
        results = []
        cfg, steps, options = drive_config(out, g, top, concurrency=concurrency)
        summary = run(cfg, steps, options, results.append)
        assert summary.ok and summary.changed == len(ids)
        orders[concurrency] = ([r.doc_id for r in results], requests_made(g, before), index_rows(out))
    serial, concurrent = orders[1], orders[8]
    assert concurrent[0] == serial[0]  # written in the order the tree was listed
    assert concurrent[1] == serial[1]  # not one request more
    assert concurrent[2] == serial[2]


def test_a_failed_fetch_among_concurrent_ones_holds_the_cursor(tmp_path, many, monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda s: None)
    g, top, ids = many
    config = drive_config(tmp_path, g, top, concurrency=8, retries=1)
    assert run(*config).ok
    edited = [i for i in ids if g.file(i)["mimeType"] == MD][:20]
    for file_id in edited:
        g.update(file_id, content=md("Edited", f"Edited {file_id}."))
    g.fail(r"/files/" + edited[5] + r"\?.*alt=media", 503, times=2)
    held = run(*config)
    assert [f.doc_id for f in held.failures] == [edited[5]] and held.changed == 19
    again = run(*config)  # the cursor held: the same changes again, the failed one fetched now
    assert again.ok and again.changed == 1 and again.unchanged == len(ids) - 1


def test_read_ahead_hands_results_over_in_order_whatever_finishes_first():
    import threading

    release = threading.Event()

    def read(n: int) -> bytes:
        if n == 0:
            release.wait(5)  # the first read finishes last
        return str(n).encode()

    def entries():
        yield from range(6)
        release.set()  # every read has been submitted before the first one may finish

    out = [(n, f.result() if f else None) for n, f in read_ahead(entries(), read, lambda n: n != 3, 4)]
    assert out == [(0, b"0"), (1, b"1"), (2, b"2"), (3, None), (4, b"4"), (5, b"5")]
