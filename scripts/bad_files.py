"""What a run does with bad files: issue #25's bad-file table, reproducible.

    .venv/bin/python scripts/bad_files.py            # prints a Markdown table

A folder of good corpus files is indexed first. Then each case puts a bad file in place (over a
good one, as a user saving a broken copy would, or beside them), and `ingest run` syncs the folder
again. Each row says what the run printed about that file, the exit code, and what the index
holds for it afterwards (the chunks it had before stay when the new version cannot be read).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import paths  # noqa: E402  (the one setting for where ../shared is)
from tests.pdf.scans import STAMP  # noqa: E402

PDF = paths.CORPUS / "unstructured" / "example-docs" / "pdf" / "multi-column-2p.pdf"
DOCX = ROOT / "examples" / "travel-policy.docx"
XLSX = ROOT / "examples" / "planning.xlsx"


@dataclass(frozen=True)
class Case:
    name: str
    file: str
    """The file's name in the folder: an existing good file's to replace it, or a new one."""
    make: Callable[[Path], bytes]
    """The bad file's bytes, from the good file's path (or the folder's)."""


def cut(share: float) -> Callable[[Path], bytes]:
    return lambda good: good.read_bytes()[: int(good.stat().st_size * share)]


def no_unicode_maps(good: Path) -> bytes:
    with pymupdf.open(good) as doc:
        for xref in range(1, doc.xref_length()):
            if doc.xref_get_key(xref, "ToUnicode")[0] != "null":
                doc.xref_set_key(xref, "ToUnicode", "null")
        return doc.tobytes()


def scan_with_stamp(good: Path) -> bytes:
    out = pymupdf.open()
    with pymupdf.open(good) as doc:
        for k, page in enumerate(doc):
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=page.get_pixmap(dpi=100))
            new.insert_text((40, 20), f"{STAMP} Page {k + 1}", fontsize=9)
    return out.tobytes()


def encrypted(good: Path) -> bytes:
    with pymupdf.open(good) as doc:
        return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")


CASES = [
    Case("PDF cut to 40% over a good copy", "paper.pdf", cut(0.4)),
    Case("PDF cut to 75% over a good copy", "paper.pdf", cut(0.75)),
    Case("PDF fonts without ToUnicode maps", "paper.pdf", no_unicode_maps),
    Case("PDF pages scanned, a stamp line of text on each", "paper.pdf", scan_with_stamp),
    Case("PDF with a password", "paper.pdf", encrypted),
    Case("Word file cut to half over a good copy", "report.docx", cut(0.5)),
    Case("Random bytes named .xlsx", "numbers.xlsx", lambda _: bytes(range(256)) * 8),
    Case("0-byte .md", "empty.md", lambda _: b""),
    Case("0-byte .docx", "empty.docx", lambda _: b""),
    Case(
        "Markdown that is not UTF-8 (Latin-1)",
        "notes-latin1.md",
        lambda _: "# Café\n\nCrème brûlée.\n".encode("latin-1"),
    ),
    Case("An .odp (unsupported format)", "deck.odp", lambda _: b"PK\x03\x04not really"),
    Case("An .rtf (unsupported format)", "letter.rtf", lambda _: b"{\\rtf1 hello}"),
]


def good_folder(folder: Path) -> None:
    folder.mkdir(parents=True)
    shutil.copy(PDF, folder / "paper.pdf")
    shutil.copy(DOCX, folder / "report.docx")
    shutil.copy(XLSX, folder / "numbers.xlsx")
    (folder / "notes.md").write_text("# Notes\n\nA good Markdown file that stays as it is.\n")


def config(folder: Path, out: Path) -> Path:
    path = out / "job.yaml"
    path.write_text(
        f"source:\n  local: {{path: {folder}}}\nsink:\n  sqlite: {out / 'index.sqlite'}\n"
        f"state: {out / 'state.sqlite'}\n"
    )
    return path


def chunks_of(index: Path, name: str) -> int:
    with sqlite3.connect(index) as db:
        row = db.execute(
            "SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.name = ?", (name,)
        ).fetchone()
    return row[0]


def ingest(job: Path) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(job), "--log-format", "text"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return done.returncode, done.stdout + done.stderr


def said_about(log: str, name: str) -> str:
    lines = [line.split(" ", 2)[-1] if line[:4].isdigit() else line for line in log.splitlines() if name in line]
    return " / ".join(line.strip() for line in lines) or "(nothing)"


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args(argv)
    print("| case | what the run says | exit | chunks before -> after |")
    print("| --- | --- | --- | --- |")
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            folder, out = Path(tmp) / "docs", Path(tmp)
            good_folder(folder)
            job = config(folder, out)
            rc, log = ingest(job)
            if rc != 0:
                raise SystemExit(f"the good folder did not index (exit {rc}):\n{log}")
            target = folder / case.file
            before = chunks_of(out / "index.sqlite", case.file)
            target.write_bytes(case.make(target if target.exists() else folder))
            rc, log = ingest(job)
            after = chunks_of(out / "index.sqlite", case.file)
            said = said_about(log, case.file).replace("|", "\\|")
            print(f"| {case.name} | {said} | {rc} | {before} -> {after} |")


if __name__ == "__main__":
    main()
