"""PDF loader + cleaners against docling's ground truth, per file and overall.

docling labels each text item of its test PDFs (`groundtruth/<name>.json`): `page_header` and
`page_footer` items (content layer "furniture") are furniture, `section_header` items are headings,
everything else with text (paragraphs, list items, captions, footnotes, table cells) is body.
Three figures per file, over words (lower-cased runs of letters and digits):

- body kept: share of the body's words found in the output (multiset intersection);
- furniture left: furniture words found in the output beyond what the body accounts for (a page
  number "3" left in the text counts; the "3" of "3 apples" in the body does not);
- headings found: share of section headers that appear in some block's (or chunk's) heading path.

    .venv/bin/python benchmarks/pdf_groundtruth.py [--chunks] [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from shared_paths import CORPUS

ROOT = Path(__file__).resolve().parent.parent
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Truth:
    name: str
    body: Counter
    furniture: Counter
    headings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Score:
    name: str
    body_words: int
    body_kept: int
    furniture_words: int
    furniture_left: int
    headings: int
    headings_found: int
    missing_headings: tuple[str, ...]
    furniture_left_words: tuple[str, ...]

    @property
    def body_share(self) -> float:
        return self.body_kept / self.body_words if self.body_words else 1.0

    @property
    def heading_share(self) -> float:
        return self.headings_found / self.headings if self.headings else 1.0


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("_", " "))


def truth_files(corpus: Path) -> list[tuple[Path, Path]]:
    """(pdf, ground truth json) pairs that both exist."""
    base = corpus / "docling" / "pdf"
    pairs = []
    for pdf in sorted((base / "sources").glob("*.pdf")):
        gt = base / "groundtruth" / f"{pdf.stem}.json"
        if gt.exists():
            pairs.append((pdf, gt))
    return pairs


def read_truth(path: Path) -> Truth:
    doc = json.loads(path.read_text(encoding="utf-8"))
    body: Counter = Counter()
    furniture: Counter = Counter()
    headings = []
    for item in doc["texts"]:
        text = item.get("text") or ""
        if item.get("content_layer") == "furniture" or item["label"] in ("page_header", "page_footer"):
            furniture.update(words(text))
            continue
        body.update(words(text))
        if item["label"] in ("section_header", "title") and text.strip():
            headings.append(text)
    for table in doc.get("tables", []):
        for cell in table["data"]["table_cells"]:
            body.update(words(cell.get("text") or ""))
    return Truth(path.stem, body, furniture, tuple(headings))


def score(truth: Truth, texts: Iterable[str], paths: Iterable[tuple[str, ...]]) -> Score:
    out: Counter = Counter()
    for text in texts:
        out.update(words(text))
    kept = truth.body & out
    surplus = out - truth.body
    left = truth.furniture & surplus
    keys = {_key(p) for path in paths for p in path}
    missing = tuple(h for h in truth.headings if not _found(_key(h), keys))
    return Score(
        truth.name,
        sum(truth.body.values()),
        sum(kept.values()),
        sum(truth.furniture.values()),
        sum(left.values()),
        len(truth.headings),
        len(truth.headings) - len(missing),
        missing,
        tuple(sorted(left.elements())),
    )


def _key(text: str) -> str:
    return "".join(words(text))


def _found(key: str, keys: set[str]) -> bool:
    if not key or key in keys:
        return True
    for other in keys:
        if not other:
            continue
        short, long = sorted((key, other), key=len)
        if short in long and len(short) >= 0.8 * len(long):
            return True
        if SequenceMatcher(None, key, other, autojunk=False).ratio() >= 0.85:
            return True
    return False


def evaluate(pdf: Path, gt: Path, chunks: bool = False) -> Score:
    """Load, clean (default PDF chain) and, with `chunks`, chunk one PDF; score it."""
    from ingest.cleaners import build_chain, clean
    from ingest.loaders import load_file

    loaded = load_file(pdf)
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    blocks = list(blocks)
    if chunks:
        from ingest.chunker import ChunkOptions, chunk

        pieces = list(chunk(loaded, ChunkOptions(), blocks=blocks))
        # A heading's words live in the chunks' heading paths, once each, not in their text.
        titles = {t for c in pieces for t in c.heading_path}
        return score(read_truth(gt), [c.text for c in pieces] + sorted(titles), [c.heading_path for c in pieces])
    return score(read_truth(gt), [b.text for b in blocks], [b.path for b in blocks])


def total(scores: list[Score]) -> Score:
    return Score(
        "overall",
        sum(s.body_words for s in scores),
        sum(s.body_kept for s in scores),
        sum(s.furniture_words for s in scores),
        sum(s.furniture_left for s in scores),
        sum(s.headings for s in scores),
        sum(s.headings_found for s in scores),
        tuple(h for s in scores for h in s.missing_headings),
        tuple(w for s in scores for w in s.furniture_left_words),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--chunks", action="store_true", help="score chunks instead of blocks")
    parser.add_argument("-v", "--verbose", action="store_true", help="list missed headings and furniture")
    args = parser.parse_args()
    scores = [evaluate(pdf, gt, args.chunks) for pdf, gt in truth_files(args.corpus)]
    print(f"{'file':32} {'body kept':>16} {'furniture left':>15} {'headings found':>15}")
    for s in scores + [total(scores)]:
        print(
            f"{s.name:32} {s.body_kept:>6}/{s.body_words:<5} {s.body_share:6.1%} "
            f"{s.furniture_left:>6}/{s.furniture_words:<5}   {s.headings_found:>5}/{s.headings:<3} {s.heading_share:6.1%}"
        )
        if args.verbose and s.name != "overall":
            for h in s.missing_headings:
                print(f"    missed heading: {h!r}")
            if s.furniture_left_words:
                print(f"    furniture left: {' '.join(s.furniture_left_words)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
