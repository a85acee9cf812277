"""What `ingest chunk` prints for some paths (a real run of the command), and the metadata the
adapters should give each of those chunks, read from the command's JSON fields."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT


def ingest_chunk(*args: object) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "chunk", *map(str, args)], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def expected_metadata(line: dict) -> dict:
    """The adapters' metadata for a chunk `ingest chunk` printed, but the citation (checked apart)."""
    source = line["source"]
    return {
        "chunk_id": line["id"],
        "doc_id": line["doc_id"],
        "chunk_index": line["chunk_index"],
        "doc_name": source["name"],
        "uri": source["uri"],
        "mime_type": source["mime_type"],
        "modified": source["modified"],
        "heading": " > ".join(line["heading_path"]),
        "page_start": line["page_start"],
        "page_end": line["page_end"],
        "url": line["url"],
    }


def cites(citation: str, line: dict) -> bool:
    """Whether `citation` names the chunk's document, its last heading and its uri."""
    source = line["source"]
    return (
        citation.startswith(source["name"])
        and line["heading_path"][-1] in citation
        and citation.endswith(f"({source['uri']})")
    )


def small_config(where: Path) -> Path:
    """A job config whose chunker cuts much finer than the defaults (40 characters a chunk)."""
    config = where / "job.yaml"
    config.write_text(
        "source: {local: {path: docs}}\nsink: {sqlite: index.sqlite}\n"
        "chunker: {max_tokens: 40, min_tokens: 0, overlap_tokens: 0, tokenizer: chars}\n"
        "cleaners: [{furniture: false}]\n",
        encoding="utf-8",
    )
    return config
