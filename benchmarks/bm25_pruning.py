"""ingest's bm25 rankings against FTS5 ranking the whole query, on the same index and questions:
are the lists the same, and what does each cost? Two rankings: FTS5's with common terms left out
and MaxScore (a one-off search), and the in-memory one of an open `VectorIndex` (`WarmBm25`).

    .venv/bin/python benchmarks/bm25_pruning.py                        # the eval_ragbench indexes
    .venv/bin/python benchmarks/bm25_pruning.py --index out/vector_bench/index-100000.sqlite

The reference is the query as ingest ran it before: every term OR-ed, FTS5's bm25 (heading 4x)
over every chunk that holds any of them, ties by document and chunk index. The questions are
../shared/ragbench's (whole, and as keywords: their first four words that are not stop words);
`--scope doc` also runs each question within its own document, as `ingest eval --scope doc`
does. Prints, per set, how many top-`--depth` lists are identical (same chunks, same order; for
the in-memory one also the same scores, to the bit), the largest score difference, and the median
time of each, measured in turns on one core (the in-memory one's first query pays for reading
the chunk lengths and each new term's postings).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from shared_paths import RAGBENCH

from ingest.search.bm25 import _RANKED, HEADING_WEIGHT, fts_query, ranked_bm25
from ingest.search.bm25_memory import WarmBm25
from ingest.search.filters import Filters
from ingest.search.fts_terms import TermCounts
from ingest.sinks.sqlite import chunk_from_row, connect_index

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "eval_ragbench"


def reference(conn, query: str, limit: int, filters: Filters | None = None) -> list[tuple[str, float]]:
    """The whole query ranked by FTS5, as ingest did before the pruning (its chunks read alike)."""
    where, params = (filters or Filters()).where(first=6)
    sql = _RANKED.format(filters=where, among="?5 IS NULL")
    rows = conn.execute(sql, (fts_query(query), HEADING_WEIGHT, limit, None, None, *params)).fetchall()
    return [(chunk_from_row(row).id, -row[-1]) for row in rows]


def questions(name: str) -> list[dict]:
    path = RAGBENCH / name / "questions.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def compare(index: Path, asked: list[tuple[str, Filters | None]], depth: int) -> dict:
    conn = connect_index(index, create=False)
    counts = TermCounts(conn)
    warm = WarmBm25(conn, HEADING_WEIGHT, cold_queries=0)  # every query in memory, the first one too
    same, worst, ours_ms, theirs_ms, exact, warm_ms = 0, 0.0, [], [], 0, []
    for query, filters in asked:
        began = time.perf_counter()
        theirs = reference(conn, query, depth, filters)
        theirs_ms.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        ours = [(c.id, s) for c, s in ranked_bm25(conn, query, depth, filters=filters, counts=counts)]
        ours_ms.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        held = [(c.id, s) for c, s in ranked_bm25(conn, query, depth, filters=filters, counts=warm)]
        warm_ms.append((time.perf_counter() - began) * 1000)
        exact += held == theirs
        same += [i for i, _ in ours] == [i for i, _ in theirs]
        worst = max([worst, *(abs(a[1] - b[1]) for a, b in zip(ours, theirs) if a[0] == b[0])])
    conn.close()
    return {
        "queries": len(asked),
        "identical": same,
        "max_score_diff": worst,
        "ms_whole_query": statistics.median(theirs_ms),
        "ms_ingest": statistics.median(ours_ms),
        "identical_in_memory": exact,
        "ms_in_memory": statistics.median(warm_ms),
    }


def main(argv: list[str] | None = None) -> None:
    from vector_search_speed import keywords  # it imports this module

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--index", type=Path, action="append", help="an index; default: the eval_ragbench ones")
    ap.add_argument("--sets", default="financebench,mmlb", help="whose questions to ask")
    ap.add_argument("--depth", type=int, default=100, help="list length compared (hybrid's DEPTH)")
    a = ap.parse_args(argv)
    indexes = a.index or [RESULTS / f"{name}.sqlite" for name in a.sets.split(",")]
    per_set = {name: questions(name) for name in a.sets.split(",")}
    qs = [q for found in per_set.values() for q in found]
    print(
        f"| index | queries | identical top {a.depth} | max score diff | ms whole query | ms ingest | x "
        "| in memory: identical, scores too | ms | x |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for index in indexes:
        if not index.exists():
            sys.exit(f"{index} does not exist: run benchmarks/eval_ragbench.py (or vector_search_speed.py) first")
        kinds = {
            "questions": [(q["question"], None) for q in qs],
            "keywords": [(keywords(q["question"]), None) for q in qs],
        }
        if index.stem in per_set:  # the set's own index: each question within its document too
            kinds["questions, own document"] = [(q["question"], Filters(docs=(q["doc"],))) for q in per_set[index.stem]]
        for kind, asked in kinds.items():
            r = compare(index, asked, a.depth)
            print(
                f"| {index.name}, {kind} | {r['queries']} | {r['identical']} | {r['max_score_diff']:.1e} "
                f"| {r['ms_whole_query']:.1f} | {r['ms_ingest']:.1f} | {r['ms_whole_query'] / r['ms_ingest']:.1f} "
                f"| {r['identical_in_memory']} | {r['ms_in_memory']:.1f} | {r['ms_whole_query'] / r['ms_in_memory']:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
