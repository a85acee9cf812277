"""Tracked changes against Word's own answers: Open-Xml-PowerTools' RP test files.

For every `RPnnn-*.docx` with `-Accepted` / `-Rejected` versions, the text ingest extracts from the
original with the `track_changes` cleaner in accept (reject) mode must equal the text extracted from
the -Accepted (-Rejected) file, after whitespace normalisation (runs of whitespace -> one space).
Block boundaries count: the texts are compared block by block, so a paragraph that should have
joined its neighbour (a tracked paragraph mark) is a miss. Prints the exact-match rate, how many
comparisons are informative (the unresolved text differs from Word's), block kinds that differ
although the text matches, and for each miss where the texts part.

    .venv/bin/python benchmarks/docx_track_changes.py [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shared_paths import CORPUS

from ingest.blocks import Document
from ingest.cleaners import CleanContext
from ingest.cleaners.track_changes import TrackChangesOptions, resolve_track_changes
from ingest.loaders.word import docx

ROOT = Path(__file__).resolve().parent.parent


def extracted(path: Path, mode: str | None) -> list[tuple[str, str]]:
    """(kind, whitespace-normalised text) of each block of `path` after resolving changes in `mode`
    (None: as loaded, changes unresolved)."""
    doc = Document(id=str(path), uri=path.as_uri(), name=path.name, mime_type=docx.MIME, title=path.stem)
    blocks = docx.load(path.read_bytes(), doc).blocks
    if mode is not None:
        ctx = CleanContext(doc, TrackChangesOptions(mode=mode))
        blocks = tuple(resolve_track_changes(blocks, ctx))
    return [(b.kind, " ".join(b.text.split())) for b in blocks]


def texts(blocks: list[tuple[str, str]]) -> list[str]:
    return [t for _, t in blocks]


def rp_sets(folder: Path) -> list[tuple[Path, str, Path]]:
    """(original, mode, Word's result) for every original that has an -Accepted/-Rejected file."""
    out = []
    for original in sorted(folder.glob("RP*.docx")):
        if original.stem.endswith(("-Accepted", "-Rejected")):
            continue
        for mode, suffix in (("accept", "-Accepted"), ("reject", "-Rejected")):
            expected = original.with_name(original.stem + suffix + ".docx")
            if expected.exists():
                out.append((original, mode, expected))
    return out


def first_difference(a: list[str], b: list[str], context: int = 60) -> str:
    k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if k == min(len(a), len(b)):
        return f"{len(a)} blocks vs Word's {len(b)}"
    x, y = a[k], b[k]
    i = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    return f"block {k} at {i}: ours …{x[max(0, i - context) : i + context]!r}… vs Word …{y[max(0, i - context) : i + context]!r}…"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    sets = rp_sets(args.corpus / "open_xml_powertools" / "TestFiles" / "RP")
    misses, informative, kinds = [], 0, []
    for original, mode, expected in sets:
        ours, word = extracted(original, mode), extracted(expected, None)
        ok = texts(ours) == texts(word)
        changed = texts(extracted(original, None)) != texts(word)
        informative += changed
        print(
            f"{'ok  ' if ok else 'MISS'} {mode:6} {original.name}{'' if changed else '  (unresolved text already equal)'}"
        )
        if not ok:
            misses.append((original, mode, first_difference(texts(ours), texts(word))))
        elif ours != word:
            diff = next((a, b) for a, b in zip(ours, word) if a != b)
            kinds.append(f"{original.name} [{mode}] block {diff[1][1][:40]!r}: {diff[0][0]} vs Word's {diff[1][0]}")
    n = len(sets)
    print(
        f"\nexact match, block by block: {n - len(misses)}/{n} = {100 * (n - len(misses)) / max(n, 1):.1f}% "
        f"({len({o for o, _, _ in sets})} originals; {informative} comparisons where the unresolved text differs from Word's)"
    )
    for original, mode, why in misses:
        print(f"- MISS {original.name} [{mode}] {why}")
    for note in kinds:
        print(f"- text equal, kind differs: {note}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
