"""Chunk folders for the issue #12 experiments, scored with `retrieval_real.py --also`.

    .venv/bin/python benchmarks/retrieval_variants.py path noroot out/ragbench/financebench/ingest-256 out/ragbench/financebench/path-noroot
    .venv/bin/python benchmarks/retrieval_variants.py semchunk ../shared/ragbench/financebench out/ragbench/financebench/semchunk-on-ingest
    .venv/bin/python benchmarks/retrieval_variants.py cleaners none ../shared/ragbench/financebench out/ragbench/financebench/no-cleaners
    .venv/bin/python benchmarks/retrieval_real.py --reuse-ingest --also financebench:path-noroot=out/ragbench/financebench/path-noroot

- path MODE SRC DST: ingest's chunks with `embed_text` (what rag_eval indexes and reads) rebuilt
  from the heading path: `text` (none), `last` (the last heading), `noroot` (without the first
  element, the document's name or title, which every chunk of a document shares: ingest's own
  `embed_text` since issue #12's BM25 work), `shared` (also without the headings under it that
  90% of the document's chunks share, such as a cover page's company name over a whole 10-K).
- semchunk DATA DST: ingest's cleaned blocks joined by blank lines and chunked by semchunk at 256
  cl100k tokens, as rag_eval chunks PyMuPDF's text: ingest's extraction, a plain splitter's cuts.
- cleaners MODE DATA DST: ingest's chunks at 256 with no cleaners (`none`) or with the empty_cells
  cleaner run on PDFs too (`empty_cells`; by default it runs on spreadsheets only).
- heading-once SRC DST: a heading standing alone (a chunk whose text is its path's last heading)
  indexed and read as its path only, not path then the same title again.
- siblings SRC DST [--limit N]: each chunk joined to the one before while both sit under the same
  parent heading and their embed_text stays within N cl100k tokens: small sections packed
  together, breaking the one-path-per-chunk rule on purpose to see what it is worth.
"""

from __future__ import annotations

import argparse
import bisect
import json
from collections import Counter
from pathlib import Path


def shared_prefix(paths: list[list[str]], share: float = 0.9) -> list[str]:
    """The longest heading-path prefix that at least `share` of the paths start with."""
    prefix: list[str] = []
    while True:
        longer = Counter(
            tuple(p[: len(prefix) + 1]) for p in paths if len(p) > len(prefix) and p[: len(prefix)] == prefix
        )
        if not longer:
            return prefix
        top, n = longer.most_common(1)[0]
        if n < share * len(paths):
            return prefix
        prefix = list(top)


def _common(path: list[str], prefix: list[str]) -> int:
    n = 0
    while n < min(len(path), len(prefix)) and path[n] == prefix[n]:
        n += 1
    return n


def repath(mode: str, src: Path, dst: Path) -> None:
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(src.glob("*.jsonl")):
        rows = [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
        prefix = shared_prefix([c["heading_path"] for c in rows]) if mode == "shared" else []
        for c in rows:
            path = c["heading_path"]
            if mode == "shared":
                keep = path[max(1, _common(path, prefix)) :]
            else:
                keep = [] if mode == "text" else path[-1:] if mode == "last" else path[1:]
            c["embed_text"] = " > ".join(keep) + "\n\n" + c["text"] if keep else c["text"]
        (dst / f.name).write_text("".join(json.dumps(c) + "\n" for c in rows))


def _rows(f: Path) -> list[dict]:
    return [json.loads(line) for line in f.read_text().splitlines() if line.strip()]


def _write(dst: Path, name: str, rows: list[dict]) -> None:
    dst.mkdir(parents=True, exist_ok=True)
    (dst / name).write_text("".join(json.dumps(c) + "\n" for c in rows))


def heading_once(src: Path, dst: Path) -> None:
    for f in sorted(src.glob("*.jsonl")):
        rows = _rows(f)
        for c in rows:
            path = c.get("heading_path") or []
            if c.get("kinds") == ["heading"] and path and path[-1] == c["text"] and len(path) > 1:
                c["embed_text"] = " > ".join(path[1:])
        _write(dst, f.name, rows)


def siblings(src: Path, dst: Path, limit: int = 256, count=None) -> None:
    if count is None:
        from ingest.chunker.tokens import get_tokenizer

        count = get_tokenizer("cl100k_base").count
    for f in sorted(src.glob("*.jsonl")):
        out: list[dict] = []
        for c in _rows(f):
            read = c.get("embed_text") or c["text"]
            if out:
                p = out[-1]
                path, before = c.get("heading_path") or [], p.get("heading_path") or []
                joined = (p.get("embed_text") or p["text"]) + "\n\n" + read
                if path != before and path[:-1] == before[:-1] and count(joined) <= limit:
                    p["embed_text"], p["text"] = joined, p["text"] + "\n\n" + c["text"]
                    p["page_end"] = c.get("page_end") or p.get("page_end")
                    continue
            out.append(dict(c))
        _write(dst, f.name, out)


def semchunk_on_ingest(data: Path, dst: Path, size: int = 256) -> None:
    import semchunk

    from ingest import clean_blocks, load_file
    from ingest.chunker.tokens import encoding
    from ingest.chunker.units import display_text

    split = semchunk.chunkerify(encoding("cl100k_base"), size)
    dst.mkdir(parents=True, exist_ok=True)
    for pdf in sorted((data / "pdfs").glob("*.pdf")):
        parts, starts, pages, pos = [], [], [], 0
        for block in clean_blocks(load_file(pdf)):
            text = display_text(block)
            if text.strip():
                parts.append(text)
                starts.append(pos)
                pages.append(block.page)
                pos += len(text) + 2
        texts, offsets = split("\n\n".join(parts), offsets=True)
        rows = []
        for text, (a, z) in zip(texts, offsets):
            i, j = bisect.bisect_right(starts, a) - 1, bisect.bisect_right(starts, max(a, z - 1)) - 1
            on = [p for p in pages[max(i, 0) : j + 1] if p is not None]
            rows.append({"text": text, "page_start": min(on, default=None), "page_end": max(on, default=None)})
        (dst / f"{pdf.stem}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def cleaners(mode: str, data: Path, dst: Path, size: int = 256) -> None:
    from ingest import ChunkOptions, chunk, clean_blocks, load_file
    from ingest.chunk_json import chunk_to_dict
    from ingest.cleaners import CleanContext
    from ingest.cleaners.empty_cells import drop_empty_cells

    dst.mkdir(parents=True, exist_ok=True)
    for pdf in sorted((data / "pdfs").glob("*.pdf")):
        loaded = load_file(pdf)
        blocks = list(loaded.blocks) if mode == "none" else clean_blocks(loaded)
        if mode == "empty_cells":
            blocks = list(drop_empty_cells(blocks, CleanContext(loaded.document, None)))
        rows = [chunk_to_dict(c) for c in chunk(loaded, ChunkOptions(max_tokens=size), blocks)]
        (dst / f"{pdf.stem}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("path")
    p.add_argument("mode", choices=["text", "last", "noroot", "shared"])
    p.add_argument("src", type=Path)
    p.add_argument("dst", type=Path)
    p = sub.add_parser("semchunk")
    p.add_argument("data", type=Path)
    p.add_argument("dst", type=Path)
    p = sub.add_parser("cleaners")
    p.add_argument("mode", choices=["none", "empty_cells"])
    p.add_argument("data", type=Path)
    p.add_argument("dst", type=Path)
    p = sub.add_parser("heading-once")
    p.add_argument("src", type=Path)
    p.add_argument("dst", type=Path)
    p = sub.add_parser("siblings")
    p.add_argument("src", type=Path)
    p.add_argument("dst", type=Path)
    p.add_argument("--limit", type=int, default=256)
    a = ap.parse_args(argv)
    if a.cmd == "heading-once":
        heading_once(a.src, a.dst)
    elif a.cmd == "siblings":
        siblings(a.src, a.dst, a.limit)
    elif a.cmd == "path":
        repath(a.mode, a.src, a.dst)
    elif a.cmd == "semchunk":
        semchunk_on_ingest(a.data, a.dst)
    else:
        cleaners(a.mode, a.data, a.dst)


if __name__ == "__main__":
    main()
