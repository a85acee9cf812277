"""Why ingest retrieves what it does on ../shared/ragbench: the issue #12 suspects, measured.

    .venv/bin/python benchmarks/retrieval_real.py            # first: chunks and per-question scores
    .venv/bin/python benchmarks/retrieval_diagnose.py        # then this, over the same folders
    .venv/bin/python benchmarks/retrieval_diagnose.py --datasets financebench --show financebench_id_01254

Reads the chunk folders and `per_question.jsonl` that retrieval_real.py leaves in `--work`, and
rag_eval.py's own word and shingle functions (so "evidence" means what the benchmark means).
Per dataset and run it prints:

- sizes: chunk token counts (cl100k of the text) p10/p50/p90 and the share under 32 and 64;
- syntax: for chunks holding a table, the share of all tokens in them, and of those the share
  spent on pipe syntax (delimiter lines; empty cells; separators) and on a header repeated from
  the previous piece; the share of read tokens that are the heading path (embed_text - text),
  and of overlap; the table lines' tokens in other table texts (no outer pipes, "label: v1 | v2",
  cells joined by spaces);
- budget: at the 1,000-token budget, where the read tokens go (table, table piece repeating its
  header, prose, chunks under 64 tokens), the mean evidence share each kind of chunk brings
  (FinanceBench) and how often it lies on an evidence page;
- tables: the share of pipe tables whose header row holds a figure, or a cell over 300 characters;
- statements (FinanceBench): whether the chunk holding most of a statement's evidence names the
  statement in its heading path or text, and whether it is a table block;
- evidence (FinanceBench): budget recall on questions whose evidence is tabular (over a quarter of
  its words are numbers) and on the rest; for rows of a statement in the evidence (a label line
  followed by a figure line), the share whose label and first figure share one chunk; how often
  the single chunk holding most of a question's evidence is read within the budget.

- hyphens: line-end breaks "x-" + "y" in PyMuPDF's text of each document (rag_eval's page cache,
  WORK/DATASET/cache/plain), how many of them the document spells elsewhere with the hyphen and
  how many joined, and how many the run's text reads joined ("xy", never "x-y");
- labels: chunk seams inside one heading path where the chunk ends in a run-in label (a last
  paragraph of at most 20 words ending in ":"), cut from the text it introduces.

`--show QID` prints, for one question and each run, the chunks the budget reads in rank order
(tokens, pages, evidence share) and the chunk holding most of the evidence with its rank.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
from pathlib import Path

from shared_paths import RAGBENCH

ROOT = Path(__file__).resolve().parent.parent
DELIMITER = re.compile(r"^\|(?:\s*:?-{3,}:?\s*\|)+\s*$", re.M)
FIGURE_LINE = re.compile(r"^[\s$€£(]*[-\d][\d,.]*[)%\s$€£]*$")
"""A line holding one figure, as PyMuPDF reads a statement cell ("1,677.8 $": the "$" opens the next)."""
YEAR = re.compile(r"^(?:19|20)\d\d$")
"""A year heads a column; any other figure in a header row is data."""
TABULAR = 0.25
"""Evidence is tabular when more than this share of its words are numbers."""


def load_rag_eval(ragbench: Path):
    spec = importlib.util.spec_from_file_location("rag_eval", ragbench / "tools" / "rag_eval.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_chunks(folder: Path) -> dict[str, list[dict]]:
    """{doc: chunk rows with text} as rag_eval reads them (blank chunks dropped)."""
    out = {}
    for f in sorted(folder.glob("*.jsonl")):
        rows = [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
        out[f.stem] = [r for r in rows if (r.get("embed_text") or r.get("text") or "").strip()]
    return out


def quantile(sorted_xs: list[int], p: float) -> int:
    return sorted_xs[int(p * (len(sorted_xs) - 1))]


def strip_syntax(text: str) -> str:
    """A pipe table's text without its delimiter lines, empty cells and separators."""
    text = DELIMITER.sub("", text)
    text = re.sub(r"\|(?:\s*\|)+", "|", text)
    return re.sub(r"\s*\|\s*", " ", text)


def repeated_header(prev: str | None, text: str) -> str:
    """The header lines (row and delimiter) `text` repeats from the piece before, or ""."""
    lines = text.split("\n")
    if prev is None or len(lines) < 3 or not DELIMITER.match(lines[1]):
        return ""
    head = "\n".join(lines[:2])
    return head if prev.startswith(head) else ""


def sizes(docs: dict[str, list[dict]], count) -> str:
    n = sorted(count(c["text"]) for rows in docs.values() for c in rows)

    def small(k):
        return sum(x < k for x in n) / len(n)

    return (
        f"chunks {len(n)}, tokens p10/p50/p90 {quantile(n, 0.1)}/{quantile(n, 0.5)}/{quantile(n, 0.9)}, "
        f"under 32: {small(32):.3f}, under 64: {small(64):.3f}"
    )


def syntax(docs: dict[str, list[dict]], count) -> str:
    total = table = syn = rep = path = overlap = read = 0
    for rows in docs.values():
        prev = None
        for c in rows:
            n = count(c["text"])
            total += n
            read += count(c.get("embed_text") or c["text"])
            overlap += c.get("overlap_tokens", 0)
            if "table" in c.get("kinds", ()):
                table += n
                syn += n - count(strip_syntax(c["text"]))
                head = repeated_header(prev, c["text"])
                rep += count(head) if head else 0
            prev = c["text"]
    path = read - total
    return (
        f"table chunks hold {table / total:.3f} of tokens; of those, pipe syntax {syn / max(1, table):.3f}, "
        f"repeated header {rep / max(1, table):.3f} (of all tokens: {syn / total:.3f}, {rep / total:.3f}); "
        f"heading path {path / read:.3f} of read tokens; overlap {overlap / total:.3f}"
    )


def rerender(line: str, form: str) -> str:
    """One line of a pipe table in another table text: `bare` (GFM without outer pipes, `-|-`
    delimiter; an empty first cell keeps its pipe), `label` ("label: v1 | v2", empty cells
    dropped) or `spaces` (the cells' text joined by spaces, as Unstructured's Table.text)."""
    if DELIMITER.fullmatch(line):
        return "" if form in ("label", "spaces") else "-|-"
    cells = [c.strip() for c in line.strip()[1:-1].split("|")]
    if form == "bare":
        return ("|" if not cells[0] else "") + "|".join(f" {c} " if c else "" for c in cells).strip()
    if form == "label":
        rest = " | ".join(c for c in cells[1:] if c)
        return f"{cells[0]}: {rest}" if cells[0] else rest
    return " ".join(c for c in cells if c)


def table_forms(docs: dict[str, list[dict]], count) -> str:
    """Tokens of the chunks' table lines in each other table text, as a share of the pipe table's."""
    total, pipe, forms = 0, 0, {"bare": 0, "label": 0, "spaces": 0}
    for rows in docs.values():
        for c in rows:
            total += count(c["text"])
            lines = [line for line in c["text"].split("\n") if line.startswith("|")]
            if "table" not in c.get("kinds", ()) or not lines:
                continue
            pipe += count("\n".join(lines))
            for form in forms:
                forms[form] += count("\n".join(x for x in (rerender(line, form) for line in lines) if x))
    return f"table lines {pipe / max(1, total):.3f} of tokens; " + "; ".join(
        f"{form} {n / max(1, pipe):.3f} of them (saves {(pipe - n) / max(1, total):.3f} of all)"
        for form, n in forms.items()
    )


def category(chunk: dict, prev: str | None, n: int) -> str:
    if "table" in chunk.get("kinds", ()):
        return "table piece repeating its header" if repeated_header(prev, chunk["text"]) else "table"
    return "under 64 tokens" if n < 64 else "prose"


def budget(RE, docs: dict[str, list[dict]], questions: list[dict], limit: int = 1000) -> str:
    """Where the budget's tokens go, by kind of chunk, and the evidence each kind brings."""
    enc = RE.cl100k()
    agg: dict[str, list[float]] = {}
    indexes = {}
    for q in questions:
        rows = docs.get(q["doc"], [])
        if q["doc"] not in indexes:
            reads = [c.get("embed_text") or c["text"] for c in rows]
            cats = [
                category(c, rows[i - 1]["text"] if i else None, len(enc.encode_ordinary(r)))
                for i, (c, r) in enumerate(zip(rows, reads))
            ]
            indexes[q["doc"]] = (RE._Index(reads), reads, cats)
        index, reads, cats = indexes[q["doc"]]
        ev = [RE.words(e["text"]) for e in q["evidence"]]
        total = max(1, sum(map(len, ev)))
        left = limit
        for i in index.rank(RE._bm25_tokens([q["question"]])[0]):
            if left <= 0:
                break
            n = min(left, len(enc.encode_ordinary(reads[i])))
            left -= n
            share = sum(RE.covered(e, [RE.grams(RE.words(reads[i]), 3)], 3) for e in ev) / total if ev else 0.0
            a = agg.setdefault(cats[i], [0, 0, 0.0, 0])
            a[0], a[1], a[2], a[3] = a[0] + n, a[1] + 1, a[2] + share, a[3] + on_page(rows[i], q["pages"])
    spent = sum(a[0] for a in agg.values())
    return "; ".join(
        f"{k} {a[0] / spent:.3f} of tokens ({a[1]} chunks, evidence {a[2] / a[1]:.3f} each, "
        f"{a[3] / a[1]:.3f} on an evidence page)"
        for k, a in sorted(agg.items())
    )


def tokens_before(ranking: list[int], counts: list[int], target: int) -> int:
    """Tokens the budget spends on chunks ranked above `target` (rag_eval's budget cut reads it
    when this is under the budget)."""
    spent = 0
    for i in ranking:
        if i == target:
            return spent
        spent += counts[i]
    return spent


def best_chunks(RE, docs: dict[str, list[dict]], questions: list[dict]) -> dict[str, tuple[float, int, int]]:
    """Per FinanceBench question: the evidence share of the single chunk holding most of it, its
    BM25 rank and the tokens ranked above it."""
    enc = RE.cl100k()
    out, indexes = {}, {}
    for q in questions:
        if not q["evidence"]:
            continue
        rows = docs.get(q["doc"], [])
        if q["doc"] not in indexes:
            reads = [c.get("embed_text") or c["text"] for c in rows]
            grams = [RE.grams(RE.words(r), 3) for r in reads]
            indexes[q["doc"]] = (RE._Index(reads), grams, [len(enc.encode_ordinary(r)) for r in reads])
        index, grams, counts = indexes[q["doc"]]
        if not counts:
            continue
        ev = [RE.words(e["text"]) for e in q["evidence"]]
        total = max(1, sum(map(len, ev)))
        shares = [sum(RE.covered(e, [g], 3) for e in ev) / total for g in grams]
        best = max(range(len(shares)), key=shares.__getitem__)
        ranking = index.rank(RE._bm25_tokens([q["question"]])[0])
        out[q["qid"]] = (shares[best], ranking.index(best), tokens_before(ranking, counts, best))
    return out


def best_in_budget(best: dict[str, tuple[float, int, int]], limit: int = 1000) -> str:
    inside = sum(before < limit for _, _, before in best.values())
    return f"the best chunk is read within the budget for {inside} of {len(best)} questions"


def show(RE, folder: Path, q: dict, limit: int = 1000) -> str:
    """One question against one chunk folder: what the budget reads, in rank order, with each
    chunk's tokens, pages and evidence share, then the chunk holding most of the evidence."""
    enc = RE.cl100k()
    rows = read_chunks(folder).get(q["doc"], [])
    reads = [c.get("embed_text") or c["text"] for c in rows]
    ev = [RE.words(e["text"]) for e in q["evidence"]]
    total = max(1, sum(map(len, ev)))
    shares = [sum(RE.covered(e, [RE.grams(RE.words(r), 3)], 3) for e in ev) / total if ev else 0.0 for r in reads]
    ranking = RE._Index(reads).rank(RE._bm25_tokens([q["question"]])[0])
    out, left = [], limit
    for rank, i in enumerate(ranking):
        if left <= 0:
            break
        n = len(enc.encode_ordinary(reads[i]))
        left -= n
        out.append(
            f"--- rank {rank}, chunk {i}: {n} tokens, pages {rows[i].get('page_start')}-"
            f"{rows[i].get('page_end')}, evidence {shares[i]:.2f}\n{reads[i]}"
        )
    if shares:
        best = max(range(len(shares)), key=shares.__getitem__)
        out.append(f"--- best chunk {best}: rank {ranking.index(best)}, evidence {shares[best]:.2f}\n{reads[best]}")
    return "\n".join(out)


BREAK = re.compile(r"([^\W\d_]*[a-z])-\n\s*([a-z]+)")
COMPOUND = re.compile(r"(?<![\w-])[^\W\d_]+-[^\W\d_]+(?![\w-])")


def hyphen_breaks(docs: dict[str, list[dict]], pages: dict[str, list[str]]) -> str:
    """Line-end hyphens of PyMuPDF's text: spelt elsewhere with the hyphen, joined, and read joined."""
    breaks = spelt = joined = read_joined = 0
    for doc, texts in pages.items():
        if doc not in docs:
            continue
        raw = "\n".join(texts)
        flat = BREAK.sub("\x00", raw)  # the breaks themselves out of the evidence
        compounds = {m.lower() for m in COMPOUND.findall(flat)}
        words = set(re.findall(r"[a-z]+", flat.lower()))
        read = "\n".join(c["text"] for c in docs[doc]).lower()
        read_words = set(re.findall(r"\w+(?:-\w+)*", read))
        for m in BREAK.finditer(raw):
            a, b = m.group(1).lower(), m.group(2).lower()
            breaks += 1
            spelt += f"{a}-{b}" in compounds
            joined += a + b in words
            read_joined += a + b in read_words and f"{a}-{b}" not in read_words
    return f"{breaks} breaks, spelt with the hyphen elsewhere {spelt}, joined {joined}; read joined {read_joined}"


def dangling_labels(docs: dict[str, list[dict]]) -> str:
    """Seams inside one heading path where the chunk before ends in a run-in label."""
    seams = cut = 0
    for rows in docs.values():
        for before, after in zip(rows, rows[1:]):
            if before.get("heading_path") != after.get("heading_path"):
                continue
            seams += 1
            last = before["text"].rsplit("\n\n", 1)[-1].strip()
            cut += last.endswith(":") and len(last.split()) <= 20 and not last.startswith("|")
    return f"{cut} of {seams} seams inside a section cut a label from what it introduces"


def page_texts(folder: Path) -> dict[str, list[str]]:
    """rag_eval's cached PyMuPDF page texts, {doc: pages}."""
    out = {}
    for f in sorted(folder.glob("*.json")):
        out[f.stem] = [p for p in json.loads(f.read_text()) if isinstance(p, str)]
    return out


def on_page(chunk: dict, pages: list[int]) -> bool:
    start = chunk.get("page_start")
    return start is not None and any(start <= p <= (chunk.get("page_end") or start) for p in pages)


def is_tabular(RE, q: dict) -> bool:
    w = RE.words(" ".join(e["text"] for e in q["evidence"]))
    return sum(x.isdigit() for x in w) / max(1, len(w)) > TABULAR


def statement_rows(RE, text: str) -> list[tuple[tuple[str, ...], str]]:
    """(last words of a label line, the first figure on the next figure line) in evidence text."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    out = []
    for i, line in enumerate(lines):
        w = RE.words(line)
        if len(w) < 2 or any(x.isdigit() for x in w):
            continue
        for nxt in lines[i + 1 : i + 3]:
            if FIGURE_LINE.match(nxt) and RE.words(nxt):
                out.append((tuple(w[-3:]), RE.words(nxt)[0]))
                break
    return out


def rows_together(RE, docs: dict[str, list[dict]], questions: list[dict]) -> str:
    together = total = 0
    for q in questions:
        bags = [set(RE.words(c.get("embed_text") or c["text"])) for c in docs.get(q["doc"], [])]
        for e in q["evidence"]:
            for label, figure in statement_rows(RE, e["text"]):
                total += 1
                together += any(figure in b and all(x in b for x in label) for b in bags)
    return f"statement rows with label and figure in one chunk: {together}/{total} = {together / max(1, total):.3f}"


STATEMENT = re.compile(
    r"balance sheet|cash flow|statements? of (?:income|operations|earnings|comprehensive|financial "
    r"position|equity|shareholders|stockholders)|income statement",
    re.I,
)


def statement_named(RE, docs: dict[str, list[dict]], questions: list[dict]) -> str:
    """For tabular evidence that names a financial statement: does the chunk holding most of it
    name the statement in its heading path, or in its text; is it a table block at all?"""
    n = in_path = in_text = not_table = 0
    for q in questions:
        text = " ".join(e["text"] for e in q["evidence"])
        if not q["evidence"] or not is_tabular(RE, q) or not STATEMENT.search(text):
            continue
        rows = docs.get(q["doc"], [])
        ev = [RE.words(e["text"]) for e in q["evidence"]]
        cover = [
            sum(RE.covered(e, [RE.grams(RE.words(c.get("embed_text") or c["text"]), 3)], 3) for e in ev) for c in rows
        ]
        best = rows[max(range(len(rows)), key=cover.__getitem__)]
        n += 1
        in_path += bool(STATEMENT.search(" > ".join(best.get("heading_path", ()))))
        in_text += bool(STATEMENT.search(best["text"]))
        not_table += "table" not in best.get("kinds", ())
    return f"statement evidence {n}: its best chunk names it in the path {in_path}, in the text {in_text}; not a table block {not_table}"


def table_heads(docs: dict[str, list[dict]]) -> str:
    """Over the first piece of each pipe table: the share whose header row holds a figure (a data
    row taken as header) and the share with a cell over 300 characters (prose caught in a grid)."""
    tables = figure_head = long_cell = 0
    for rows in docs.values():
        prev = None
        for c in rows:
            lines = c["text"].split("\n")
            if "table" in c.get("kinds", ()) and not repeated_header(prev, c["text"]):
                for i, line in enumerate(lines[:-1]):
                    if line.startswith("|") and DELIMITER.match(lines[i + 1]):
                        cells = [x.strip() for x in line.strip("|").split("|")]
                        tables += 1
                        figure_head += any(FIGURE_LINE.match(x) and not YEAR.match(x) for x in cells if x)
                        long_cell += any(len(x) > 300 for r in lines if r.startswith("|") for x in r.split("|"))
                        break
            prev = c["text"]
    return (
        f"tables {tables}: header row holds a figure {figure_head / max(1, tables):.3f}; "
        f"a cell over 300 characters {long_cell / max(1, tables):.3f}"
    )


def recall_by_evidence(RE, per_question: Path, questions: list[dict]) -> str:
    tab = {q["qid"]: is_tabular(RE, q) for q in questions if q["evidence"]}
    agg: dict[tuple[str, bool], list[float]] = {}
    for line in per_question.read_text().splitlines():
        r = json.loads(line)
        if r["qid"] in tab and r.get("b_recall") is not None:
            agg.setdefault((r["run"], tab[r["qid"]]), []).append(r["b_recall"])
    return "; ".join(
        f"{run} {'tabular' if t else 'prose'} ({len(v)}) {sum(v) / len(v):.3f}" for (run, t), v in sorted(agg.items())
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ragbench", type=Path, default=RAGBENCH)
    ap.add_argument("--work", type=Path, default=ROOT / "out" / "ragbench")
    ap.add_argument("--datasets", default="financebench,mmlb")
    ap.add_argument(
        "--runs",
        default="ingest-256,semchunk-256,lc-recursive-256,chonkie-256",
        help="chunk folders under WORK/DATASET",
    )
    ap.add_argument("--show", metavar="QID", help="print what each run reads for this question, and its best chunk")
    a = ap.parse_args(argv)
    RE = load_rag_eval(a.ragbench)
    if a.show:
        for ds in a.datasets.split(","):
            for q in RE.read_jsonl(a.ragbench / ds / "questions.jsonl"):
                if q["qid"] == a.show:
                    print(f"{q['question']}\nanswer: {q['answer']}\npages: {q['pages']}")
                    for run in a.runs.split(","):
                        if (a.work / ds / run).is_dir():
                            print(f"\n===== {run}\n{show(RE, a.work / ds / run, q)}")
        return
    enc = RE.cl100k()

    def count(s):
        return len(enc.encode_ordinary(s))

    for ds in a.datasets.split(","):
        questions = RE.read_jsonl(a.ragbench / ds / "questions.jsonl")
        for run in a.runs.split(","):
            folder = a.work / ds / run
            if not folder.is_dir():
                continue
            docs = read_chunks(folder)
            print(f"{ds} {run} sizes: {sizes(docs, count)}")
            print(f"{ds} {run} syntax: {syntax(docs, count)}")
            print(f"{ds} {run} table text: {table_forms(docs, count)}")
            print(f"{ds} {run} budget: {budget(RE, docs, questions)}")
            print(f"{ds} {run} hyphens: {hyphen_breaks(docs, page_texts(a.work / ds / 'cache' / 'plain'))}")
            print(f"{ds} {run} labels: {dangling_labels(docs)}")
            if any("table" in c.get("kinds", ()) for rows in docs.values() for c in rows):
                print(f"{ds} {run} tables: {table_heads(docs)}")
            if ds == "financebench":
                print(f"{ds} {run} rows: {rows_together(RE, docs, questions)}")
                print(f"{ds} {run} best chunk: {best_in_budget(best_chunks(RE, docs, questions))}")
                if any(c.get("heading_path") for rows in docs.values() for c in rows):
                    print(f"{ds} {run} statements: {statement_named(RE, docs, questions)}")
        per_q = a.work / ds / "per_question.jsonl"
        if ds == "financebench" and per_q.exists():
            print(f"{ds} budget recall by evidence: {recall_by_evidence(RE, per_q, questions)}")


if __name__ == "__main__":
    main()
