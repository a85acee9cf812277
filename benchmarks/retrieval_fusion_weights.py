"""Hybrid (BM25 + an embedder) against BM25 on ../shared/ragbench: the fusion weight and the
query's common words, chosen on one half of the questions and checked on the other.

    .venv/bin/python benchmarks/retrieval_hybrid.py              # chunks ingest at 256 tokens into out/ragbench
    .venv/bin/python benchmarks/retrieval_fusion_weights.py      # then this, on the same chunks (the default embedder)
    .venv/bin/python benchmarks/retrieval_fusion_weights.py --embedder '{"name": "wordllama"}' --cached-only

Vectors come from retrieval_hybrid.py's cache (--cache, by text hash) where it has them;
--cached-only scores only the questions whose document's vectors are all there.

Same chunks, BM25, budget cut and figures as `retrieval_hybrid.py` (rag_eval's own code). Rankings:
- vector: cosine of the question's and each chunk's (embed_text) vectors;
- vector, informative words: the question without the words held by more than half of its
  document's chunks (a static embedder pools every token, so "what", "the", "in" pull the query
  vector toward every chunk alike);
- weighted RRF: each chunk scores 1/(60 + bm25 rank) + w/(60 + vector rank) over the two top 100s,
  w in 0.1, 0.25, 0.5, 1, 2, 4 (1 is `ingest search --mode hybrid`), then the BM25 order.
Per ranking, the paired difference from BM25 (+- 1.96 SE) on the even-numbered questions (the
half a weight would be chosen on), on the odd-numbered ones (the check), and on all.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

import numpy as np
from retrieval_hybrid import METRICS, RAGBENCH, ROOT, doc_vectors, judged, rag_eval_module
from retrieval_real import paired

from ingest.embedders import load

logging.getLogger("bm25s").setLevel(logging.WARNING)
WEIGHTS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)


def weighted_rrf(lists: list[list[int]], weights: list[float], k: int = 60) -> list[int]:
    scores: dict[int, float] = {}
    for ranking, weight in zip(lists, weights):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return [i for i, _ in sorted(scores.items(), key=lambda kv: -kv[1])]


def informative(question: str, texts: list[str]) -> str:
    """The question without the words more than half of `texts` hold (all of it if none is left)."""
    lowered = [t.lower() for t in texts]
    words = question.split()
    held = {w: sum(w.lower() in t for t in lowered) for w in set(words)}
    return " ".join(w for w in words if held[w] <= len(texts) / 2) or question


def rankings(rag, chunks: list[dict], vectors: np.ndarray, question: str, embedder) -> dict[str, list[int]]:
    bm25 = rag._Index([c["read"] for c in chunks]).rank(rag._bm25_tokens([question])[0])
    found = {"bm25": bm25}
    for name, asked in (
        ("vector", question),
        ("vector, informative words", informative(question, [c["read"] for c in chunks])),
    ):
        scores = vectors @ embedder.embed([asked])[0]
        found[name] = np.lexsort((np.arange(len(chunks)), -scores)).tolist()
    for w in WEIGHTS:
        found[f"weighted RRF w={w}"] = weighted_rrf([bm25[:100], found["vector"][:100]], [1.0, w])
        found[f"weighted RRF w={w}, informative"] = weighted_rrf(
            [bm25[:100], found["vector, informative words"][:100]], [1.0, w]
        )
    return {name: order + [i for i in bm25 if i not in set(order)] for name, order in found.items()}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", type=Path, default=ROOT / "out" / "ragbench")
    ap.add_argument("--datasets", default="financebench,mmlb")
    ap.add_argument("--embedder", default='{"name": "minilm"}', help="the embedder config as JSON")
    ap.add_argument("--cache", type=Path, default=ROOT / "out" / "ragbench" / "vectors")
    ap.add_argument("--cached-only", action="store_true")
    a = ap.parse_args(argv)
    rag = rag_eval_module(RAGBENCH / "tools" / "rag_eval.py")
    embedder, enc = load(json.loads(a.embedder)), rag.cl100k()
    print(f"embedder {embedder.name}")
    for ds in a.datasets.split(","):
        folder = a.work / ds / "ingest-256"
        by_doc: dict[str, tuple[list[dict], np.ndarray]] = {}
        rows: dict[str, dict[str, tuple[int, dict]]] = {}
        for n, q in enumerate(rag.read_jsonl(RAGBENCH / ds / "questions.jsonl")):
            if q["doc"] not in by_doc:
                chunks = rag._load_chunks(folder, q["doc"], "embed")
                for c in chunks:
                    c["ids"], c["words"] = enc.encode_ordinary(c["read"]), rag.words(c["read"])
                vectors = doc_vectors(embedder, [c["read"] for c in chunks], a.cache / ds, q["doc"], not a.cached_only)
                by_doc[q["doc"]] = (chunks, vectors if chunks else None)
            chunks, vectors = by_doc[q["doc"]]
            if not chunks or vectors is None:
                continue
            for name, order in rankings(rag, chunks, vectors, q["question"], embedder).items():
                rows.setdefault(name, {})[q["qid"]] = (n, judged(rag, q, [chunks[i] for i in order], 1000, 3, enc))
        metrics = METRICS[ds]
        print(f"\n| {ds}: minus bm25 | " + " | ".join(f"{m} even / odd / all" for m in metrics) + " |")
        print("|" + " --- |" * (len(metrics) + 1))
        for name, mine in rows.items():
            cells = []
            for m in metrics:
                parts = []
                for half in (0, 1, None):
                    pick = {q: (n, r) for q, (n, r) in mine.items() if m in r and (half is None or n % 2 == half)}
                    p = paired(
                        {q: float(r[m]) for q, (_, r) in pick.items()}, {q: float(rows["bm25"][q][1][m]) for q in pick}
                    )
                    parts.append(f"{p.diff:+.3f} +- {1.96 * p.se:.3f}")
                cells.append(" / ".join(parts))
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
