"""A job on a local folder as the tests run it: its config file, a run in this process with each
document's result by id, and `python -m ingest` as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ingest import load_config, run
from ingest.config import parse_config


def ingest(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ingest", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def sync(cfg: Path):
    results = []
    summary = run(*load_config(cfg), on_result=results.append)
    return summary, {r.doc_id: r for r in results}


def local_config(docs: Path, tmp_path: Path) -> tuple:
    """Config, cleaner steps and chunk options for `docs` into tmp_path's index, one worker."""
    return parse_config(
        {
            "source": {"local": {"path": str(docs)}},
            "workers": 1,
            "sink": {"sqlite": str(tmp_path / "index.sqlite")},
            "state": str(tmp_path / "state.sqlite"),
        }
    )


def write_config(tmp_path: Path, docs: Path, *, sink: str = "sqlite", workers: int = 1, extra: str = "") -> Path:
    target = tmp_path / ("index.sqlite" if sink == "sqlite" else "chunks")
    cfg = tmp_path / "ingest.yaml"
    cfg.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{{sink}: {target}}}\nstate: {tmp_path / 'state.sqlite'}\n"
        f"workers: {workers}\nchunker: {{max_tokens: 200, min_tokens: 16, overlap_tokens: 0}}\n{extra}",
        encoding="utf-8",
    )
    return cfg


def write_docs(tmp_path: Path, seeds: Path) -> Path:
    """docs/{fever.md (a seed), notes.txt, sub/policy.md}: three documents, two formats, a subfolder."""
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "fever.md").write_bytes((seeds / "paediatric-fever.md").read_bytes())
    (root / "notes.txt").write_text("Quarterly review is due in March.\n\nBring the budget sheet.\n")
    (root / "sub" / "policy.md").write_text("# Policy\n\nLaptops are replaced every four years.\n")
    return root
