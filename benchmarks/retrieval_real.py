"""Retrieval on real documents: ingest against the peers on ../shared/ragbench, one run.

    .venv/bin/python benchmarks/retrieval_real.py
    .venv/bin/python benchmarks/retrieval_real.py --datasets financebench --peers semchunk --json out.json

Runs the shared tool `../shared/ragbench/tools/rag_eval.py` unchanged (its docstring has the
protocol): `chunk` for ingest (this checkout's `.venv/bin/ingest`) and for each peer
(lc-recursive, semchunk, chonkie, md-header; a peer whose package is not installed is skipped),
then one `score` per dataset with `--per-question`. From the per-question rows it prints, at the
1,000-token budget, each run's evidence recall (FinanceBench), page hit (both) and answer found
(MMLongBench-Doc), and ingest's paired difference from the best peer of each column (mean over
the same questions, +- 1.96 SE, questions better/worse). With 65-130 questions only a difference
above about two SEs is real.

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
    a = ap.parse_args(argv)
    tool = a.ragbench / "tools" / "rag_eval.py"
    peers = [p for p in a.peers.split(",") if p]
    report = {}
    for ds in a.datasets.split(","):
        work = a.work / ds
        ingest_bin = None if a.reuse_ingest else a.ingest_bin
        names = chunk_all(tool, a.ragbench / ds, work, a.size, peers, ingest_bin, a.rechunk_peers)
        extra = [spec.partition(":")[2] for spec in a.also if spec.partition(":")[0] == ds]
        result, per_q = score_all(tool, a.ragbench / ds, work, a.size, names, extra)
        summary = summarise(read_per_question(per_q), METRICS[ds], names[1:])
        print(format_table(ds, summary, METRICS[ds], read_facts(result)) + "\n")
        report[ds] = {
            "means": summary["means"],
            "score_json": str(result),
            "against": {
                run: {m: {"peer": peer, **(asdict(p) if p else {})} for m, (peer, p) in ag.items()}
                for run, ag in summary["against"].items()
            },
        }
    if a.json:
        a.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
