"""The run's warning count is the number of warnings it prints: the loaders' (per document, as
they happen) and the cleaners' that took most of a document (after the summary)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pymupdf

RUSSIAN = "Отчёт о поставках за третий квартал.\nВсе поставки выполнены в срок, кроме двух заказов.\n"


def _folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    # A board pack: the same long confidentiality line atop five pages over a line of body each, so
    # running_headers removes most of its text (a warning after the summary).
    pdf = pymupdf.open()
    for n in range(1, 6):
        page = pdf.new_page()
        page.insert_text((72, 40), "Northwind Holdings - Board Pack - Strictly Confidential - Not For Distribution")
        page.insert_text((72, 300), f"Item {n} noted.")
    pdf.save(docs / "board.pdf")
    # Not UTF-8: decoded as Windows-1251, and the loader says so (a warning on the document's line).
    (docs / "report.txt").write_bytes(RUSSIAN.encode("cp1251"))
    (docs / "plain.md").write_text("# Plain\n\nNothing to warn about here.\n")
    return docs


def test_the_summary_counts_every_warning_it_prints(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    summary = tmp_path / "summary.json"
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "run", docs, "--index", tmp_path / "index.sqlite"]
        + ["--log-format", "pretty", "--summary-json", summary],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout + proc.stderr
    printed = [line for line in out.splitlines() if re.match(r"warning:? ", line)]
    assert len(printed) == 2, out
    assert any(line.startswith("warning report.txt: not valid UTF-8") for line in printed)
    assert any(line.startswith("warning: board.pdf: cleaner 'running_headers' removed") for line in printed)
    assert re.search(r"^\s*warnings\s+2\s*$", out, re.M), out  # the summary table's row
    record = json.loads(summary.read_text())
    assert record["warnings"] == 2
    assert sorted(w["document"] for w in record["warning_list"]) == ["board.pdf", "report.txt"]
