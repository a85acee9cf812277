"""Hybrid retrieval (BM25 + the default embedder, rank-fused) against BM25 alone on ../shared/ragbench.

    .venv/bin/python benchmarks/retrieval_hybrid.py                  # chunks ingest afresh (256 tokens)
    .venv/bin/python benchmarks/retrieval_hybrid.py --reuse-chunks   # the last chunks under --work
    .venv/bin/python benchmarks/retrieval_hybrid.py --reuse-chunks --embedder '{"name": "wordllama"}'
    # the default embedder (minilm) is slow on 22,000 FinanceBench chunks: fill the vector cache in
    # shards, one process a core, then score (--cached-only: the questions whose vectors are all there)
    taskset -c 0 .venv/bin/python benchmarks/retrieval_hybrid.py --reuse-chunks --embed-only 0/2 &
    taskset -c 1 .venv/bin/python benchmarks/retrieval_hybrid.py --reuse-chunks --embed-only 1/2
    .venv/bin/python benchmarks/retrieval_hybrid.py --reuse-chunks --cached-only --json out/minilm.json
    .venv/bin/python benchmarks/retrieval_hybrid.py --reuse-chunks --embedder '{"name": "wordllama"}' --questions-of out/minilm.json

Scored with the shared tool's own code (`../shared/ragbench/tools/rag_eval.py`, imported, never
copied): its chunk loading (embed_text: what is indexed is what is read), its BM25 (`_Index`,
bm25s Lucene k1=1.5 b=0.75, per document), its 1,000-token budget cut, its evidence recall
(3-word shingles), page hit and answer found. Only the ranking changes:

- bm25: rag_eval's ranking itself. As a check that nothing else differs, the script also runs
  `rag_eval.score` on the same chunks and says whether every question's figures agree.
- vector: cosine of the question's and each chunk's vectors (`ingest.embedders.load` of --embedder,
  the default embedder unless told), cached under --cache by text hash, as the SQLite index keeps them.
- hybrid: `ingest.search.hybrid.fuse` (reciprocal rank fusion, k=60) of the top 100 of each, as
  `ingest search --mode hybrid` does; past them, the BM25 order.

Per dataset it prints the means at the budget and hybrid (and vector) minus bm25, paired over the
same questions, +- 1.96 SE, with the questions better/worse. Chunks go to --work (git-ignored).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from retrieval_real import paired, read_per_question
from shared_paths import RAGBENCH

from ingest.embedders import load, text_hash
from ingest.search.hybrid import DEPTH, RRF_K, fuse

logging.getLogger("bm25s").setLevel(logging.WARNING)  # rag_eval builds an index per question

ROOT = Path(__file__).resolve().parent.parent
METRICS = {"financebench": ("b_recall", "b_page_hit"), "mmlb": ("b_page_hit", "b_answer")}
LABELS = {"b_recall": "evidence recall", "b_page_hit": "page hit", "b_answer": "answer found"}
MODES = ("bm25", "vector", "hybrid")


def rag_eval_module(tool: Path):
    spec = importlib.util.spec_from_file_location("rag_eval", tool)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rankings(rag, chunks: list[dict], question: str, vectors: np.ndarray, embedder) -> dict[str, list[int]]:
    """Chunk positions best first, per mode, for one question over its document's chunks."""
    if not chunks:
        return {m: [] for m in MODES}
    bm25 = rag._Index([c["read"] for c in chunks]).rank(rag._bm25_tokens([question])[0])
    scores = vectors @ embedder.embed([question])[0]
    vector = np.lexsort((np.arange(len(chunks)), -scores)).tolist()
    fused = [i for i, _ in fuse([bm25[:DEPTH], vector[:DEPTH]], RRF_K)]
    seen = set(fused)
    return {"bm25": bm25, "vector": vector, "hybrid": fused + [i for i in bm25 if i not in seen]}


def judged(rag, q: dict, ranked: list[dict], budget: int, n: int, enc) -> dict:
    """rag_eval's budget cut and its three figures for one question (its `score` loop, "b" cut)."""
    cut, left = [], budget
    for c in ranked:
        if left <= 0:
            break
        if len(c["ids"]) <= left:
            cut.append((c["words"], c["page_start"], c["page_end"]))
            left -= len(c["ids"])
        else:
            cut.append((rag.words(enc.decode(c["ids"][:left])), c["page_start"], c["page_start"]))
            left = 0
    row: dict = {"qid": q["qid"]}
    if q["evidence"]:
        cg = [rag.grams(s[0], n) for s in cut]
        ev = [rag.words(e["text"]) for e in q["evidence"]]
        row["b_recall"] = sum(rag.covered(e, cg, n) for e in ev) / max(1, sum(len(e) for e in ev))
    if q["pages"]:
        row["b_page_hit"] = any(
            s[1] is not None and s[1] <= p <= (s[2] if s[2] is not None else s[1]) for s in cut for p in q["pages"]
        )
    if q.get("answer_check"):
        row["b_answer"] = any(rag._has_run(s[0], rag.words(q["answer"])) for s in cut)
    return row


def cache_file(cache: Path, embedder, doc: str) -> Path:
    return cache / embedder.name.replace("/", "_").replace(":", "_") / f"{doc}.npz"


def doc_vectors(embedder, texts: list[str], cache: Path | None, doc: str, embed: bool = True) -> np.ndarray | None:
    """The texts' vectors, from `cache` (by text hash, as the SQLite sink keeps them) where it has
    them; the rest embedded and added. None when `embed` is off and the cache lacks some."""
    if not texts:
        return np.zeros((0, embedder.dimensions), np.float32)
    hashes = [text_hash(t) for t in texts]
    known: dict[str, np.ndarray] = {}
    path = cache_file(cache, embedder, doc) if cache else None
    if path and path.is_file():
        with np.load(path) as f:
            known = dict(zip(f["hashes"].tolist(), f["matrix"]))
    todo = {h: t for h, t in zip(hashes, texts) if h not in known}
    if todo and not embed:
        return None
    if todo:
        known.update(zip(todo, embedder.embed(list(todo.values()))))
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, hashes=np.array(list(known)), matrix=np.stack(list(known.values())))
            tmp.replace(path)
    return np.stack([known[h] for h in hashes]).astype(np.float32, copy=False)


def embed_docs(rag, data: Path, folder: Path, embedder, cache: Path, shard: int, shards: int) -> None:
    """Fill the vector cache for this shard of the documents, those with the most questions per
    chunk first (so a run cut short still covers the most questions)."""
    questions = rag.read_jsonl(data / "questions.jsonl")
    asked: dict[str, int] = {}
    for q in questions:
        asked[q["doc"]] = asked.get(q["doc"], 0) + 1
    chunks = {doc: [c["read"] for c in rag._load_chunks(folder, doc, "embed")] for doc in asked}
    order = sorted(asked, key=lambda d: (-asked[d] / max(1, len(chunks[d])), d))
    for i, doc in enumerate(order):
        if i % shards == shard:
            doc_vectors(embedder, chunks[doc], cache, doc)
            print(f"  embedded {doc} ({len(chunks[doc])} chunks, {asked[doc]} questions)", file=sys.stderr, flush=True)


def evaluate(
    rag,
    data: Path,
    folder: Path,
    embedder,
    budget: int = 1000,
    n: int = 3,
    cache: Path | None = None,
    cached_only: bool = False,
    only: set[str] | None = None,
) -> dict[str, dict[str, dict]]:
    """{mode: {qid: row}} for every question of `data` on the chunks in `folder` (with
    `cached_only`, only those whose document's vectors are all in `cache`; with `only`, those qids)."""
    enc = rag.cl100k()
    questions = [q for q in rag.read_jsonl(data / "questions.jsonl") if only is None or q["qid"] in only]
    out: dict[str, dict[str, dict]] = {m: {} for m in MODES}
    by_doc: dict[str, tuple[list[dict], np.ndarray | None]] = {}
    for q in questions:
        if q["doc"] not in by_doc:
            chunks = rag._load_chunks(folder, q["doc"], "embed")
            for c in chunks:
                c["ids"], c["words"] = enc.encode_ordinary(c["read"]), rag.words(c["read"])
            vectors = doc_vectors(embedder, [c["read"] for c in chunks], cache, q["doc"], embed=not cached_only)
            by_doc[q["doc"]] = (chunks, vectors)
        chunks, vectors = by_doc[q["doc"]]
        if vectors is None:
            continue
        for mode, order in rankings(rag, chunks, q["question"], vectors, embedder).items():
            out[mode][q["qid"]] = judged(rag, q, [chunks[i] for i in order], budget, n, enc)
    return out


def agrees_with_rag_eval(rag, data: Path, folder: Path, ours: dict[str, dict]) -> tuple[int, int]:
    """How many questions' bm25 figures equal `rag_eval.score`'s on the same chunks, of how many."""
    with tempfile.TemporaryDirectory() as tmp:
        per_q = Path(tmp) / "pq.jsonl"
        rag.score(data / "questions.jsonl", [("bm25", folder)], "doc", "embed", 5, 1000, 3, "bm25", 0, per_q)
        theirs = read_per_question(per_q)["bm25"]
    same = 0
    for qid, row in ours.items():
        mine = {k: v for k, v in row.items() if k != "qid"}
        same += all(theirs[qid].get(k) == (round(v, 4) if isinstance(v, float) else v) for k, v in mine.items())
    return same, len(ours)


def table(dataset: str, results: dict[str, dict[str, dict]]) -> str:
    metrics = METRICS[dataset]
    lines = [
        f"| {dataset} (1,000-token budget) | " + " | ".join(LABELS[m] for m in metrics) + " |",
        "|" + " --- |" * (len(metrics) + 1),
    ]
    vals = {
        mode: {m: {q: float(r[m]) for q, r in rows.items() if m in r} for m in metrics}
        for mode, rows in results.items()
    }
    for mode in MODES:
        lines.append(
            f"| {mode} | " + " | ".join(f"{np.mean(list(vals[mode][m].values())):.3f}" for m in metrics) + " |"
        )
    for mode in ("hybrid", "vector"):
        cells = []
        for m in metrics:
            p = paired(vals[mode][m], vals["bm25"][m])
            cells.append(f"{p.diff:+.3f} +- {1.96 * p.se:.3f} ({p.better}/{p.worse}, n={p.n})")
        lines.append(f"| {mode} - bm25 | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ragbench", type=Path, default=RAGBENCH)
    ap.add_argument("--work", type=Path, default=ROOT / "out" / "ragbench")
    ap.add_argument("--datasets", default="financebench,mmlb")
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--ingest-bin", type=Path, default=ROOT / ".venv" / "bin" / "ingest")
    ap.add_argument("--reuse-chunks", action="store_true")
    ap.add_argument(
        "--embedder",
        default='{"name": "minilm", "threads": 1}',
        help='the embedder config as JSON, e.g. \'{"name": "wordllama"}\'',
    )
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=ROOT / "out" / "ragbench" / "vectors", help="vectors by text hash")
    ap.add_argument("--embed-only", default=None, metavar="I/N", help="only fill the cache, for shard I of N")
    ap.add_argument("--cached-only", action="store_true", help="score only questions whose vectors are cached")
    ap.add_argument("--questions-of", type=Path, default=None, help="score only the questions of an earlier --json")
    a = ap.parse_args(argv)
    tool = a.ragbench / "tools" / "rag_eval.py"
    rag = rag_eval_module(tool)
    embedder = load(json.loads(a.embedder))
    report = {}
    for ds in a.datasets.split(","):
        data, folder = a.ragbench / ds, a.work / ds / f"ingest-{a.size}"
        if not a.reuse_chunks:
            print(f"  chunking {ds} with ingest ...", file=sys.stderr, flush=True)
            subprocess.run(
                [
                    sys.executable,
                    str(tool),
                    "chunk",
                    "ingest",
                    str(data),
                    str(folder),
                    "--size",
                    str(a.size),
                    "--ingest-bin",
                    str(a.ingest_bin),
                ],
                check=True,
                capture_output=True,
            )
        if a.embed_only:
            shard, shards = (int(x) for x in a.embed_only.split("/"))
            embed_docs(rag, data, folder, embedder, a.cache / ds, shard, shards)
            continue
        only = None
        if a.questions_of:
            only = {row["qid"] for row in json.loads(a.questions_of.read_text()).get(ds, {}).get("bm25", [])}
        results = evaluate(rag, data, folder, embedder, cache=a.cache / ds, cached_only=a.cached_only, only=only)
        same, total = agrees_with_rag_eval(rag, data, folder, results["bm25"])
        print(table(ds, results))
        print(f"\n(bm25 here equals rag_eval score on {same}/{total} questions; embedder {embedder.name})\n")
        report[ds] = {mode: list(rows.values()) for mode, rows in results.items()}
    if a.json:
        a.json.write_text(json.dumps(report) + "\n")


if __name__ == "__main__":
    main()
