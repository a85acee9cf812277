"""Drive sync speed, serial against concurrent fetches, over the test fake with a round trip's
latency on every request.

    .venv/bin/python benchmarks/drive_sync.py                   # 500 files, 100 ms, concurrency 8
    .venv/bin/python benchmarks/drive_sync.py --files 100 --latency 0.05 --concurrency 4

The fake Google server of the tests (tests/drive/fake_google/, real google-api-python-client, real
pipeline and SQLite), in a process of its own, every request answered after `--latency` seconds. The tree: `--files` files
over 10 folders, 80% Markdown, 10% Word (a corpus .docx), 10% Google Docs (a corpus Docs JSON,
read with its comments: two requests each). For each mode (concurrency 1, then `--concurrency`),
in its own index and state:
- full sync: the first run, listing the tree and reading every file;
- incremental sync: `--changes` files edited (Markdown and Word), then a run over the changes feed.
Figures: seconds, files/s (files read / seconds), API calls (requests the server saw, retries
included). The script checks that both modes built the same index (every chunk's document, index,
text, heading path and url) and made the same requests, and says so.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the tests package: its fake Google server

from shared_paths import CORPUS  # noqa: E402

from ingest.runner.pipeline import run  # noqa: E402
from tests.drive.fake_google import FakeGoogle  # noqa: E402
from tests.drive.helpers import drive_config  # noqa: E402

MD = "text/markdown"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def build_tree(g: FakeGoogle, files: int) -> tuple[str, list[tuple[str, str]]]:
    docx = (CORPUS / "python_docx" / "blk-paras-and-tables.docx").read_bytes()
    gdoc = json.loads((CORPUS / "encoda_gdoc" / "__fixtures__" / "test-fixture-1.gdoc").read_text(encoding="utf-8"))
    top = g.add_folder("Company")
    folders = [g.add_folder(f"Team {i}", top) for i in range(10)]
    made: list[tuple[str, str]] = []
    for n in range(files):
        folder = folders[n % len(folders)]
        if n % 10 == 8:
            made.append((g.add_file(f"plan-{n}.docx", folder, docx, DOCX), "docx"))
        elif n % 10 == 9:
            made.append((g.add_google_doc(f"Notes {n}", folder, gdoc), "gdoc"))
        else:
            body = f"# Policy {n}\n\n## Scope\n\nThis policy {n} covers team {n % 10}.\n\n## Rules\n\n" + "".join(
                f"- Rule {r} of policy {n}: keep records for {r + 1} years.\n" for r in range(8)
            )
            made.append((g.add_file(f"policy-{n}.md", folder, body.encode(), MD), "md"))
    return top, made


class Server:
    """The fake in a process of its own, as Google is: its work (JSON, fields, paging) is not
    charged to the sync it answers. Driven over a pipe: the tree is built there, edits are sent."""

    def __init__(self, files: int, latency: float) -> None:
        import multiprocessing

        self.conn, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("spawn").Process(target=_serve, args=(child, files, latency))
        self.process.start()
        self.top, self.made, self.token, self.drive_endpoint, self.docs_endpoint = self.conn.recv()

    def ask(self, *command):
        self.conn.send(command)
        return self.conn.recv()

    def stop(self) -> None:
        self.ask("stop")
        self.process.join()


def _serve(conn, files: int, latency: float) -> None:
    g = FakeGoogle(latency=latency).start()
    top, made = build_tree(g, files)
    conn.send((top, made, g.token, g.drive_endpoint, g.docs_endpoint))
    docx = (CORPUS / "python_docx" / "blk-paras-and-tables.docx").read_bytes()
    while True:
        command, *args = conn.recv()
        if command == "stop":
            g.stop()
            conn.send(None)
            return
        if command == "edit":  # every mode reads the same changes from its own cursor
            for n, (file_id, kind) in enumerate(args[0]):
                g.update(file_id, content=docx if kind == "docx" else f"# Edited {n}\n\nChanged text {n}.\n".encode())
            conn.send(None)
        elif command == "requests":
            conn.send([p for _, p in g.requests[args[0] :]])
        elif command == "count":
            conn.send(len(g.requests))


def timed(server: Server, cfg: tuple) -> tuple[float, int, Counter, object]:
    before = server.ask("count")
    started = time.perf_counter()
    summary = run(*cfg)
    seconds = time.perf_counter() - started
    assert summary.ok, summary.failures
    sent = server.ask("requests", before)
    made = Counter(urlsplit(p).path.split("/")[-1] if "/files/" in p else urlsplit(p).path for p in sent)
    return seconds, len(sent), made, summary


def index_rows(out: Path) -> list[tuple]:
    with sqlite3.connect(out / "index.sqlite") as db:
        return db.execute(
            "SELECT doc_id, chunk_index, text, heading_path, url FROM chunks ORDER BY doc_id, chunk_index"
        ).fetchall()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--changes", type=int, default=50)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="drive-bench-"))
    server = Server(args.files, args.latency)
    try:
        modes = (1, args.concurrency)
        outs = {c: work / f"c{c}" for c in modes}
        full, incremental, rows = {}, {}, {}
        for c in modes:
            outs[c].mkdir()
            full[c] = timed(server, drive_config(outs[c], server, server.top, workers=0, concurrency=c))
        edited = [(file_id, kind) for file_id, kind in server.made if kind != "gdoc"][: args.changes]
        server.ask("edit", edited)
        for c in modes:
            incremental[c] = timed(server, drive_config(outs[c], server, server.top, workers=0, concurrency=c))
            rows[c] = index_rows(outs[c])
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)

    serial, fast = modes
    print(
        f"fake Google, {args.latency * 1000:.0f} ms a request; {args.files} files (80% Markdown, 10% Word, "
        f"10% Google Docs) in 10 folders; {len(edited)} changed for the incremental run\n"
    )
    print(f"{'run':<12} {'concurrency':>11} {'seconds':>8} {'files/s':>8} {'API calls':>9} {'speed-up':>8}")
    for name, figures, files in (("full", full, args.files), ("incremental", incremental, len(edited))):
        for c in modes:
            seconds, calls, _, _ = figures[c]
            ratio = figures[serial][0] / seconds
            print(f"{name:<12} {c:>11} {seconds:>8.2f} {files / seconds:>8.1f} {calls:>9} {ratio:>7.1f}x")
    same_index = rows[serial] == rows[fast]
    same_calls = full[serial][2] == full[fast][2] and incremental[serial][2] == incremental[fast][2]
    print(f"\nsame index: {same_index} ({len(rows[fast])} chunks); same requests: {same_calls}")
    if not (same_index and same_calls):
        sys.exit(1)


if __name__ == "__main__":
    main()
