"""benchmarks/chunk_sizes.py on files made here: the counts it prints, a file it cannot read
named with its error, a type it does not read counted apart."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def cs():
    import chunk_sizes  # benchmarks/ is on the test path

    return chunk_sizes


def test_chunk_files_count_tiny_and_small(cs, tmp_path, capsys):
    # Token counts 5, 30, 70, 300: one under 20, two under min_tokens 64.
    folder = tmp_path / "ingest-256"
    folder.mkdir()
    rows = [{"token_count": n} for n in (5, 30, 70, 300)]
    (folder / "doc.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    cs.main(["--chunks", str(folder)])
    out = capsys.readouterr().out
    assert "| ingest-256 | 4 | 1  25.0% | 2  50.0% |" in out
    assert "| **all** | 4 | 1  25.0% | 2  50.0% |" in out


def test_a_broken_file_is_named_and_an_unread_type_counted(cs, tmp_path, capsys):
    (tmp_path / "good.md").write_text("# Title\n\n" + "A sentence of plain prose that says something. " * 20)
    (tmp_path / "broken.pdf").write_bytes(b"not a pdf at all")
    (tmp_path / "data.xyz").write_bytes(b"\x00\x01")
    cs.main([str(tmp_path)])
    out = capsys.readouterr().out
    assert "| .md | " in out
    assert ".pdf" not in out.split("not chunked:")[0]  # the broken PDF gave no chunks
    assert "failed 1" in out and ".xyz 1" in out
    failed = [line for line in out.splitlines() if line.startswith("failed: ")]
    assert len(failed) == 1 and "broken.pdf" in failed[0]
