"""`ingest search --exact` (and `search(exact=True)`): vector and hybrid search compare the query
with every vector and never read the HNSW file beside the index. Told apart by a graph that is not
the one the index records: a default search notices it and warns, an exact one never opens it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import ingest
from ingest.config import load_config
from ingest.runner.pipeline import run
from ingest.search import ann

QUERY = "paid holiday for staff"
DOCS = {
    "cars.md": "# Fleet\n\nCompany vehicles are covered for accidents and theft.\n",
    "leave.md": "# Leave\n\nTwenty days of paid holiday a year.\n",
    "pay.md": "# Pay\n\nSalaries are paid on the last working day of the month.\n",
}


def _index(root: Path, docs: dict[str, str]) -> Path:
    folder = root / "docs"
    folder.mkdir(parents=True)
    for name, text in docs.items():
        (folder / name).write_text(text)
    config = root / "job.yaml"
    config.write_text(
        f"source: {{local: {{path: {folder}}}}}\nsink: {{sqlite: {root / 'index.sqlite'}}}\n"
        f"state: {root / 'state.sqlite'}\nworkers: 1\nembedder: {{name: wordllama}}\nsearch: {{ann: always}}\n"
    )
    assert run(*load_config(config)).ok
    index = root / "index.sqlite"
    assert ann.ann_file(index).is_file()
    return index


def _search(index: Path, *more: str) -> tuple[list[str], str]:
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "search", QUERY, "--index", str(index), "--json", "--mode", "vector", *more],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line)["chunk"]["id"] for line in done.stdout.splitlines()], done.stderr


def test_exact_never_reads_the_graph(tmp_path):
    index = _index(tmp_path / "a", DOCS)
    other = _index(tmp_path / "b", {f"other{i}.md": f"# Other {i}\n\nUnrelated text number {i}.\n" for i in range(3)})
    ann.ann_file(other).replace(ann.ann_file(index))  # a graph of three other vectors in its place

    found, warned = _search(index)
    assert "not the one the last run wrote" in warned  # the default looked at the graph
    exact, quiet = _search(index, "--exact")
    assert "HNSW" not in quiet and "searching exactly" not in quiet
    ann.ann_file(index).unlink()
    assert exact == found == _search(index)[0]  # the ranking of every vector, as without a graph
    assert len(exact) == 3

    api = ingest.search(index, QUERY, k=3, mode="hybrid", exact=True)
    assert {hit.chunk.doc_id for hit in api} == set(DOCS)


def test_exact_is_for_the_sqlite_index(tmp_path):
    job = tmp_path / "job.yaml"
    job.write_text("source: {local: {path: .}}\n")
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "search", QUERY, "--config", str(job), "--exact"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "--exact" in done.stderr and "SQLite" in done.stderr
