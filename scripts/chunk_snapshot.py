"""A digest of the chunk JSON ingest makes of every document under some folders, one line a file,
to show that a change which should not move any output (a refactor) moves none:

    python scripts/chunk_snapshot.py before.jsonl ../shared/corpus ../shared/pdfeval ../shared/ragbench
    (change the code)
    python scripts/chunk_snapshot.py after.jsonl ../shared/corpus ../shared/pdfeval ../shared/ragbench
    python scripts/chunk_snapshot.py --compare before.jsonl after.jsonl

Each line: the file (relative to its folder), the sha256 of its chunks' JSON (default cleaners and
chunk options), the chunk count, or the error it raised (its message is part of the output too).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from ingest import ChunkOptions, chunk, clean_blocks, load_file
from ingest.chunk_json import chunk_to_dict
from ingest.errors import IngestError
from ingest.loaders import mime_type_of, supported


def snapshot(path: Path) -> dict:
    try:
        loaded = load_file(path)
        chunks = [chunk_to_dict(c) for c in chunk(loaded, ChunkOptions(), clean_blocks(loaded))]
    except IngestError as exc:
        return {"error": str(exc)}
    text = json.dumps(chunks, ensure_ascii=False, sort_keys=True)
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(), "chunks": len(chunks)}


def files(roots: list[Path]) -> list[tuple[str, Path]]:
    found, known = [], set(supported())
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and mime_type_of(path) in known:
                found.append((f"{root.name}/{path.relative_to(root).as_posix()}", path))
    return found


def compare(before: Path, after: Path) -> int:
    old = {r["file"]: r for r in map(json.loads, before.read_text().splitlines())}
    new = {r["file"]: r for r in map(json.loads, after.read_text().splitlines())}
    changed = sorted(f for f in old.keys() | new.keys() if old.get(f) != new.get(f))
    for name in changed:
        print(f"differs: {name}: {old.get(name)} -> {new.get(name)}")
    print(f"{len(old)} files before, {len(new)} after, {len(changed)} differ")
    return 1 if changed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("roots", nargs="*", type=Path)
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.out is None or not args.roots:
        parser.error("give OUT and at least one folder, or --compare BEFORE AFTER")
    with args.out.open("w", encoding="utf-8") as out:
        for name, path in files(args.roots):
            out.write(json.dumps({"file": name, **snapshot(path)}, sort_keys=True) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
