"""How `ingest run` scales past one machine (#27): documents/s and pages/s for `workers: 1`,
`workers: 2`, Ray on one node and on two nodes (a real cluster on this machine, as the tests start
it), the default embedder on and off; the driver's cost per document (listing, planning, sink and
state writes, timed on the driver) and the throughput the model T(N) = min(N * per-node rate,
1 / driver cost) projects at 8, 32 and 128 nodes.

    PYTHONPATH=. python benchmarks/scale.py --per-type 6        # a sample of ../shared/corpus, twice over

Pages: a PDF's pages, one for any other document. Each Ray node has one CPU (`--num-cpus 1`), so
"one node" is one core, as `workers: 1` is.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

from shared_paths import CORPUS, ROOT

from ingest import run
from ingest.config import parse_config
from ingest.runner import pipeline
from ingest.runner.state import StateStore
from ingest.sinks.sqlite import SqliteSink
from ingest.sources.local import LocalSource

TYPES = (".md", ".docx", ".pdf", ".xlsx", ".csv", ".html")
MAX_BYTES = 400_000
NODES = (8, 32, 128)


def sample(target: Path, per_type: int) -> tuple[int, int]:
    """`per_type` documents of each type from the corpus, twice over (two copies); (documents, pages)."""
    import fitz

    docs = pages = 0
    for ext in TYPES:
        files = sorted(p for p in CORPUS.rglob(f"*{ext}") if p.is_file() and p.stat().st_size < MAX_BYTES)
        for src in files[:per_type]:
            for copy in ("a", "b"):
                dest = target / copy / src.relative_to(CORPUS)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(src, dest)
                docs += 1
                if ext == ".pdf":
                    with fitz.open(src) as pdf:
                        pages += pdf.page_count
                else:
                    pages += 1
    return docs, pages


class DriverClock:
    """Time spent in the driver's own parts of a run: listing, deciding, planning (a local source's
    read included), the sink's writes and syncs, the state's records and commits."""

    PARTS = {
        "listing": [(LocalSource, "sync")],
        "planning": [(pipeline, "_decide"), (pipeline, "_plan"), (pipeline._Run, "_remote_plan")],
        "sink": [(SqliteSink, "write"), (SqliteSink, "sync"), (SqliteSink, "delete")],
        "state": [(StateStore, "record_ok"), (StateStore, "record_removals"), (StateStore, "commit"),
                  (StateStore, "record_failure")],
    }  # fmt: skip

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    @contextmanager
    def timing(self):
        saved = []
        for part, targets in self.PARTS.items():
            for owner, name in targets:
                real = getattr(owner, name)
                saved.append((owner, name, real))
                setattr(owner, name, self._timed(part, real))
        try:
            yield self
        finally:
            for owner, name, real in saved:
                setattr(owner, name, real)

    def _timed(self, part: str, real):
        def timed(*args, **kwargs):
            began = time.perf_counter()
            try:
                result = real(*args, **kwargs)
            finally:
                self.seconds[part] += time.perf_counter() - began
            if part == "listing":  # the listing is a generator: time its walk too
                return _timed_iter(result, self, part)
            return result

        return timed


def _timed_iter(sync, clock: DriverClock, part: str):
    items = sync.items

    def walk():
        it = iter(items)
        while True:
            began = time.perf_counter()
            try:
                item = next(it)
            except StopIteration:
                clock.seconds[part] += time.perf_counter() - began
                return
            clock.seconds[part] += time.perf_counter() - began
            yield item

    from dataclasses import replace

    return replace(sync, items=walk())


def one_run(docs: Path, out: Path, *, embed: bool, workers: int | None, address: str | None) -> tuple[float, int, dict]:
    raw: dict = {
        "source": {"local": {"path": str(docs)}},
        "sink": {"sqlite": str(out / "index.sqlite")},
        "state": str(out / "state.sqlite"),
    }
    if embed:
        raw["embedder"] = {"name": "minilm"}
    if address:
        raw["executor"] = {"ray": {"address": address}}
    else:
        raw["workers"] = workers
    clock = DriverClock()
    with clock.timing():
        began = time.perf_counter()
        summary = run(*parse_config(raw))
        seconds = time.perf_counter() - began
    assert summary.changed > 0, summary
    return seconds, summary.changed + summary.failed, dict(clock.seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-type", type=int, default=6, help="documents of each type in the sample (x2 copies)")
    parser.add_argument("--no-ray", action="store_true", help="the local executor only")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="isc-"))  # short: Ray's socket paths under it have a length limit
    cluster = None
    try:
        corpus = root / "corpus"
        n_docs, n_pages = sample(corpus, args.per_type)
        print(f"sample: {n_docs} documents, {n_pages} pages (../shared/corpus, {args.per_type} per type, twice over)")
        setups: list[tuple[str, int | None, int]] = [("workers: 1", 1, 0), ("workers: 2", 2, 0)]
        if not args.no_ray:
            setups += [("ray, 1 node", None, 1), ("ray, 2 nodes", None, 2)]
        warm = root / "warm"
        warm.mkdir()
        one_run(corpus / "a", warm, embed=True, workers=1, address=None)  # imports, the model, the file cache
        rows = []
        for label, workers, nodes in setups:
            address = None
            if nodes:
                cluster = cluster or _start_cluster(root)
                if nodes == 2 and len([n for n in cluster.nodes if n.alive]) < 2:
                    cluster.start_worker()
                address = cluster.address
            for embed in (False, True):
                out = root / f"out-{len(rows)}"
                out.mkdir()
                seconds, done, parts = one_run(corpus, out, embed=embed, workers=workers, address=address)
                driver = sum(parts.values())
                rows.append((label, embed, done / seconds, n_pages / seconds, driver / done, parts, done))
                print(
                    f"{label:13} embed {'on ' if embed else 'off'}: {done / seconds:6.2f} docs/s "
                    f"{n_pages / seconds:7.2f} pages/s; driver {1000 * driver / done:6.2f} ms/doc ("
                    + ", ".join(f"{k} {1000 * v / done:.2f}" for k, v in sorted(parts.items()))
                    + ")",
                    flush=True,
                )
        print("\nmodel T(N) = min(N * per-node rate, 1 / driver cost per doc):")
        for embed in (False, True):
            per_node = next(
                r for r in rows if r[0] == ("ray, 1 node" if not args.no_ray else "workers: 1") and r[1] == embed
            )
            cost = max(r[4] for r in rows if r[1] == embed and r[0].startswith("ray" if not args.no_ray else "w"))
            rate = per_node[2]
            figures = ", ".join(
                f"{n} nodes {min(n * rate, 1 / cost):.0f} docs/s ({min(n * rate, 1 / cost) / rate:.1f}x)" for n in NODES
            )
            print(
                f"embed {'on ' if embed else 'off'}: per node {rate:.2f} docs/s, driver {1000 * cost:.2f} ms/doc -> {figures}"
            )
    finally:
        if cluster is not None:
            import ray

            if ray.is_initialized():
                ray.shutdown()
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
    return 0


def _start_cluster(root: Path):
    sys.path.insert(0, str(ROOT))
    from tests.ray.cluster import cluster_env, start_cluster

    env = cluster_env(ROOT)
    os.environ.update({k: env[k] for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_USAGE_STATS_ENABLED")})
    return start_cluster(root, env, workers=0)


if __name__ == "__main__":
    raise SystemExit(main())
