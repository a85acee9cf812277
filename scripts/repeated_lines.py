"""Blocks that read a page's words twice: per page of each PDF, pairs of loader blocks one of
whose lines (three words or more) another block on the page holds too (issue #29: a table ruled
across round a grid read the grid's rows again).

    .venv/bin/python scripts/repeated_lines.py out.json ../shared/ragbench/financebench/pdfs/*.pdf

A pair is "substantial" when two lines or more repeat (half the smaller block's, at least) or a
table is made only of lines the other block holds (a heads-only copy). Two tables that share
only their heads (a period's table under another's) count too: compare two checkouts' counts,
not one's against zero. Writes every pair to out.json, one summary line a file to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.blocks import Block, Document  # noqa: E402
from ingest.loaders.pdf import loader as pdf  # noqa: E402

MIN_WORDS = 3


def _rows(block: Block) -> list[str]:
    if block.kind == "table" and block.rows:
        return [" ".join(" ".join(c for c in row if c).split()) for row in block.rows]
    return [" ".join(line.split()) for line in block.text.split("\n")]


def _lines(block: Block) -> list[str]:
    return [line for line in _rows(block) if len(line.split()) >= MIN_WORDS]


def pairs(path: Path) -> list[dict]:
    document = Document(id=path.name, uri=path.as_uri(), name=path.name, mime_type="application/pdf")
    pages: dict[int, list[Block]] = defaultdict(list)
    for block in pdf.load(path.read_bytes(), document).blocks:
        pages[block.page or 0].append(block)
    found = []
    for page, blocks in sorted(pages.items()):
        for i, a in enumerate(blocks):
            mine = _lines(a)
            for j, b in enumerate(blocks):
                theirs = _lines(b)
                if i == j or not mine or (j < i and theirs):  # each pair once
                    continue
                text = "\n".join(_rows(b))
                shared = [line for line in mine if line in text]
                if not shared:
                    continue
                fewer = min(len(mine), len(theirs)) if theirs else len(mine)
                substantial = (len(shared) >= 2 and 2 * len(shared) >= fewer) or (
                    a.kind == "table" and len(shared) == len(mine)
                )
                found.append(
                    {
                        "page": page,
                        "kinds": [a.kind, b.kind],
                        "shared": len(shared),
                        "lines": len(mine),
                        "substantial": substantial,
                        "first": shared[0][:60],
                    }
                )
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("pdfs", nargs="+", type=Path)
    a = ap.parse_args()
    out = {}
    for path in a.pdfs:
        found = out[path.name] = pairs(path)
        sub = [f for f in found if f["substantial"]]
        print(f"{path.name}: {len(found)} pairs; substantial {len(sub)} on pages {sorted({f['page'] for f in sub})}")
    print(f"total substantial pairs: {sum(f['substantial'] for found in out.values() for f in found)}")
    a.out.write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
