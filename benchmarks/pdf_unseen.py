"""PDF structure on documents nobody tuned the loader on: proxies from each document's own evidence.

No ground truth: every figure compares ingest's chunks with what the PDF itself shows, over the
ragbench PDFs (FinanceBench 10-Ks, 10-Qs, earnings releases; MMLongBench-Doc reports, papers,
guidebooks, brochures; used in place, never copied) and the corpus PDFs:

- **furn**: running furniture: a line (digits normalised) in the outermost two rows of the top or
  bottom tenth of at least 3 pages (2 on a document under 6 pages), seen there more often than
  anywhere else in the raw text. Leaked = its occurrences in the chunks beyond those the raw body
  text has, in lines (`furn lines`) and strings (`furn strs`: leaked on at least half its pages).
- **pgnum**: a page's printed number (a number alone in its outer rows) left in a block of that
  page: alone, or at either end of a header or footer line the cleaners kept.
- **toc rec**: heading recall against the PDF's own outline (`get_toc`), on a copy with the outline
  removed (`set_toc([])`), so it measures the type and geometry rules alone: an entry printed on
  its page (or the next or previous) is found when a heading there has its words (numbering
  aside). `toc on` is the same with the outline kept (what users get).
- **head sus**: headings that are unlikely ones (default run): a sentence (ends in a stop, 6+ words,
  half of them in lower case),
  no letters, over 15 words, a row with two more pieces of text beside it (a table cell), or the
  same text heading 3+ times in the document.
- **num lines**: body paragraphs that are bare numbers (figure and axis text): their numbers.
- **order**: pairs of consecutive raw lines of one paragraph (stacked, left edges within 2 pt, 25+
  characters each, outside tables and figures) whose seam (two words either side) the chunks keep.

With `--peer-python` (the pymupdf4llm + pymupdf-layout venv, `benchmarks/pdf_eval.py`), the same
proxies for pymupdf4llm's markdown (`to_markdown(page_chunks=True, header=False, footer=False)`
with the layout model, on the outline-free copy) on the documents of at most `--peer-max-pages`.

    .venv/bin/python benchmarks/pdf_unseen.py [--shared ../shared] [--jobs 2] [--json FILE]
        [--peer-python PATH] [--peer-max-pages 30] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from shared_paths import SHARED

from ingest.chunker import ChunkOptions, chunk
from ingest.cleaners import build_chain, clean
from ingest.loaders import load_bytes, local_document

ROOT = Path(__file__).resolve().parent.parent
SETS = ("ragbench/financebench/pdfs", "ragbench/mmlb/pdfs", "corpus")
BAND = 0.1  # top and bottom tenth of the page
ROWS = 2  # outermost rows of each band where furniture sits
_PAGE_NUMBER = re.compile(
    r"(?i)(?:page\s*)?[-\u2013\u2014]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014]?(?:\s*(?:of|/)\s*\d{1,4})?"
)
_NUMERIC = re.compile(r"[-+\u2212]?[$\u20ac\u00a3]?\(?\d[\d,.]*\)?%?")
_LEAD_NUMBER = re.compile(
    r"(?i)^(?:(?:chapter|section|part|appendix|annex|item)\s+)?(?:\d{1,3}(?:\.\d{1,3})*|[ivxlc]{1,6}|[a-h](?:\.\d{1,3})*)[.):]?\s+"
)


def norm(text: str) -> str:
    """Letters and digits only, lower case, digits as '#': furniture compared across pages."""
    text = unicodedata.normalize("NFKC", text).lower()
    return re.sub(r"\d", "#", "".join(c for c in text if c.isalnum()))


def key(text: str) -> str:
    """A heading's words without its number, case or punctuation."""
    text = _LEAD_NUMBER.sub("", unicodedata.normalize("NFKC", text).strip(), count=1)
    return "".join(c for c in text.lower() if c.isalnum())


def words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "").lower()
    return [w for w in ("".join(c for c in t if c.isalnum()) for t in text.split()) if w]


def numeric_only(text: str) -> int:
    """How many numbers a text is made of, 0 unless it is nothing else."""
    toks = text.split()
    return len(toks) if toks and all(_NUMERIC.fullmatch(t) for t in toks) else 0


# ----------------------------------------------------------------------------- the raw PDF
@dataclass(frozen=True)
class RawLine:
    page: int
    text: str
    bbox: tuple[float, float, float, float]
    outer: str | None  # "top" / "bottom": in the outermost rows of that band
    block: int


@dataclass
class Raw:
    pages: int
    lines: list[RawLine]
    toc: list
    labels: dict[int, str] = field(default_factory=dict)


def read_raw(doc: pymupdf.Document) -> Raw:
    lines: list[RawLine] = []
    for page in doc:
        h = page.rect.height
        found = []
        for b, block in enumerate(page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]):
            for line in block["lines"]:
                text = "".join(s["text"] for s in line["spans"]).strip()
                if text and line["dir"][0] > 0.9:  # horizontal text
                    found.append((text, tuple(line["bbox"]), b))
        rows = sorted({round(bb[1]) for _, bb, _ in found})
        top = set(r for r in rows[:ROWS] if r <= BAND * h)
        bottom = set(r for r in rows[-ROWS:] if r >= (1 - BAND) * h - 12)
        for text, bb, b in found:
            r = round(bb[1])
            outer = (
                "top"
                if r in top and bb[3] <= BAND * h
                else "bottom"
                if r in bottom and bb[1] >= (1 - BAND) * h
                else None
            )
            lines.append(RawLine(page.number + 1, text, bb, outer, b))
    return Raw(doc.page_count, lines, doc.get_toc(simple=True))


def furniture(raw: Raw) -> tuple[dict[str, set[int]], dict[int, set[str]]]:
    """Recurring band strings (core: digits at the ends trimmed) with their pages; printed page
    numbers per page."""
    band: dict[str, set[int]] = defaultdict(set)
    elsewhere: Counter[str] = Counter()
    numbers: dict[int, set[str]] = defaultdict(set)
    for line in raw.lines:
        core = norm(line.text).strip("#")
        if (
            line.outer
            and _PAGE_NUMBER.fullmatch(line.text.strip())
            and not re.fullmatch(r"[IVXLCDM]", line.text.strip())
        ):
            numbers[line.page].add(line.text.strip().lower())
            continue
        if line.outer:
            band[core].add(line.page)
        else:
            elsewhere[core] += 1
    least = 2 if raw.pages < 6 else 3
    return (
        {c: p for c, p in band.items() if len(c) >= 5 and len(p) >= least and len(p) > elsewhere[c]},
        printed_numbers(numbers),
    )


def printed_numbers(found: dict[int, set[str]]) -> dict[int, set[str]]:
    """The candidates that are page numbers by their sequence: a roman numeral, or a number whose
    offset from the page index two pages or more share (a table's "2017" at a page's foot is none)."""
    offsets = Counter()
    for page, texts in found.items():
        offsets.update({int(d) - page for t in texts for d in re.findall(r"\d+", t)[:1]})
    return {
        page: {t for t in texts if not re.search(r"\d", t) or offsets[int(re.findall(r"\d+", t)[0]) - page] >= 2}
        for page, texts in found.items()
    }


def line_pairs(raw: Raw, boxes: dict[int, list[tuple]]) -> list[tuple[str, ...]]:
    """Seams of consecutive lines of one paragraph: 2 words either side."""
    out = []
    prev: RawLine | None = None
    for line in raw.lines:
        p = prev
        prev = line
        if p is None or p.page != line.page or p.block != line.block or p.outer or line.outer:
            continue
        h = p.bbox[3] - p.bbox[1]
        # The next line down (boxes of tight leading overlap a little), from the same left edge.
        if not (-0.3 * h <= line.bbox[1] - p.bbox[3] <= 0.8 * h and abs(line.bbox[0] - p.bbox[0]) <= 2):
            continue
        if len(p.text) < 25 or len(line.text) < 25 or p.text.endswith(("-", "\u00ad")):
            continue
        if any(inside(ln.bbox, b) for ln in (p, line) for b in boxes.get(line.page, ())):
            continue
        a, b = words(p.text), words(line.text)
        if len(a) >= 3 and len(b) >= 3:
            out.append((a[-2], a[-1], b[0], b[1]))
    return out


def inside(box, outer) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] - 1 <= cx <= outer[2] + 1 and outer[1] - 1 <= cy <= outer[3] + 1


def printed_entries(raw: Raw) -> list[tuple[str, int, str]]:
    """Outline entries whose words are printed on their page (or one off): (key, page, title)."""
    text = defaultdict(str)
    for line in raw.lines:
        text[line.page] += "".join(c for c in unicodedata.normalize("NFKC", line.text).lower() if c.isalnum())
    out = []
    for _level, title, page in raw.toc:
        k = key(title)
        if len(k) >= 3 and any(k in text.get(p, "") for p in (page, page - 1, page + 1)):
            out.append((k, page, title))
    return out


def recall(entries: list[tuple[str, int, str]], headings: list[tuple[str, int]]) -> tuple[int, int, list]:
    """Entries found among the headings of their page (or one off), of all; the missed (page, title)."""
    by_page = defaultdict(list)
    for k, page in headings:
        by_page[page].append(k)
    missed = []
    for k, page, title in entries:
        near = [h for p in (page, page - 1, page + 1) for h in by_page.get(p, ())]
        if not any(h and (h.startswith(k) or (len(h) >= 6 and k.startswith(h))) for h in near):
            missed.append((page, title))
    return len(entries) - len(missed), len(entries), missed


# ----------------------------------------------------------------------------- one tool's output
@dataclass
class Output:
    """What a tool made of a document: text pieces with their page, headings, prose, tables."""

    stream: str  # norm() of all chunk text, for furniture
    pieces: list[tuple[int, str, bool]]  # (page, text, is a kept band line) of non-table blocks
    headings: list[tuple[str, int, tuple | None]]  # (text, page, bbox)
    grams: set[tuple[str, ...]]
    boxes: dict[int, list[tuple]] = field(default_factory=dict)  # table and figure boxes per page


def ingest_output(data: bytes, path: Path, steps) -> Output:
    loaded = load_bytes(data, local_document(path, data, 0.0))
    blocks = list(clean(loaded.blocks, loaded.document, steps)[0])
    texts = [c.text for c in chunk(loaded, ChunkOptions(overlap_tokens=0), blocks)]
    boxes = defaultdict(list)
    for b in loaded.blocks:
        if b.kind in ("table", "figure") and b.bbox is not None and b.page:
            boxes[b.page].append(b.bbox)
    pieces = [(b.page or 0, b.text, b.meta.get("band") is not None) for b in blocks if b.kind != "table"]
    heads = [(b.text, b.page or 0, b.bbox) for b in blocks if b.kind == "heading"]
    return Output(norm(" ".join(texts)), pieces, heads, grams(texts), boxes)


def markdown_output(pages: list[str]) -> Output:
    texts, pieces, heads = [], [], []
    for number, md in enumerate(pages, 1):
        texts.append(md)
        for line in md.splitlines():
            line = line.strip()
            if not line or line.startswith("|"):
                continue
            if line.startswith("#"):
                heads.append((line.lstrip("#").strip().strip("*"), number, None))
            pieces.append((number, re.sub(r"[*_`]+", "", line).strip(), False))
    return Output(norm(" ".join(texts)), pieces, heads, grams(texts))


def grams(texts: list[str]) -> set[tuple[str, ...]]:
    w = [x for t in texts for x in words(re.sub(r"[*_#|`]+", " ", t))]
    return set(zip(w, w[1:], w[2:], w[3:]))


# ----------------------------------------------------------------------------- the proxies
def figures(raw: Raw, out: Output, toc_out: Output | None, pairs: list) -> dict:
    furn, numbers = furniture(raw)
    raw_stream = norm(" ".join(line.text for line in raw.lines))
    f_lines = f_leaked = f_strs = f_strs_leaked = 0
    leaks = []
    for core, pages in furn.items():
        body = raw_stream.count(core) - len(pages)
        leaked = min(len(pages), max(0, out.stream.count(core) - max(0, body)))
        f_lines += len(pages)
        f_leaked += leaked
        f_strs += 1
        if leaked * 2 >= len(pages):
            f_strs_leaked += 1
            leaks.append(core[:40])
    pgnum = 0
    num_lines = 0
    inner = Counter((line.page, line.text.strip().lower()) for line in raw.lines if not line.outer)
    seen = Counter()
    for page, text, kept_band in out.pieces:
        t = text.strip().lower()
        mine = numbers.get(page, ())
        if t in mine:
            seen[page, t] += 1  # the same number in a chart or table of the page is no page number
            if seen[page, t] > inner[page, t]:
                pgnum += 1
        elif kept_band and any(t.startswith(n + " ") or t.endswith(" " + n) for n in mine):
            pgnum += 1
        elif not text.startswith(("#",)):
            num_lines += numeric_only(text)
    heads = out.headings
    counts = Counter(" ".join(h.split()).lower() for h, _, _ in heads)
    by_page = defaultdict(list)
    for line in raw.lines:
        by_page[line.page].append(line)
    sus = Counter()
    suspects = []
    for text, page, bbox in heads:
        n = len(text.split())
        lower = sum(w[:1].islower() for w in text.split())
        if text.rstrip().endswith((".", "!", "?")) and n >= 6 and 2 * lower >= n:
            kind = "sentence"  # "Item 8. Financial Statements and Supplementary Data." is a title
        elif not any(c.isalpha() for c in text):
            kind = "number"
        elif n > 15:
            kind = "long"
        elif bbox is not None and _in_row(bbox, by_page[page]):
            kind = "cell"
        elif counts[" ".join(text.split()).lower()] >= 3:
            kind = "repeated"
        else:
            continue
        sus[kind] += 1
        suspects.append((kind, page, text[:120]))
    entries = printed_entries(raw) if raw.toc else []
    row = {
        "pages": raw.pages,
        "furn_lines": f_lines,
        "furn_leaked": f_leaked,
        "furn_strs": f_strs,
        "furn_strs_leaked": f_strs_leaked,
        "leaks": leaks[:5],
        "pgnum": pgnum,
        "num_lines": num_lines,
        "headings": len(heads),
        "head_sus": sum(sus.values()),
        "sus": dict(sus),
        "suspects": suspects,
        "order": (sum(p in out.grams for p in pairs), len(pairs)),
    }
    if entries:
        hit, of, _ = recall(entries, [(key(h), p) for h, p, _ in heads])
        row["toc_on"] = (hit, of)
        if toc_out is not None:
            hit, of, row["toc_missed"] = recall(entries, [(key(h), p) for h, p, _ in toc_out.headings])
            row["toc_off"] = (hit, of)
    return row


def _in_row(bbox, lines: list[RawLine]) -> bool:
    """Two or more other pieces of text beside the heading, on its row."""
    mid = (bbox[1] + bbox[3]) / 2
    beside = [
        line
        for line in lines
        if line.bbox[1] <= mid <= line.bbox[3] and (line.bbox[0] >= bbox[2] or line.bbox[2] <= bbox[0])
    ]
    return len(beside) >= 2


def without_outline(data: bytes) -> bytes:
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        doc.set_toc([])
        return doc.tobytes()


def measure_ingest(path: str) -> tuple[str, dict]:
    steps = build_chain([])
    data = Path(path).read_bytes()
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        raw = read_raw(doc)
    try:
        out = ingest_output(data, Path(path), steps)
        toc_out = ingest_output(without_outline(data), Path(path), steps) if raw.toc else None
    except Exception as exc:  # a failing document is reported, the run goes on
        return path, {"error": f"{type(exc).__name__}: {exc}"[:200], "pages": raw.pages}
    pairs = line_pairs(raw, out.boxes)
    row = figures(raw, out, toc_out, pairs)
    row["pairs"] = pairs
    return path, row


# ----------------------------------------------------------------------------- the peer
_PEER = """
import contextlib, io, json, os, sys
import pymupdf, pymupdf4llm
pymupdf4llm.use_layout(True)
for src, dst in json.loads(sys.argv[1]):
    try:
        doc = pymupdf.open(src)
        if doc.get_toc():
            doc.set_toc([])
        with contextlib.redirect_stdout(io.StringIO()):
            pages = pymupdf4llm.to_markdown(doc, header=False, footer=False, page_chunks=True, show_progress=False)
        out = [p["text"] for p in pages]
    except Exception as e:
        out = {"error": f"{type(e).__name__}: {e}"}
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f)
    print(dst, flush=True)
"""


def run_peer(python: str, paths: list[str], cache: Path) -> dict[str, list[str] | dict]:
    cache.mkdir(parents=True, exist_ok=True)
    todo = []
    for p in paths:
        dst = cache / (hashlib.sha1(Path(p).read_bytes()).hexdigest()[:16] + ".json")
        if not dst.exists():
            todo.append((p, str(dst)))
    if todo:
        env = dict(os.environ, OMP_NUM_THREADS="1")
        subprocess.run([python, "-c", _PEER, json.dumps(todo)], check=False, env=env, stdout=subprocess.DEVNULL)
    out = {}
    for p in paths:
        dst = cache / (hashlib.sha1(Path(p).read_bytes()).hexdigest()[:16] + ".json")
        out[p] = json.loads(dst.read_text(encoding="utf-8")) if dst.exists() else {"error": "no output"}
    return out


def measure_peer(path: str, pages: list[str], pairs: list) -> dict:
    data = Path(path).read_bytes()
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        raw = read_raw(doc)
    out = markdown_output(pages)
    row = figures(raw, out, out, pairs)
    row.pop("toc_on", None)
    return row


# ----------------------------------------------------------------------------- report
def documents(shared: Path, only: str | None) -> list[tuple[str, str]]:
    """(set, path) of every readable PDF with text, each file once."""
    seen, out = set(), []
    for name in SETS:
        for p in sorted((shared / name).rglob("*.pdf")):
            digest = hashlib.sha1(p.read_bytes()).hexdigest()
            if digest in seen or (only and only not in str(p)):
                continue
            seen.add(digest)
            try:
                with pymupdf.open(p) as doc:
                    if doc.needs_pass or not any(pg.get_text("text").strip() for pg in doc):
                        continue
            except Exception:
                continue
            out.append((name.split("/")[1] if "/" in name else name, str(p)))
    return out


def pct(pair) -> str:
    hit, of = pair
    return f"{100 * hit / of:.0f}%" if of else "-"


COLS = ("pages", "furn lines", "furn strs", "pgnum", "toc off", "toc on", "heads", "head sus", "num lines", "order")


def cells(r: dict) -> list[str]:
    if "error" in r:
        return [str(r.get("pages", "")), r["error"][:60]]
    return [
        str(r["pages"]),
        f"{r['furn_leaked']}/{r['furn_lines']}",
        f"{r['furn_strs_leaked']}/{r['furn_strs']}",
        str(r["pgnum"]),
        f"{r['toc_off'][0]}/{r['toc_off'][1]}" if "toc_off" in r else "-",
        f"{r['toc_on'][0]}/{r['toc_on'][1]}" if "toc_on" in r else "-",
        str(r["headings"]),
        str(r["head_sus"]),
        str(r["num_lines"]),
        pct(r["order"]),
    ]


def total(rows: list[dict]) -> dict:
    ok = [r for r in rows if "error" not in r]
    t = {"docs": len(ok), "errors": len(rows) - len(ok)}
    for k in (
        "pages",
        "furn_lines",
        "furn_leaked",
        "furn_strs",
        "furn_strs_leaked",
        "pgnum",
        "num_lines",
        "headings",
        "head_sus",
    ):
        t[k] = sum(r[k] for r in ok)
    for k in ("toc_off", "toc_on", "order"):
        t[k] = (sum(r[k][0] for r in ok if k in r), sum(r[k][1] for r in ok if k in r))
    t["sus"] = dict(sum((Counter(r["sus"]) for r in ok), Counter()))
    return t


def print_table(title: str, named: list[tuple[str, dict]]) -> None:
    print(f"\n{title}")
    width = max(len(n) for n, _ in named) if named else 10
    print(f"{'document':{width}}  " + "  ".join(f"{c:>10}" for c in COLS))
    for name, r in named:
        print(f"{name:{width}}  " + "  ".join(f"{c:>10}" for c in cells(r)))


def print_detail(named: list[tuple[str, dict]]) -> None:
    """Outline entries the outline-free run missed, and the suspect headings, per document."""
    for name, r in named:
        missed, suspects = r.get("toc_missed", []), r.get("suspects", [])
        if missed or suspects:
            print(f"\n{name}")
        for page, title in missed:
            print(f"  missed   p{page:<4} {title[:100]!r}")
        for kind, page, text in suspects:
            print(f"  {kind:8} p{page:<4} {text[:100]!r}")


def summary(label: str, t: dict) -> str:
    return (
        f"{label:22} {t['docs']:>4} docs {t['pages']:>5} pages | furn lines leaked {t['furn_leaked']}/{t['furn_lines']}"
        f" ({pct((t['furn_leaked'], t['furn_lines']))}), strings {t['furn_strs_leaked']}/{t['furn_strs']}"
        f" | pgnum {t['pgnum']} | toc recall off {pct(t['toc_off'])} ({t['toc_off'][0]}/{t['toc_off'][1]})"
        f", on {pct(t['toc_on'])} | headings {t['headings']}, suspect {t['head_sus']}"
        f" ({pct((t['head_sus'], t['headings']))}) {t['sus']} | num lines {t['num_lines']}"
        f" | order {pct(t['order'])} ({t['order'][0]}/{t['order'][1]})"
        + (f" | {t['errors']} failed" if t["errors"] else "")
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--peer-python", default=None)
    ap.add_argument("--peer-max-pages", type=int, default=30)
    ap.add_argument("--peer-cache", type=Path, default=Path(tempfile.gettempdir()) / "pdf_unseen_peer")
    ap.add_argument("--only", default=None, help="only PDFs whose path contains this")
    ap.add_argument("--detail", action="store_true", help="print each document's missed outline entries and suspects")
    args = ap.parse_args()
    docs = documents(args.shared, args.only)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = dict(pool.map(measure_ingest, [p for _, p in docs]))
    named = [(Path(p).name[:44], rows[p]) for _, p in docs]
    print_table("ingest, per document (furn/pgnum/num lines/head sus: lower is better)", named)
    print("\nleaked furniture (first strings, normalised):")
    for name, r in named:
        if r.get("leaks"):
            print(f"  {name}: {r['leaks']}")
    if args.detail:
        print_detail(named)
    sets = sorted({s for s, _ in docs})
    print("\ningest, totals")
    result = {"ingest": {}, "peer": {}}
    for s in sets + ["all"]:
        t = total([rows[p] for ds, p in docs if s in ("all", ds)])
        result["ingest"][s] = t
        print(summary(f"{s}", t))
    if args.peer_python:
        small = [p for _, p in docs if rows[p].get("pages", 0) <= args.peer_max_pages]
        md = run_peer(args.peer_python, small, args.peer_cache)
        peer = {
            p: (
                measure_peer(p, md[p], rows[p].get("pairs", []))
                if isinstance(md[p], list)
                else {"error": md[p]["error"], "pages": rows[p].get("pages", 0)}
            )
            for p in small
        }
        print_table(
            f"pymupdf4llm + layout, documents of at most {args.peer_max_pages} pages",
            [(Path(p).name[:44], peer[p]) for p in small],
        )
        print(f"\nsame {len(small)} documents (pymupdf4llm's 'toc off' is its only run: it ignores outlines)")
        ti, tp = total([rows[p] for p in small]), total(list(peer.values()))
        print(summary("ingest", ti))
        print(summary("pymupdf4llm+layout", tp))
        result["peer"] = {"docs": small, "ingest": ti, "p4l-layout": tp}
    if args.json:
        for r in rows.values():
            r.pop("pairs", None)
        args.json.write_text(json.dumps({"rows": rows, **result}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
