"""Inputs that must not take the run down: each is a clear failure (or skip) of that one file, the
run goes on, and the whole run stays under 1 GB of memory."""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ingest.search.bm25 import search
from tests.local_job import sync
from tests.paths import CORPUS, SHARED
from tests.service.helpers import indexed, ingest_run, workspace

DOCX = CORPUS / "python_docx/blk-paras-and-tables.docx"
BENCH = SHARED / "bench"
GIB = 1 << 30


@pytest.fixture(scope="session")
def bomb_zip(tmp_path_factory) -> bytes:
    """A ZIP holding one part of 1 GiB of zeros, 4.6 MB compressed (built once: ~3 s)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open("word/media/padding.bin", "w") as part:
            zeros = bytes(1 << 20)
            for _ in range(1024):
                part.write(zeros)
    return buf.getvalue()


def office_bomb(bomb: bytes, real: Path) -> bytes:
    """A real Office file with the 1 GiB part added (appended, not recompressed)."""
    buf = io.BytesIO(bomb)
    with zipfile.ZipFile(real) as src, zipfile.ZipFile(buf, "a") as out:
        for info in src.infolist():
            out.writestr(info, src.read(info))
    return buf.getvalue()


def lying(data: bytes) -> bytes:
    """The same archive with the big part's declared size rewritten to 1 MB (headers can lie)."""
    raw = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        info = z.getinfo("word/media/padding.bin")
        raw[info.header_offset + 22 : info.header_offset + 26] = (1 << 20).to_bytes(4, "little")
    central = raw.find(b"PK\x01\x02")  # the first central directory entry is the big part
    raw[central + 24 : central + 28] = (1 << 20).to_bytes(4, "little")
    return bytes(raw)


def test_zip_bombs_and_huge_text_fail_alone_within_1_gb(tmp_path, bomb_zip):
    cfg = workspace(tmp_path, 2, slow=False)
    docs = tmp_path / "docs"
    xlsx = next(Path(DOCX.parent.parent / "openpyxl").rglob("*.xlsx"))
    (docs / "bomb.docx").write_bytes(office_bomb(bomb_zip, DOCX))
    (docs / "bomb.xlsx").write_bytes(office_bomb(bomb_zip, xlsx))
    (docs / "lying.docx").write_bytes(lying(office_bomb(bomb_zip, DOCX)))
    with open(docs / "huge.md", "w") as handle:  # 100 MB of ordinary Markdown
        paragraph = "Parcels need a signature on delivery, and the courier keeps the receipt. " * 20 + "\n\n"
        for i in range(100 * (1 << 20) // (len(paragraph) + 12)):
            handle.write(f"## Part {i}\n\n{paragraph}")
    shutil.copy(DOCX, docs / "fine.docx")
    # A fresh parent runs ingest and reports its children's peak RSS: this test process's own
    # children (a browser, other runs) must not count. ru_maxrss is in KiB on Linux; the run has
    # in-process documents (workers: 1), so its peak is the whole run's.
    measure = (
        "import resource, subprocess, sys; "
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300); "
        "sys.stderr.write(p.stderr); "
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", measure, sys.executable, "-m", "ingest", "run", str(cfg), "--quiet"],
        capture_output=True,
        text=True,
        timeout=330,
    )
    code, peak_kb = map(int, proc.stdout.split()[-2:])
    peak_mb = peak_kb / 1024
    assert code == 1, proc.stderr
    assert peak_mb < 1024, peak_mb
    err = " ".join(proc.stderr.split())
    assert "bomb.docx: is an Office file (a ZIP archive) whose parts declare 1,0" in err
    assert "bomb.xlsx: is an Office file" in err and "zip bomb" in err
    assert "huge.md: is 100 MB of text, over the limit of 20 MB" in err
    # Python's zipfile stops a part at its declared size, so the liar inflates 1 MB and is read.
    assert indexed(tmp_path / "index.sqlite") == {"doc000.md", "doc001.md", "fine.docx", "lying.docx"}


def test_a_lower_unzip_limit_is_configurable(tmp_path):
    cfg = workspace(tmp_path, 1, slow=False, extra="limits: {max_unzipped_mb: 0.01}\n")
    shutil.copy(DOCX, tmp_path / "docs" / "fine.docx")
    summary, results = sync(cfg)
    assert results["fine.docx"].status == "failed" and "limits.max_unzipped_mb" in results["fine.docx"].error


def test_a_file_name_that_is_not_utf8_is_indexed_and_the_run_goes_on(tmp_path):
    cfg = workspace(tmp_path, 1, slow=False)
    docs = tmp_path / "docs"
    raw = os.fsencode(docs) + b"/latin1-caf\xe9.md"
    with open(raw, "wb") as handle:
        handle.write(b"# Menu\n\nEspresso costs two euros at the cafeteria.\n")
    (docs / "zzz.md").write_text("# Last\n\nListed after the bad name.\n")
    proc = ingest_run(cfg, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert indexed(tmp_path / "index.sqlite") == {"doc000.md", "latin1-caf\\xe9.md", "zzz.md"}
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        uri, name = db.execute("SELECT uri, name FROM documents WHERE id = 'latin1-caf\\xe9.md'").fetchone()
    assert uri.endswith("/latin1-caf%E9.md") and name == "latin1-caf\\xe9.md"
    assert search(tmp_path / "index.sqlite", "espresso")[0].chunk.doc_id == "latin1-caf\\xe9.md"
    assert ingest_run(cfg, "--quiet").stdout.split("unchanged")[1].split()[0] == "3"
    os.unlink(raw)
    assert ingest_run(cfg, "--quiet").returncode == 0
    assert indexed(tmp_path / "index.sqlite") == {"doc000.md", "zzz.md"}


def test_a_fifo_and_a_link_to_dev_zero_do_not_hang_or_eat_memory(tmp_path):
    cfg = workspace(tmp_path, 1, slow=False)
    docs = tmp_path / "docs"
    os.mkfifo(docs / "pipe.md")
    os.symlink("/dev/zero", docs / "zero.md")
    proc = ingest_run(cfg, "--quiet", timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "pipe.md: cannot read: not a regular file (a FIFO)" in proc.stderr
    summary, results = sync(cfg)
    assert results["zero.md"].status == "skipped" and "out of the source folder" in results["zero.md"].error
    followed = cfg.read_text().replace(f"path: {docs}", f"path: {docs}, follow_symlinks: true")
    cfg.write_text(followed)
    summary, results = sync(cfg)
    assert results["zero.md"].status == "failed" and "not a regular file (a device)" in results["zero.md"].error


def test_links_out_of_the_folder_are_not_followed_unless_asked(tmp_path):
    cfg = workspace(tmp_path, 1, slow=False)
    docs = tmp_path / "docs"
    secret = tmp_path / "secret.md"
    secret.write_text("# Payroll\n\nThe director's salary is confidential.\n")
    os.symlink(secret, docs / "leak.md")
    (docs / "inside.md").write_text("# Inside\n\nA plain document.\n")
    os.symlink(docs / "inside.md", docs / "alias.md")  # inside the folder: harmless, read
    os.symlink(docs / "nowhere.md", docs / "dangling.md")
    os.symlink("self.md", docs / "self.md")
    (docs / "sub").mkdir()
    os.symlink(docs, docs / "sub" / "back")  # a folder loop
    summary, results = sync(cfg)
    assert summary.ok
    assert results["leak.md"].status == "skipped" and "follow_symlinks" in results["leak.md"].error
    assert "dangling" in results["dangling.md"].error and "loop" in results["self.md"].error
    assert results["alias.md"].status == "changed"
    assert not search(tmp_path / "index.sqlite", "salary")
    cfg.write_text(cfg.read_text().replace(f"path: {docs}", f"path: {docs}, follow_symlinks: true"))
    summary, results = sync(cfg)
    assert results["leak.md"].status == "changed" and search(tmp_path / "index.sqlite", "salary")
    assert "loop" in results["sub/back"].error and "loop" in results["self.md"].error


def test_front_matter_with_yaml_dates_is_indexed(tmp_path):
    cfg = workspace(tmp_path, 0, slow=False)
    posts = sorted((BENCH / "markdown-pypi/files").rglob("release-hatch-*.md"))
    assert len(posts) == 7  # the 7 of 584 that failed with "not JSON data"
    for post in posts:
        shutil.copy(post, tmp_path / "docs" / post.name)
    summary, _ = sync(cfg)
    assert summary.ok and summary.changed == 7
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        metas = [json.loads(m) for (m,) in db.execute("SELECT meta FROM documents")]
    dates = [m["front_matter"]["date"] if "front_matter" in m else m.get("date") for m in metas]
    assert all(isinstance(d, str) and d[:2] == "20" for d in dates), metas[0]


@pytest.mark.parametrize(
    "encoding, text, name",
    [
        ("cp1252", "Café au lait.", "Windows-1252"),  # short: charset-normalizer alone says Urdu (cp1006)
        ("cp1250", "Zażółć gęślą jaźń — polskie znaki w pliku.", "Windows-1250"),
        (
            "shift_jis",
            "社内規定：出張旅費の精算は、帰着後一週間以内に経理部へ提出してください。領収書の原本を添付すること。",
            "Shift-JIS",
        ),
        (
            "cp1251",
            "Положение о командировках: авансовый отчёт сдаётся в бухгалтерию в течение трёх дней после возвращения.",
            "Windows-1251",
        ),
    ],
)
def test_text_in_other_encodings_is_decoded(tmp_path, encoding, text, name):
    from ingest import load_file

    path = tmp_path / "legacy.txt"
    path.write_bytes(text.encode(encoding))
    loaded = load_file(path)
    assert loaded.blocks[0].text == text
    assert name in loaded.warnings[0]
