"""HTML content extraction: ingest's DOM walk (after the default cleaners) against trafilatura
(`pip install trafilatura lxml_html_clean`), in one run, on the corpus's saved pages.

- Word recall and precision against docling's hand-checked Markdown of its 28 test pages (pages
  of content without chrome: what a walk must not lose).
- On the corpus's real saved web pages with chrome (unstructured's ISW article with scripts and
  nav, Paul Graham's table-laid essay, the SteelJIS datasheet): words kept, and whether the
  page's navigation labels and the content's last sentence survive.
- Pages a second for each.

    PYTHONPATH=. .venv/bin/python benchmarks/html_extract.py
"""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path

import trafilatura
from shared_paths import CORPUS as SHARED_CORPUS

from ingest.cleaners import clean_blocks
from ingest.loaders import load_file

CORPUS = SHARED_CORPUS / "formats"
DOCLING = CORPUS / "docling/tests/data/html"
UNSTRUCTURED = CORPUS / "unstructured/example-docs"
_WORD = re.compile(r"\w+")


def words(text: str) -> Counter:
    return Counter(w.lower() for w in _WORD.findall(text))


def ours(path: Path) -> str:
    return "\n".join(b.text for b in clean_blocks(load_file(path)))


def theirs(path: Path) -> str:
    return trafilatura.extract(path.read_bytes(), include_tables=True, include_comments=False, favor_recall=True) or ""


def overlap(got: Counter, want: Counter) -> tuple[int, int, int]:
    common = sum((got & want).values())
    return common, sum(got.values()), sum(want.values())


def main() -> None:
    pages = sorted((DOCLING / "sources").glob("*.html"))
    for name, extract in (("ingest", ours), ("trafilatura", theirs)):
        hit = got = want = 0
        start = time.perf_counter()
        for page in pages:
            gt = (DOCLING / "groundtruth" / (page.name + ".md")).read_text()
            h, g, w = overlap(words(extract(page)), words(re.sub(r"[|#*`-]+", " ", gt)))
            hit, got, want = hit + h, got + g, want + w
        secs = time.perf_counter() - start
        print(f"docling pages ({len(pages)}) {name:12} recall {hit / want:.1%} precision {hit / max(got, 1):.1%} "
              f"{len(pages) / secs:.0f} pages/s")  # fmt: skip
    checks = {
        "example-with-scripts.html": (["Skip to main content", "Who We Are", "Planned Giving"], "Key Takeaways"),
        "ideas-page.html": ([], "Knowledge grows fractally"),
        "example-steelJIS-datasheet.html": (["Japanese steel grading Steel standards"], "Hardness of grade"),
    }
    for page, (chrome, content) in checks.items():
        path = UNSTRUCTURED / page
        for name, extract in (("ingest", ours), ("trafilatura", theirs)):
            start = time.perf_counter()
            text = extract(path)
            secs = time.perf_counter() - start
            flat = " ".join(text.split())
            kept = [c for c in chrome if c in flat]
            print(f"{page:34} {name:12} words {sum(words(text).values()):6}  chrome kept {len(kept)}/{len(chrome)}  "
                  f"content {'kept' if content in flat else 'LOST'}  {secs * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
