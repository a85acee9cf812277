"""How `ingest run` scales past one machine (#27): documents/s and pages/s for `workers: 1`,
`workers: 2`, Ray on one node and on two nodes (a real cluster on this machine, as the tests start
it), the default embedder on and off; the driver's cost per document (listing, planning, sink and
state writes, timed on the driver) and the throughput the model T(N) = min(N * per-node rate,
1 / driver cost) projects at 8, 32 and 128 nodes.

    PYTHONPATH=. python benchmarks/scale.py --per-type 6                  # a sample of ../shared/corpus, twice over
    PYTHONPATH=. python benchmarks/scale.py --per-type 4 --source drive   # the same files over the fake Drive

`--source drive` serves the sample from the tests' fake Google server (100 ms a request,
`--latency`), in a process of its own: a local run's driver fetches every file (`concurrency`
at a time), a Ray run's workers fetch their own. Its request log then says, per run, what the
driver downloaded (the client's port tells its connections from the workers') and how many
fetches were in flight at once.

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
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from scale_drive import DriveServer, driver_ports, traffic
from shared_paths import CORPUS, ROOT

from ingest import run
from ingest.config import parse_config
from ingest.runner import pipeline
from ingest.runner.state import StateStore
from ingest.sinks.sqlite import SqliteSink
from ingest.sources.drive import DriveSource
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
        "listing": [(LocalSource, "sync"), (DriveSource, "sync")],
        "planning": [(pipeline, "_decide"), (pipeline, "_plan"), (pipeline._Run, "_remote_plan")],
        "sink": [(SqliteSink, "write"), (SqliteSink, "sync"), (SqliteSink, "delete")],
        "state": [(StateStore, "record_ok"), (StateStore, "record_removals"), (StateStore, "commit"),
                  (StateStore, "record_failure")],
    }  # fmt: skip

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.cpu = 0.0
        """The same parts' CPU time on the driver's thread: on a shared machine, wall time also
        counts the driver waiting for a core the workers hold (the listing waits on the network)."""

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
            began, cpu = time.perf_counter(), time.thread_time()
            try:
                result = real(*args, **kwargs)
            finally:
                self.seconds[part] += time.perf_counter() - began
                self.cpu += time.thread_time() - cpu
            if part == "listing":  # the listing is a generator: time its walk too
                return _timed_iter(result, self, part)
            return result

        return timed


def _timed_iter(sync, clock: DriverClock, part: str):
    items = sync.items

    def walk():
        it = iter(items)
        while True:
            began, cpu = time.perf_counter(), time.thread_time()
            try:
                item = next(it)
            except StopIteration:
                clock.seconds[part] += time.perf_counter() - began
                clock.cpu += time.thread_time() - cpu
                return
            clock.seconds[part] += time.perf_counter() - began
            clock.cpu += time.thread_time() - cpu
            yield item

    from dataclasses import replace

    return replace(sync, items=walk())


def one_run(
    source: dict, out: Path, *, embed: bool, workers: int | None, address: str | None
) -> tuple[float, int, dict, float]:
    raw: dict = {
        "source": source,
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
    assert summary.changed > 0 and summary.failed == 0, summary
    return seconds, summary.changed, dict(clock.seconds), clock.cpu


@dataclass(frozen=True, slots=True)
class Row:
    setup: str
    embed: bool
    docs_s: float
    pages_s: float
    driver: float
    """The driver's seconds per document, all parts."""
    parts: dict[str, float]
    """Seconds per document, by part."""
    cpu: float
    """The driver's CPU seconds per document in those parts."""


def bench(name: str, source: dict, n_pages: int, setups: list, root: Path, cluster_of, drive=None) -> list[Row]:
    """Each setup, embedder off then on, each into a fresh index and state. `drive`: the fake
    server, whose request log then says who fetched what."""
    rows: list[Row] = []
    for label, workers, nodes in setups:
        address = cluster_of(nodes).address if nodes else None
        for embed in (False, True):
            out = root / f"out-{name}-{len(rows)}"
            out.mkdir()
            since = drive.count() if drive else 0
            with driver_ports(drive.port) if drive else nullcontext(set()) as ports:
                seconds, done, parts, cpu = one_run(source, out, embed=embed, workers=workers, address=address)
            driver = sum(parts.values())
            row = Row(
                label,
                embed,
                done / seconds,
                n_pages / seconds,
                driver / done,
                {k: v / done for k, v in parts.items()},
                cpu / done,
            )
            rows.append(row)
            line = (
                f"{name:6} {label:13} embed {'on ' if embed else 'off'}: {row.docs_s:6.2f} docs/s "
                f"{row.pages_s:7.2f} pages/s; driver {1000 * row.driver:6.2f} ms/doc ("
                + ", ".join(f"{k} {1000 * v:.2f}" for k, v in sorted(row.parts.items()))
                + f"; cpu {1000 * row.cpu:.2f})"
            )
            if drive:
                t = traffic(drive.log(since), ports)
                line += (
                    f"\n{'':21}driver: {t.driver_requests} requests, {t.driver_bytes / 1e3:.0f} kB, of which "
                    f"{t.driver_fetches} fetches, {t.driver_fetch_bytes / 1e3:.0f} kB; workers: {t.worker_fetches} "
                    f"fetches, {t.worker_fetch_bytes / 1e3:.0f} kB; fetches in flight: {t.overlap:.2f} on average, "
                    f"{t.peak} at most"
                )
            print(line, flush=True)
    return rows


def project(name: str, rows: list[Row], ray: bool) -> None:
    """The model T(N) = min(N * per-node rate, 1 / driver cost per doc), with the one-node rate and
    the highest driver cost measured on the cluster (or locally, without Ray)."""
    print(f"\n{name}: model T(N) = min(N * per-node rate, 1 / driver cost per doc):")
    for embed in (False, True):
        per_node = next(r for r in rows if r.setup == ("ray, 1 node" if ray else "workers: 1") and r.embed == embed)
        costly = max((r for r in rows if r.embed == embed and r.setup.startswith("ray" if ray else "w")),
                     key=lambda r: r.driver)  # fmt: skip
        cost = costly.driver
        rate = per_node.docs_s
        figures = ", ".join(
            f"{n} nodes {min(n * rate, 1 / cost):.0f} docs/s ({min(n * rate, 1 / cost) / rate:.1f}x)" for n in NODES
        )
        print(
            f"embed {'on ' if embed else 'off'}: per node {rate:.2f} docs/s, driver {1000 * cost:.2f} ms/doc -> {figures}"
        )
        # The listing is paid once, for the tree's folders (a round trip a level, `concurrency`
        # folders at once), before any document is processed: per document it shrinks as a run grows.
        rest = cost - costly.parts.get("listing", 0.0)
        print(
            f"{'':10}the listing apart: driver {1000 * rest:.2f} ms/doc -> 32 nodes "
            f"{min(32 * rate, 1 / rest) / rate:.1f}x; with it, 25x at 32 nodes holds while a node does at most "
            f"{1 / (25 * cost):.2f} docs/s"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-type", type=int, default=6, help="documents of each type in the sample (x2 copies)")
    parser.add_argument("--no-ray", action="store_true", help="the local executor only")
    parser.add_argument(
        "--source", choices=("corpus", "drive", "both"), default="corpus",
        help="the sample from the local folder, from the fake Drive, or both in one run",
    )  # fmt: skip
    parser.add_argument("--latency", type=float, default=0.1, help="seconds the fake Drive takes to answer a request")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="isc-"))  # short: Ray's socket paths under it have a length limit
    cluster = None
    drive = None

    def cluster_of(nodes: int):
        nonlocal cluster
        cluster = cluster or _start_cluster(root)
        if nodes == 2 and len([n for n in cluster.nodes if n.alive]) < 2:
            cluster.start_worker()
        return cluster

    try:
        corpus = root / "corpus"
        n_docs, n_pages = sample(corpus, args.per_type)
        print(f"sample: {n_docs} documents, {n_pages} pages (../shared/corpus, {args.per_type} per type, twice over)")
        sources: list[tuple[str, dict]] = []
        if args.source in ("corpus", "both"):
            sources.append(("corpus", {"local": {"path": str(corpus)}}))
        if args.source in ("drive", "both"):
            drive = DriveServer(corpus, args.latency)
            assert drive.files == n_docs, (drive.files, n_docs)
            sources.append(("drive", drive.source()))
            print(f"fake Drive: the sample's {drive.files} files, {1000 * args.latency:.0f} ms a request", flush=True)
        setups: list[tuple[str, int | None, int]] = [("workers: 1", 1, 0), ("workers: 2", 2, 0)]
        if not args.no_ray:
            setups += [("ray, 1 node", None, 1), ("ray, 2 nodes", None, 2)]
        for name, source in sources:  # imports, the model, the file cache (and the Drive client)
            warm = root / f"warm-{name}"
            warm.mkdir()
            one_run(source, warm, embed=True, workers=1, address=None)
        results = []
        for name, source in sources:
            results.append(
                (name, bench(name, source, n_pages, setups, root, cluster_of, drive if name == "drive" else None))
            )
        for name, rows in results:
            project(name, rows, not args.no_ray)
    finally:
        if cluster is not None:
            import ray

            if ray.is_initialized():
                ray.shutdown()
            cluster.stop()
        if drive is not None:
            drive.stop()
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
