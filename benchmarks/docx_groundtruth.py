"""The docx loader against docling's DOCX ground truth (`docling/docx/groundtruth/*.json`).

Per file: headings (title, section_header) found in some block's heading path; body text items
found in the body text; table cells found in table rows; page header/footer text absent from the
body once the default cleaners ran. Formulas are left out (docling writes them as LaTeX).

    .venv/bin/python benchmarks/docx_groundtruth.py [--corpus ../shared/corpus]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from shared_paths import CORPUS

from ingest.blocks import Document
from ingest.cleaners import build_chain, clean
from ingest.loaders.word import docx

ROOT = Path(__file__).resolve().parent.parent
# Checkbox glyphs: docling keeps a checkbox's state apart from the cell text, we keep the glyph.
_CHECKBOX = re.compile("[\u2610\u2611\u2612]")
BODY_LABELS = {
    "text",
    "paragraph",
    "list_item",
    "caption",
    "code",
    "footnote",
    "checkbox_selected",
    "checkbox_unselected",
}


def norm(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Score:
    name: str
    headings: tuple[int, int] = (0, 0)
    body: tuple[int, int] = (0, 0)
    cells: tuple[int, int] = (0, 0)
    furniture_leaks: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def score(source: Path, truth: Path) -> Score:
    gt = json.loads(truth.read_text(encoding="utf-8"))
    doc = Document(id=str(source), uri=source.as_uri(), name=source.name, mime_type=docx.MIME, title=source.stem)
    loaded = docx.load(source.read_bytes(), doc)
    blocks, _ = clean(loaded.blocks, loaded.document, build_chain([]))
    blocks = list(blocks)
    paths = {norm(p) for b in blocks for p in b.path}
    body = norm(" ".join(b.text for b in blocks if b.layer == "body"))
    cells = norm(_CHECKBOX.sub("", " ".join(c for b in blocks if b.rows for row in b.rows for c in row)))
    s = Score(source.name)
    found = total = 0
    for t in gt["texts"]:
        if t.get("content_layer") == "body" and t["label"] in ("title", "section_header") and norm(t["text"]):
            total += 1
            want = norm(t["text"])
            # Our headings keep Word's list number ("1. Scope"); docling may write it without the dot.
            ok = any(p == want or p.endswith(" " + want) or _unnumbered(p) == _unnumbered(want) for p in paths)
            found += ok
            if not ok:
                s.missing.append(f"heading {want!r}")
    s.headings = (found, total)
    found = total = 0
    for t in gt["texts"]:
        if t.get("content_layer") == "body" and t["label"] in BODY_LABELS and norm(t["text"]):
            if t.get("parent", {}).get("$ref", "").startswith("#/tables"):
                continue  # cell text, scored below
            total += 1
            ok = norm(t["text"]) in body
            found += ok
            if not ok:
                s.missing.append(f"{t['label']} {norm(t['text'])[:80]!r}")
    s.body = (found, total)
    found = total = 0
    for table in gt.get("tables", []):
        if table.get("content_layer", "body") != "body":
            continue
        for cell in table["data"]["table_cells"]:
            text = norm(_CHECKBOX.sub("", cell["text"]))
            if text and not text.startswith("$"):  # docling writes formulas as LaTeX
                total += 1
                ok = text in cells
                found += ok
                if not ok:
                    s.missing.append(f"cell {text[:80]!r}")
    s.cells = (found, total)
    # A header or footer leaks when a body block (or a line of one) reads as it; the same words
    # inside a longer sentence are no leak.
    body_items = {norm(t["text"]) for t in gt["texts"] if t.get("content_layer") == "body"}
    body_lines = {norm(line) for b in blocks if b.layer == "body" for line in (b.text, *b.text.splitlines())}
    for t in gt["texts"]:
        text = norm(t["text"])
        if t.get("content_layer") == "furniture" and text and text not in body_items and text in body_lines:
            s.furniture_leaks.append(text[:80])
    return s


def _unnumbered(text: str) -> str:
    return re.sub(r"^[\dIVXLivxl]+[.)]?(\d+[.)]?)*\s+", "", text)


def scores(corpus: Path) -> list[Score]:
    folder = corpus / "docling" / "docx"
    out = []
    for truth in sorted((folder / "groundtruth").glob("*.docx.json")):
        source = folder / "sources" / truth.name.removesuffix(".json")
        if source.exists():
            out.append(score(source, truth))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("-v", "--verbose", action="store_true", help="list what is missing")
    args = parser.parse_args()
    results = scores(args.corpus)
    print(f"{'file':40} {'headings':>9} {'body':>9} {'cells':>9} {'hdr/ftr leaks':>13}")
    tot = [0] * 6
    for s in results:
        print(
            f"{s.name:40} {s.headings[0]:>4}/{s.headings[1]:<4} {s.body[0]:>4}/{s.body[1]:<4} {s.cells[0]:>4}/{s.cells[1]:<4} {len(s.furniture_leaks):>13}"
        )
        for i, (a, b) in enumerate((s.headings, s.body, s.cells)):
            tot[2 * i] += a
            tot[2 * i + 1] += b
        if args.verbose:
            for m in s.missing + [f"leak {x!r}" for x in s.furniture_leaks]:
                print(f"    - {m}")
    print(
        f"{'TOTAL':40} {tot[0]:>4}/{tot[1]:<4} {tot[2]:>4}/{tot[3]:<4} {tot[4]:>4}/{tot[5]:<4} {sum(len(s.furniture_leaks) for s in results):>13}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
