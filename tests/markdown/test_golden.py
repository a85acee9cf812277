"""Golden chunk output for real Markdown files from the corpus.

Regenerate only on purpose: `INGEST_REGENERATE_GOLDEN=1 pytest tests/markdown/test_golden.py`, then read
the diff. The last test fails whenever the flag is on, so a regenerating run never passes CI.
"""

from __future__ import annotations

import json
import os

import pytest

from ingest import ChunkOptions, chunk, clean_blocks, load_file
from ingest.chunk_json import chunk_to_dict
from tests.paths import CORPUS, ROOT

REGENERATE = os.environ.get("INGEST_REGENERATE_GOLDEN") == "1"
GOLDEN = ROOT / "tests" / "markdown" / "golden"
FILES = [
    CORPUS / "docling" / "md" / "sources" / name
    for name in ("blocks.md", "mixed.md", "mixed_without_h1.md", "nested.md", "ending_with_table.md", "duck.md")
] + [CORPUS / "unstructured" / "example-docs" / name for name in ("codeblock.md", "simple-table.md")]
OPTIONS = ChunkOptions(max_tokens=96, min_tokens=16, overlap_tokens=24)


def records(path):
    loaded = load_file(path)
    for c in chunk(loaded, OPTIONS, clean_blocks(loaded)):
        record = chunk_to_dict(c)
        del record["doc_id"], record["id"], record["source"]  # machine-specific paths and times
        yield record


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_chunks_match_golden(path):
    golden = GOLDEN / (path.stem + ".jsonl")
    got = [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in records(path)]
    if REGENERATE:
        golden.write_text("\n".join(got) + "\n", encoding="utf-8")
    assert got == golden.read_text(encoding="utf-8").splitlines()


def test_regeneration_flag_is_off():
    assert not REGENERATE, "golden files were regenerated: review the diff, then run without the flag"
