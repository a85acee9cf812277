"""How many chunks are too small to answer anything: issue #25 item 7's figures.

    .venv/bin/python benchmarks/chunk_sizes.py ../shared/corpus                      # every file ingest reads
    .venv/bin/python benchmarks/chunk_sizes.py ../shared/ragbench/mmlb/pdfs --max-tokens 256
    .venv/bin/python benchmarks/chunk_sizes.py --chunks out/ragbench/mmlb/ingest-256   # rag_eval's chunk files

Chunks every file under the folders given (default cleaners, as `ingest chunk` does; a file
ingest does not read is counted apart, not chunked), or reads the JSONL chunk files rag_eval
wrote, and prints the number of chunks, the share under 20 tokens and the share under
`min_tokens`, over all files and per file type. "Before and after" is the same command run with
another checkout's `ingest/` on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

TINY = 20
"""Tokens: a chunk this small ("Corporate\\n\\nOverview") answers no question."""


def _row(label: str, counts: list[int], min_tokens: int) -> str:
    n = len(counts)
    tiny = sum(c < TINY for c in counts)
    small = sum(c < min_tokens for c in counts)
    share = (lambda k: f"{k / n:6.1%}") if n else (lambda k: "     -")
    return f"| {label} | {n} | {tiny} {share(tiny)} | {small} {share(small)} |"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--chunks", type=Path, action="append", default=[], help="a folder of rag_eval chunk JSONL")
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--min-tokens", type=int, default=64)
    a = ap.parse_args(argv)

    by_type: dict[str, list[int]] = {}
    skipped: Counter[str] = Counter()
    failed: list[str] = []
    for folder in a.chunks:
        for f in sorted(folder.glob("*.jsonl")):
            for line in f.read_text().splitlines():
                if line.strip():
                    by_type.setdefault(folder.name, []).append(json.loads(line)["token_count"])
    if a.folders:
        from ingest.chunker import ChunkOptions
        from ingest.loaders import mime_type_of, supports
        from ingest.runner.parallel import chunk_files

        paths = sorted(p for d in a.folders for p in ([d] if d.is_file() else d.rglob("*")) if p.is_file())
        readable = []
        for p in paths:
            if not supports(mime_type_of(p)):
                skipped[p.suffix.lower() or p.name] += 1
            else:
                readable.append(p)
        options = ChunkOptions(max_tokens=a.max_tokens, min_tokens=a.min_tokens)
        for fc in chunk_files(readable, options, workers=1):
            if fc.error:
                skipped["failed"] += 1
                failed.append(fc.error)
                continue
            by_type.setdefault(fc.path.suffix.lower(), []).extend(c.token_count for c in fc.chunks)

    print(f"| files of type | chunks | under {TINY} tokens | under min_tokens {a.min_tokens} |")
    print("| --- | --- | --- | --- |")
    for kind in sorted(by_type, key=lambda k: -len(by_type[k])):
        print(_row(kind, by_type[kind], a.min_tokens))
    print(_row("**all**", [c for v in by_type.values() for c in v], a.min_tokens))
    if skipped:
        print("not chunked:", ", ".join(f"{k} {v}" for k, v in skipped.most_common()))
    for error in failed:  # each failed file named with its error, not only counted
        print(f"failed: {error}")


if __name__ == "__main__":
    main()
