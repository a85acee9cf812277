"""Retrieval on real documents: ingest against the peers on ../shared/ragbench, one run.

    .venv/bin/python benchmarks/retrieval_real.py --peers lc-recursive,semchunk,chonkie
    .venv/bin/python benchmarks/retrieval_real.py --datasets financebench --peers semchunk --json out.json
    # the vector half of the sample (every chunk of every chunker embedded once, cached by text
    # hash): fill the cache in shards first, one process a core, then run as above
    .venv/bin/python benchmarks/retrieval_real.py --reuse-ingest --embed-only 0/2 &
    .venv/bin/python benchmarks/retrieval_real.py --reuse-ingest --embed-only 1/2

Runs the shared tool `../shared/ragbench/tools/rag_eval.py` unchanged (its docstring has the
protocol): `chunk` for ingest (this checkout's `.venv/bin/ingest`) and for each peer
(lc-recursive, semchunk, chonkie, md-header; a peer whose package is not installed is skipped),
then one `score` per dataset with `--per-question`. From the per-question rows it prints, at the
1,000-token budget, each run's evidence recall (FinanceBench), page hit (both) and answer found
(MMLongBench-Doc), and ingest's paired difference from the best peer of each column (mean over
the same questions, +- 1.96 SE, questions better/worse). With 65-130 questions only a difference
above about two SEs is real.

Then every chunker under the same retriever, so a claim is ingest's chunks against a peer's
chunks and not ingest's search against a peer's BM25: bm25 (rag_eval's), the default embedder's
cosine alone (vector) and hybrid (ingest's own fusion, `ingest.search.hybrid.fuse`, of the top
100 of each), ranked and judged by retrieval_hybrid.py with rag_eval's code. Each table is
printed per half and pooled over both halves (page hit, the figure both have), with ingest minus
the best peer (chosen on the scope's mean) as a paired 95% bootstrap interval, each half's
questions resampled within it. Vector and hybrid need every chunk embedded (about 4 chunks a
second on a busy shared core), so they score the questions of a sample of documents
(`--vector-pages`, `sample_docs`), the same for every chunker; bm25 is printed over that sample
too and over every question.

Chunks and rag_eval's outputs go to `--work` (default `out/ragbench/`, git-ignored: the data is
CC-BY-NC evaluation data and never enters the repository). ingest is chunked afresh every run;
a peer's chunks are reused while its size and package versions are unchanged (`--rechunk-peers`
forces it), and its extracted page texts are cached through rag_eval's `--cache`. Chunkers run
one at a time (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import asdict, dataclass
from importlib.metadata import PackageNotFoundError, version
from importlib.util import find_spec
from pathlib import Path

from shared_paths import RAGBENCH

ROOT = Path(__file__).resolve().parent.parent
OURS = "ingest"
PEERS = ("lc-recursive", "semchunk", "chonkie", "md-header")
# The module each peer imports, to skip a peer that is not installed.
PEER_MODULE = {
    "lc-recursive": "langchain_text_splitters",
    "semchunk": "semchunk",
    "chonkie": "chonkie",
    "md-header": "pymupdf4llm",
}
# The budget-cut metrics each dataset has (rag_eval's per-question keys).
METRICS = {"financebench": ("b_recall", "b_page_hit"), "mmlb": ("b_page_hit", "b_answer")}
LABELS = {"b_recall": "evidence recall", "b_page_hit": "page hit", "b_answer": "answer found"}


@dataclass(frozen=True, slots=True)
class Paired:
    """One run's per-question difference from a reference run on one metric."""

    diff: float
    se: float
    """Standard error of the mean difference (paired: the questions are the same)."""
    better: int
    worse: int
    n: int


# ----------------------------------------------------------------------------- summary


def read_per_question(path: Path) -> dict[str, dict[str, dict]]:
    """rag_eval's --per-question rows as {run: {qid: row}}."""
    runs: dict[str, dict[str, dict]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            runs.setdefault(row["run"], {})[row["qid"]] = row
    return runs


def values(rows: dict[str, dict], metric: str) -> dict[str, float]:
    """{qid: value} for the questions that have `metric` (booleans as 0/1)."""
    return {qid: float(r[metric]) for qid, r in rows.items() if r.get(metric) is not None}


def mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def paired(ours: dict[str, float], ref: dict[str, float]) -> Paired | None:
    """Mean of ours - ref over the questions both have, with its standard error."""
    d = [ours[q] - ref[q] for q in ours if q in ref]
    if not d:
        return None
    m = sum(d) / len(d)
    se = (sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) ** 0.5 if len(d) > 1 else 0.0
    return Paired(m, se, sum(x > 0 for x in d), sum(x < 0 for x in d), len(d))


def best_peer(runs: dict[str, dict[str, dict]], metric: str, peers: list[str]) -> str | None:
    """The peer with the highest mean on `metric` (the first listed on a tie)."""
    scored = [(mean(list(values(runs[name], metric).values())), name) for name in peers if name in runs]
    scored = [(m, name) for m, name in scored if m is not None]
    return max(scored, key=lambda s: s[0])[1] if scored else None


def summarise(runs: dict[str, dict[str, dict]], metrics: tuple[str, ...], peers: list[str]) -> dict:
    """Means per run and metric, and every run that is not a peer (ingest, experiments) against
    the best peer of each metric."""
    means = {name: {m: mean(list(values(rows, m).values())) for m in metrics} for name, rows in runs.items()}
    best = {m: best_peer(runs, m, peers) for m in metrics}
    against = {
        name: {m: (best[m], paired(values(rows, m), values(runs[best[m]], m))) for m in metrics if best[m]}
        for name, rows in runs.items()
        if name not in peers
    }
    return {"means": means, "against": against}


FACTS = {"chunks": "chunks", "chunk_tokens_mean": "tokens/chunk", "ceiling": "ceiling", "unit_cov": "best chunk"}
"""Per-run figures of rag_eval's --json shown beside the metrics (ceiling and best chunk: evidence
recall with every chunk read, and the share the single best chunk holds)."""


def read_facts(score_json: Path) -> dict[str, dict]:
    """{run: {fact: value}} from rag_eval's --json output."""
    return {r["run"]: {k: r.get(k) for k in FACTS} for r in json.loads(score_json.read_text())["runs"]}


def format_table(dataset: str, summary: dict, metrics: tuple[str, ...], facts: dict[str, dict] | None = None) -> str:
    """A Markdown table: one row per run, then each non-peer run minus the best peer of each column."""
    facts = facts or {}
    shown = [k for k in FACTS if any(f.get(k) is not None for f in facts.values())]
    head = [dataset] + [LABELS.get(m, m) for m in metrics] + [FACTS[k] for k in shown]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for name, row in summary["means"].items():
        cells = ["-" if row[m] is None else f"{row[m]:.3f}" for m in metrics]
        cells += [_fact(facts.get(name, {}).get(k)) for k in shown]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    for name, against in summary["against"].items():
        cells = []
        for m in metrics:
            peer, p = against.get(m, (None, None))
            cells.append("-" if p is None else f"{p.diff:+.3f} +- {1.96 * p.se:.3f} ({p.better}/{p.worse}) vs {peer}")
        lines.append(f"| {name} - best peer | " + " | ".join(cells + [""] * len(shown)) + " |")
    return "\n".join(lines)


def _fact(v) -> str:
    if v is None:
        return "-"
    return f"{v:.3f}" if isinstance(v, float) and v <= 1 else f"{v:.0f}" if isinstance(v, float) else str(v)


# ----------------------------------------------------------------------------- same retriever, pooled

MODES = ("bm25", "vector", "hybrid")
POOLED = "b_page_hit"
"""The figure both halves have (FinanceBench's evidence pages, MMLongBench-Doc's): pooled over them."""
BOOTSTRAP = 4000
"""Resamples of the paired interval (its ends move by under .003 past a few thousand)."""


@dataclass(frozen=True, slots=True)
class Interval:
    """ingest minus a peer over the same questions: the mean and a 95% bootstrap interval."""

    diff: float
    low: float
    high: float
    better: int
    worse: int
    n: int


def paired_interval(halves: list[list[float]], resamples: int = BOOTSTRAP, seed: int = 0) -> Interval | None:
    """Mean of the paired differences of every half together, and its 95% percentile interval
    from resampling each half's questions with replacement (stratified: a half keeps its size, so
    the pooled mean keeps its weights)."""
    import numpy as np

    halves = [h for h in halves if h]
    if not halves:
        return None
    rng = np.random.default_rng(seed)
    n = sum(len(h) for h in halves)
    sums = np.zeros(resamples)
    for h in halves:
        a = np.asarray(h, dtype=float)
        sums += a[rng.integers(0, len(a), size=(resamples, len(a)))].sum(axis=1)
    low, high = np.percentile(sums / n, [2.5, 97.5])
    every = [x for h in halves for x in h]
    return Interval(sum(every) / n, float(low), float(high), sum(x > 0 for x in every), sum(x < 0 for x in every), n)


def differences(ours: dict[str, float], ref: dict[str, float]) -> list[float]:
    """ours - ref per question both have, in a fixed (question id) order."""
    return [ours[q] - ref[q] for q in sorted(ours) if q in ref]


def compare(
    halves: list[dict[str, dict[str, dict]]], metric: str, peers: list[str]
) -> tuple[dict[str, float | None], str | None, Interval | None]:
    """Over the halves given ({run: {qid: row}} each, question ids distinct across halves): each
    run's mean on `metric` over every question, the best peer by it, and ingest minus that peer."""
    pooled: dict[str, dict[str, float]] = {}
    for runs in halves:
        for name, rows in runs.items():
            pooled.setdefault(name, {}).update(values(rows, metric))
    means = {name: mean(list(v.values())) for name, v in pooled.items()}
    ranked = [(means[p], p) for p in peers if means.get(p) is not None]
    best = max(ranked, key=lambda s: s[0])[1] if ranked else None
    if best is None or OURS not in pooled:
        return means, best, None
    diffs = [differences(values(runs.get(OURS, {}), metric), values(runs.get(best, {}), metric)) for runs in halves]
    return means, best, paired_interval(diffs)


def format_compare(
    title: str, halves: list[dict[str, dict[str, dict]]], metrics: tuple[str, ...], peers: list[str]
) -> str:
    """A Markdown table: one row per chunker, one column per metric, then ingest minus the best
    peer of each column with its paired 95% interval and the questions better/worse."""
    cols = [compare(halves, m, peers) for m in metrics]
    head = [title] + [f"{LABELS.get(m, m)}" for m in metrics]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    names = list(dict.fromkeys(name for runs in halves for name in runs))
    for name in names:
        cells = ["-" if c[0].get(name) is None else f"{c[0][name]:.3f}" for c in cols]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    cells = []
    for _, best, iv in cols:
        cells.append(
            "-"
            if iv is None
            else f"{iv.diff:+.3f} [{iv.low:+.3f}, {iv.high:+.3f}] ({iv.better}/{iv.worse}, n={iv.n}) vs {best}"
        )
    lines.append(f"| {OURS} - best peer | " + " | ".join(cells) + " |")
    for name in names:
        if name in peers or name == OURS:
            continue
        cells = []
        for m in metrics:
            iv = paired_interval([differences(values(r.get(name, {}), m), values(r.get(OURS, {}), m)) for r in halves])
            cells.append(
                "-" if iv is None else f"{iv.diff:+.3f} [{iv.low:+.3f}, {iv.high:+.3f}] ({iv.better}/{iv.worse})"
            )
        lines.append(f"| {name} - {OURS} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def pdf_pages(data: Path) -> dict[str, int]:
    """Pages of each PDF of a dataset (docs.jsonl has them for MMLongBench-Doc only)."""
    import pymupdf

    out = {}
    for pdf in sorted((data / "pdfs").glob("*.pdf")):
        with pymupdf.open(pdf) as doc:
            out[pdf.stem] = doc.page_count
    return out


def page_budgets(spec: str) -> dict[str, int | None]:
    """`--vector-pages`: one budget for every half ("100", "all") or one a half ("mmlb:all,financebench:600");
    None is every document."""
    out: dict[str, int | None] = {}
    for part in spec.split(","):
        ds, _, value = part.rpartition(":")
        out[ds or "*"] = None if value == "all" else int(value)
    return out


def sample_docs(questions: list[dict], pages: dict[str, int], budget: int | None) -> list[str]:
    """The documents whose questions the vector and hybrid runs score: every chunk of a document
    must be embedded (the default embedder reads about 4 chunks a second on a busy shared core),
    so at most `budget` pages a half, those with the most questions per page first (each taken if
    it still fits). The same documents for every chunker, so the comparison stays paired; the
    sample leans to short documents, which the figures say beside them. None: every document."""
    asked: dict[str, int] = {}
    for q in questions:
        asked[q["doc"]] = asked.get(q["doc"], 0) + 1
    if budget is None:
        return sorted(asked)
    chosen, used = [], 0
    for doc in sorted(asked, key=lambda d: (-asked[d] / max(1, pages.get(d, 1)), d)):
        if used + pages.get(doc, 0) <= budget:
            chosen.append(doc)
            used += pages.get(doc, 0)
    return sorted(chosen)


def same_retriever(
    tool: Path,
    data: Path,
    folders: dict[str, Path],
    embedder,
    cache: Path,
    docs: list[str],
    embed_shard: tuple[int, int] | None = None,
) -> dict[str, dict[str, dict[str, dict]]]:
    """{mode: {run: {qid: row}}} for the questions of `docs`, every chunk folder ranked by bm25
    (rag_eval's own), the embedder's cosine alone, and ingest's hybrid fusion of the two
    (retrieval_hybrid.py's rankings: `ingest.search.hybrid.fuse`, top 100 of each). With
    `embed_shard` (i, n) it only fills the vector cache for every n-th document from the i-th."""
    import retrieval_hybrid as rh

    rag = rh.rag_eval_module(tool)
    qids = {q["qid"] for q in rag.read_jsonl(data / "questions.jsonl") if q["doc"] in set(docs)}
    out: dict[str, dict[str, dict[str, dict]]] = {m: {} for m in MODES}
    for name, folder in folders.items():
        if embed_shard is not None:
            for i, doc in enumerate(docs):
                if i % embed_shard[1] == embed_shard[0]:
                    texts = [c["read"] for c in rag._load_chunks(folder, doc, "embed")]
                    rh.doc_vectors(embedder, texts, cache, doc)
                    print(f"  {name}: embedded {doc} ({len(texts)} chunks)", file=sys.stderr, flush=True)
            continue
        print(f"  ranking {data.name} / {name} by {', '.join(MODES)} ...", file=sys.stderr, flush=True)
        for mode, rows in rh.evaluate(rag, data, folder, embedder, cache=cache, only=qids).items():
            out[mode][name] = rows
    return out


def with_root(src: Path, dst: Path) -> Path:
    """ingest's chunks of `src` with the heading path's root put back into embed_text (the whole
    path, then the text: embed_text before it left the root out), to measure that choice."""
    dst.mkdir(parents=True, exist_ok=True)
    for path in src.glob("*.jsonl"):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for r in rows:
            if r.get("heading_path"):
                r["embed_text"] = " > ".join(r["heading_path"]) + "\n\n" + r["text"]
        (dst / path.name).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return dst


def without_cards(src: Path, dst: Path) -> Path:
    """ingest's chunks of `src` without the documents' cards (issue #29): what `chunker: {card:
    false}` makes, since the card only follows the other chunks (their indexes and ids unmoved)."""
    return without_kind(src, dst, "card")


def without_kind(src: Path, dst: Path, kind: str) -> Path:
    """ingest's chunks of `src` without the chunks of `kind` ("card", "figure": the chunks that
    follow the body's, leaving its chunks, indexes and ids as they are)."""
    dst.mkdir(parents=True, exist_ok=True)
    for path in src.glob("*.jsonl"):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        kept = [r for r in rows if r.get("kinds") != [kind]]
        (dst / path.name).write_text("".join(json.dumps(r) + "\n" for r in kept))
    return dst


# ----------------------------------------------------------------------------- running rag_eval


def rag_eval(tool: Path, *args: str) -> str:
    """One rag_eval.py command in this interpreter; its stdout (it fails loudly)."""
    proc = subprocess.run([sys.executable, str(tool), *args], capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"rag_eval {' '.join(args[:2])} failed:\n{proc.stderr[-3000:]}")
    return proc.stdout


def peer_versions(peer: str) -> dict[str, str | None]:
    """The versions rag_eval records for a peer, as installed now (a change re-chunks it)."""
    want = {
        "lc-recursive": ["langchain-text-splitters"],
        "chonkie": ["chonkie"],
        "semchunk": ["semchunk"],
        "md-header": ["pymupdf4llm", "langchain-text-splitters"],
    }[peer]
    got = {}
    for pkg in want + ["tiktoken", "pymupdf"]:
        try:
            got[pkg] = version(pkg)
        except PackageNotFoundError:
            got[pkg] = None
    return got


def cached(out: Path, size: int, versions: dict[str, str | None]) -> bool:
    """Whether `out` holds chunks made at `size` by the same package versions."""
    timing = out / "_timing.json"
    if not timing.exists():
        return False
    t = json.loads(timing.read_text())
    return t.get("size") == size and all(t.get("versions", {}).get(k) == v for k, v in versions.items())


def chunk_all(
    tool: Path, data: Path, work: Path, size: int, peers: list[str], ingest_bin: Path | None, rechunk: bool
) -> list[str]:
    """Chunks of ingest (unless `ingest_bin` is None: reuse the last) and each peer under
    work/<name>-<size>; the run names that have them."""
    out = work / f"{OURS}-{size}"
    if ingest_bin is not None:
        print(f"  chunking {data.name} with {OURS} ...", file=sys.stderr, flush=True)
        rag_eval(tool, "chunk", "ingest", str(data), str(out), "--size", str(size), "--ingest-bin", str(ingest_bin))
    names = [OURS]
    for peer in peers:
        if find_spec(PEER_MODULE[peer]) is None:
            print(f"  {peer}: not installed, skipped", file=sys.stderr)
            continue
        out = work / f"{peer}-{size}"
        if rechunk or not cached(out, size, peer_versions(peer)):
            print(f"  chunking {data.name} with {peer} ...", file=sys.stderr, flush=True)
            rag_eval(tool, "chunk", peer, str(data), str(out), "--size", str(size), "--cache", str(work / "cache"))
        names.append(peer)
    return names


def score_all(tool: Path, data: Path, work: Path, size: int, names: list[str], extra: list[str]) -> tuple[Path, Path]:
    """rag_eval score over every run (and `extra` NAME=DIR runs); its --json and --per-question files."""
    result, per_q = work / "score.json", work / "per_question.jsonl"
    runs = [f"{n}={work / f'{n}-{size}'}" for n in names] + extra
    rag_eval(tool, "score", str(data / "questions.jsonl"), *runs, "--json", str(result), "--per-question", str(per_q))
    return result, per_q


def report_compare(halves: dict[str, list[dict[str, dict[str, dict]]]], datasets: list[str], peers: list[str]) -> dict:
    """Print, per ranking, each half's table and the pooled page hit; return the same as JSON."""
    out: dict = {}
    for label, runs_by_half in halves.items():
        print(f"### {label}\n")
        for ds, runs in zip(datasets, runs_by_half):
            print(format_compare(ds, [runs], METRICS[ds], peers) + "\n")
        print(format_compare("pooled (" + " + ".join(datasets) + ")", runs_by_half, (POOLED,), peers) + "\n")
        scopes = [(ds, [runs], METRICS[ds]) for ds, runs in zip(datasets, runs_by_half)]
        scopes.append(("pooled", runs_by_half, (POOLED,)))
        out[label] = {
            scope: {
                m: {"means": c[0], "best_peer": c[1], "ingest_minus_best": asdict(c[2]) if c[2] else None}
                for m in metrics
                for c in [compare(h, m, peers)]
            }
            for scope, h, metrics in scopes
        }
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ragbench", type=Path, default=RAGBENCH)
    ap.add_argument("--work", type=Path, default=ROOT / "out" / "ragbench", help="chunks and scores (git-ignored)")
    ap.add_argument("--datasets", default="financebench,mmlb")
    ap.add_argument("--peers", default=",".join(PEERS))
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--ingest-bin", type=Path, default=ROOT / ".venv" / "bin" / "ingest")
    ap.add_argument("--rechunk-peers", action="store_true")
    ap.add_argument("--reuse-ingest", action="store_true", help="score ingest's last chunks, do not chunk again")
    ap.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="DATASET:NAME=DIR",
        help="score another chunk folder too (an experiment), e.g. mmlb:ingest-x=out/x",
    )
    ap.add_argument("--json", type=Path, default=None, help="write the summary here")
    ap.add_argument("--modes", default=",".join(MODES), help="rankings to compare every chunker under")
    ap.add_argument("--embedder", default='{"name": "minilm", "threads": 1}', help="the vector half, as JSON")
    ap.add_argument(
        "--vector-pages",
        default="100",
        help="pages a half whose questions vector and hybrid score (see sample_docs), or 'all'; "
        "per half as DATASET:PAGES,... (e.g. mmlb:all,financebench:600)",
    )
    ap.add_argument("--cache", type=Path, default=None, help="vectors by text hash (default WORK/vectors)")
    ap.add_argument("--embed-only", default=None, metavar="I/N", help="only fill the vector cache, shard I of N")
    ap.add_argument("--root-kept", action="store_true", help="also score ingest with the path's root in embed_text")
    ap.add_argument("--no-cards", action="store_true", help="also score ingest without the documents' cards")
    ap.add_argument(
        "--no-figures",
        action="store_true",
        help="also score ingest without figure chunks (what the `figures` cleaner, named, makes)",
    )
    a = ap.parse_args(argv)
    tool = a.ragbench / "tools" / "rag_eval.py"
    peers = [p for p in a.peers.split(",") if p]
    modes = [m for m in a.modes.split(",") if m]
    embedded = [m for m in modes if m != "bm25"]
    embedder = None
    if embedded or a.embed_only:
        from ingest.embedders import load

        embedder = load(json.loads(a.embedder))
    budgets = page_budgets(a.vector_pages)
    shard = tuple(int(x) for x in a.embed_only.split("/")) if a.embed_only else None
    datasets = [ds for ds in a.datasets.split(",") if ds]
    report: dict = {}
    halves: dict[str, list[dict[str, dict[str, dict]]]] = {}
    for ds in datasets:
        work, data = a.work / ds, a.ragbench / ds
        ingest_bin = None if (a.reuse_ingest or shard) else a.ingest_bin
        names = chunk_all(tool, data, work, a.size, peers, ingest_bin, a.rechunk_peers)
        questions = [json.loads(line) for line in (data / "questions.jsonl").read_text().splitlines() if line.strip()]
        pages = budgets.get(ds, budgets.get("*"))
        docs = sample_docs(questions, pdf_pages(data) if pages is not None else {}, pages)
        cache = (a.cache or a.work / "vectors") / ds
        extra = [spec.partition(":")[2] for spec in a.also if spec.partition(":")[0] == ds]
        if a.root_kept:
            kept = with_root(work / f"{OURS}-{a.size}", work / f"{OURS}-root-kept-{a.size}")
            extra.append(f"{OURS}-root-kept={kept}")
        if a.no_cards:
            bare = without_cards(work / f"{OURS}-{a.size}", work / f"{OURS}-no-cards-{a.size}")
            extra.append(f"{OURS}-no-cards={bare}")
        if a.no_figures:
            bare = without_kind(work / f"{OURS}-{a.size}", work / f"{OURS}-no-figures-{a.size}", "figure")
            extra.append(f"{OURS}-no-figures={bare}")
        folders = {n: work / f"{n}-{a.size}" for n in names} | {
            e.partition("=")[0]: Path(e.partition("=")[2]) for e in extra
        }
        if shard:
            same_retriever(tool, data, folders, embedder, cache, docs, shard)  # type: ignore[arg-type]
            continue
        result, per_q = score_all(tool, data, work, a.size, names, extra)
        runs = read_per_question(per_q)
        summary = summarise(runs, METRICS[ds], names[1:])
        print(format_table(ds, summary, METRICS[ds], read_facts(result)) + "\n")
        report[ds] = {
            "means": summary["means"],
            "score_json": str(result),
            "against": {
                run: {m: {"peer": peer, **(asdict(p) if p else {})} for m, (peer, p) in ag.items()}
                for run, ag in summary["against"].items()
            },
        }
        halves.setdefault("bm25, every question", []).append(runs)
        if embedded:
            n_q = sum(q["doc"] in set(docs) for q in questions)
            label = f"{len(docs)} of {len({q['doc'] for q in questions})} documents, {n_q} questions"
            report[ds]["sample"] = {"docs": docs, "questions": n_q}
            by_mode = same_retriever(tool, data, folders, embedder, cache, docs)
            for mode in MODES:
                if mode in modes:
                    halves.setdefault(f"{mode}, sampled documents", []).append(by_mode[mode])
            print(f"({ds}: vector and hybrid over {label})\n")
    if shard:
        return
    print(f"## Every chunker under the same retriever (95% paired bootstrap intervals; peers {', '.join(peers)})\n")
    report["same_retriever"] = report_compare(halves, datasets, [p for p in peers if p != OURS])
    if a.json:
        a.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
