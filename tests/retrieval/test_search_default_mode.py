"""`ingest search` without --mode searches hybrid when the index holds vectors for its embedder,
BM25 otherwise (issue #25: the job paid for the vectors). Told apart by a query none of whose
words is in any document: BM25 finds nothing, the vector half of hybrid still ranks chunks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.config import load_config
from ingest.runner.pipeline import run

QUERY = "automobile insurance"  # no document below holds either word


def _index(tmp_path: Path, embedder: bool) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "cars.md").write_text("# Fleet\n\nCompany vehicles are covered for accidents and theft.\n")
    (docs / "leave.md").write_text("# Leave\n\nTwenty days of paid holiday a year.\n")
    config = tmp_path / "job.yaml"
    config.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'index.sqlite'}}}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n" + ("embedder: {name: wordllama}\n" if embedder else "")
    )
    assert run(*load_config(config)).ok
    return tmp_path / "index.sqlite"


def _search(index: Path, *more: str) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "search", QUERY, "--index", str(index), "--json", *more],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("embedder", [True, False])
def test_the_default_mode_follows_the_index(tmp_path, embedder):
    from ingest.search.hybrid import default_mode

    index = _index(tmp_path, embedder)
    assert default_mode(index) == ("hybrid" if embedder else "bm25")
    hits = _search(index)
    if embedder:  # hybrid: the vector ranking holds every chunk, the words none
        assert {h["chunk"]["doc_id"] for h in hits} == {"cars.md", "leave.md"}
    else:
        assert hits == []
    assert _search(index, "--mode", "bm25") == []  # asked for, bm25 it is


def test_no_index_is_bm25_and_its_error(tmp_path):
    from ingest.search.hybrid import default_mode

    assert default_mode(tmp_path / "missing.sqlite") == "bm25"
