"""Chunking speed on ../shared/bench/markdown-pypi (613 Markdown files): ingest against its peers.

    .venv/bin/python benchmarks/markdown_speed.py              # one core and all cores, best of 3
    .venv/bin/python benchmarks/markdown_speed.py --profile    # plus cProfile of ingest on one core
    .venv/bin/python benchmarks/markdown_speed.py --only ingest-0,chonkie --cores one --repeat 1

Every figure comes from a fresh child process (this script with --child), pinned to one CPU for
"one core". Per child:
- start-up included: spawn of the child to the end of its first pass over the corpus, so it holds
  the interpreter start, imports, the offline encoding load, reading and chunking every file;
- steady: the best later pass in the same process, each pass with a new chunker object and its
  per-text caches emptied (semchunk memoises counts per text: a warm second pass would skip work);
- MB/s: corpus bytes on disk / seconds; x bare: that MB/s over the bare tiktoken
  `encode_ordinary` of the same files measured the same way in the same run;
- peak RSS: ru_maxrss of the whole child (interpreter, libraries, encoding ranks); on all cores
  that of the largest worker; py heap: tracemalloc peak during one extra untimed pass (Python
  allocations only; Rust and C buffers are not seen).
All cores: this script spreads the file list over a forked process pool (size-balanced batches)
for ingest (as its own `chunk_files` does) and, for a like-for-like race, for every peer and for
the bare encode too. The best of --repeat runs is kept for each figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from importlib import metadata
from pathlib import Path

from offline_tiktoken import offline_encoding
from shared_paths import BENCH

ROOT = Path(__file__).resolve().parent.parent
CORPUS = BENCH / "markdown-pypi" / "files"

Split = Callable[[Path], int]  # chunks one file, returns how many chunks it made


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


# Each setup does the imports and the encoding load (start-up), then returns `fresh`, which makes a
# new chunker for one pass over the corpus.
def _setup_bare(max_tokens: int) -> Callable[[], Split]:
    enc = offline_encoding()
    return lambda: lambda path: len(enc.encode_ordinary(_read(path)))


def _setup_ingest(overlap: int) -> Callable[[int], Callable[[], Split]]:
    def setup(max_tokens: int) -> Callable[[], Split]:
        from ingest.chunker import ChunkOptions, chunk
        from ingest.chunker.tokens import get_tokenizer
        from ingest.loaders import load_file

        tokenizer = get_tokenizer("cl100k_base")
        options = ChunkOptions(max_tokens=max_tokens, overlap_tokens=overlap, tokenizer="cl100k_base")

        def fresh() -> Split:
            seam_cache = getattr(tokenizer, "_seam", None)
            if seam_cache is not None:
                seam_cache.cache_clear()
            return lambda path: sum(1 for _ in chunk(load_file(path), options))

        return fresh

    return setup


def _setup_chonkie(max_tokens: int) -> Callable[[], Split]:
    from chonkie import RecursiveChunker

    enc = offline_encoding()

    def fresh() -> Split:
        chunker = RecursiveChunker(tokenizer=enc, chunk_size=max_tokens)  # default rules
        return lambda path: len(chunker.chunk(_read(path)))

    return fresh


def _setup_semchunk(max_tokens: int) -> Callable[[], Split]:
    import semchunk

    enc = offline_encoding()

    def fresh() -> Split:
        chunker = semchunk.chunkerify(enc, max_tokens)
        return lambda path: len(chunker(_read(path)))

    return fresh


def _langchain_length(enc) -> Callable[[str], int]:
    # from_tiktoken_encoder takes only an encoding *name* (and would download it); this is the
    # length function it builds, on the offline encoding, with its default special-token policy.
    return lambda text: len(enc.encode(text, allowed_special=set(), disallowed_special="all"))


def _setup_langchain(max_tokens: int) -> Callable[[], Split]:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    length = _langchain_length(offline_encoding())

    def fresh() -> Split:
        splitter = RecursiveCharacterTextSplitter(chunk_size=max_tokens, chunk_overlap=0, length_function=length)
        return lambda path: len(splitter.split_text(_read(path)))

    return fresh


def _setup_langchain_md(max_tokens: int) -> Callable[[], Split]:
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    length = _langchain_length(offline_encoding())
    headers = [("#" * level, f"h{level}") for level in range(1, 7)]

    def fresh() -> Split:
        by_heading = MarkdownHeaderTextSplitter(headers, strip_headers=False)
        splitter = RecursiveCharacterTextSplitter(chunk_size=max_tokens, chunk_overlap=0, length_function=length)
        return lambda path: len(splitter.split_documents(by_heading.split_text(_read(path))))

    return fresh


CHUNKERS: dict[str, tuple[str, Callable[[int], Callable[[], Split]]]] = {
    "bare": ("bare tiktoken encode_ordinary (tokens, not chunks)", _setup_bare),
    "ingest-0": ("ingest, overlap 0", _setup_ingest(0)),
    "ingest-48": ("ingest, overlap 48 (default)", _setup_ingest(48)),
    "chonkie": ("chonkie RecursiveChunker (default rules)", _setup_chonkie),
    "semchunk": ("semchunk chunkerify(encoding)", _setup_semchunk),
    "langchain": ("LangChain RecursiveCharacterTextSplitter, tiktoken length", _setup_langchain),
    "langchain-md": ("LangChain MarkdownHeaderTextSplitter + recursive", _setup_langchain_md),
}
NOT_RUN = {
    "chonkie RecursiveChunker (markdown recipe)": "its rules are fetched from the Hugging Face hub "
    "at run time (RecursiveRules.from_recipe); there is no offline copy, so it is not measured",
}


# ---- child: one measurement ------------------------------------------------------------------

_POOL_STATE: dict = {}


def _pool_work(pass_no: int, paths: list[Path]) -> tuple[int, int]:
    if _POOL_STATE.get("pass") != pass_no:  # a new pass gets a new chunker, as on one core
        _POOL_STATE["split"], _POOL_STATE["pass"] = _POOL_STATE["fresh"](), pass_no
    split = _POOL_STATE["split"]
    return sum(split(p) for p in paths), _peak_rss_kb()


def _peak_rss_kb() -> int:
    # VmHWM, not ru_maxrss: ru_maxrss survives exec, so a child would report its parent's peak.
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _batches(files: list[Path], n: int) -> list[list[Path]]:
    """Size-balanced batches, largest first: few pickles, and no straggler at the end."""
    bins: list[list] = [[0, []] for _ in range(n)]
    for path in sorted(files, key=lambda p: p.stat().st_size, reverse=True):
        smallest = min(bins, key=lambda b: b[0])
        smallest[0] += path.stat().st_size
        smallest[1].append(path)
    return [b[1] for b in sorted(bins, key=lambda b: -b[0]) if b[1]]


def child(args: argparse.Namespace) -> None:
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    fresh = CHUNKERS[args.child][1](args.max_tokens)
    files = sorted(Path(args.corpus).rglob("*.md"))
    t_setup = time.monotonic()
    pool = None
    if args.workers > 1:
        _POOL_STATE["fresh"] = fresh
        pool = ProcessPoolExecutor(args.workers, mp_context=__import__("multiprocessing").get_context("fork"))
        batches = _batches(files, args.workers * 8)
    worker_rss = 0

    def one_pass(pass_no: int) -> int:
        nonlocal worker_rss
        if pool is None:
            split = fresh()
            return sum(split(p) for p in files)
        total = 0
        for count, rss in pool.map(_pool_work, [pass_no] * len(batches), batches):
            total, worker_rss = total + count, max(worker_rss, rss)
        return total

    t0 = time.monotonic()
    chunks = one_pass(0)
    t_first_end, cpu_first_end = time.monotonic(), _cpu()
    steady, steady_cpu = [], []
    for pass_no in range(1, args.passes):
        t, c = time.monotonic(), _cpu()
        one_pass(pass_no)
        steady.append(time.monotonic() - t)
        steady_cpu.append(_cpu() - c)
    if pool is not None:
        pool.shutdown()
    heap_peak = None
    if pool is None and args.tracemalloc:
        import tracemalloc

        tracemalloc.start()
        one_pass(-1)
        heap_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    print(
        json.dumps(
            {
                "chunks": chunks,
                "t_setup": t_setup,
                "t_first_end": t_first_end,
                "first_pass": t_first_end - t0,
                "steady": min(steady) if steady else None,
                "rss_kb": _peak_rss_kb(),
                "cpu_total": cpu_first_end if pool is None else None,
                "cpu_steady": min(steady_cpu) if steady_cpu and pool is None else None,
                "worker_rss_kb": worker_rss or None,
                "heap_peak": heap_peak,
            }
        )
    )


def _cpu() -> float:
    """CPU seconds of this process since it started (exec included): robust to a loaded machine."""
    t = os.times()
    return t.user + t.system


def profile_child(args: argparse.Namespace) -> None:
    """cProfile one steady pass of ingest on one core; prints the top functions."""
    import cProfile
    import pstats

    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    fresh = CHUNKERS[args.profile_child][1](args.max_tokens)
    files = sorted(Path(args.corpus).rglob("*.md"))
    split = fresh()
    sum(split(p) for p in files)  # warm: profile the work, not the first-call imports
    split = fresh()
    profiler = cProfile.Profile()
    profiler.enable()
    sum(split(p) for p in files)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout).strip_dirs()
    print(f"\n### cProfile, {CHUNKERS[args.profile_child][0]}, one pass, one core: by own time")
    stats.sort_stats("tottime").print_stats(args.profile_top)
    print("### by cumulative time")
    stats.sort_stats("cumulative").print_stats(args.profile_top)


# ---- parent: run the children, print the tables ----------------------------------------------


def _spawn(args: argparse.Namespace, name: str, workers: int, tracemalloc: bool) -> dict:
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        name,
        "--corpus",
        str(args.corpus),
        "--max-tokens",
        str(args.max_tokens),
        "--passes",
        str(args.passes),
        "--workers",
        str(workers),
    ]
    if workers == 1:
        cmd += ["--cpu", str(args.cpu)]
        if shutil.which("taskset"):  # pin the interpreter's own start-up too
            cmd = ["taskset", "-c", str(args.cpu)] + cmd
    if not tracemalloc:
        cmd.append("--no-tracemalloc")
    env = dict(os.environ, TOKENIZERS_PARALLELISM="false", RAYON_NUM_THREADS=str(workers), PYTHONHASHSEED="0")
    t_spawn = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed ({' '.join(cmd)}):\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["startup"] = result["t_setup"] - t_spawn
    result["total"] = result["t_first_end"] - t_spawn
    return result


def _best(runs: list[dict]) -> dict:
    best = dict(runs[0])  # chunk counts and the tracemalloc peak come from the first child
    for key in ("startup", "total", "first_pass", "steady", "cpu_total", "cpu_steady", "rss_kb", "worker_rss_kb"):
        values = [r[key] for r in runs if r.get(key) is not None]
        best[key] = min(values) if values else None
    return best


def _rate(mb: float, seconds: float | None) -> float | None:
    return mb / seconds if seconds else None


def _table(rows: dict[str, dict], corpus_mb: float, workers: int) -> str:
    columns = [("total", "wall MB/s, start-up incl."), ("steady", "wall MB/s, steady")]
    if workers == 1:
        columns += [("cpu_total", "CPU-time MB/s, start-up incl."), ("cpu_steady", "CPU-time MB/s, steady")]
    head = ["chunker", "chunks", "start-up s"] + [f"{label} (x bare)" for _, label in columns]
    head += ["peak RSS MB" if workers == 1 else "peak RSS MB, largest worker", "py heap MB"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    bare = rows.get("bare")
    for name, r in rows.items():
        cells = [CHUNKERS[name][0], str(r["chunks"]), f"{r['startup']:.2f}"]
        for key, _ in columns:
            rate, base = _rate(corpus_mb, r.get(key)), _rate(corpus_mb, bare.get(key)) if bare else None
            cells.append(f"{rate:.2f} ({rate / base:.2f}x)" if rate and base else f"{rate:.2f}" if rate else "-")
        rss = r["worker_rss_kb"] if workers > 1 else r["rss_kb"]
        cells.append(f"{rss / 1024:.0f}" if rss else "-")
        cells.append(f"{r['heap_peak'] / 2**20:.1f}" if r.get("heap_peak") else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _machine() -> str:
    model = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        platform.processor(),
    )
    versions = ", ".join(
        f"{p} {metadata.version(p)}"
        for p in ("tiktoken", "chonkie", "semchunk", "langchain-text-splitters", "markdown-it-py")
    )
    return (
        f"{model}, {os.cpu_count()} CPUs ({len(os.sched_getaffinity(0))} usable), Python "
        f"{platform.python_version()}, {platform.system()} {platform.release()}; {versions}"
    )


def check_child(args: argparse.Namespace) -> None:
    """The peers' encoding must give ingest's ids, or the ratios compare different work."""
    from ingest.chunker.tokens import encoding

    ours, theirs = encoding("cl100k_base"), offline_encoding()
    files = sorted(Path(args.corpus).rglob("*.md"))
    for path in files[:: max(1, len(files) // 50)]:
        text = _read(path)
        if ours.encode_ordinary(text) != theirs.encode_ordinary(text):
            raise SystemExit(f"offline_tiktoken disagrees with ingest's encoding on {path}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--only", help="comma-separated: " + ",".join(CHUNKERS))
    parser.add_argument("--cores", default="one,all", help="one, all, or one,all")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)), help="processes for 'all'")
    parser.add_argument("--cpu", type=int, help="the CPU for 'one' (default: the lowest usable)")
    parser.add_argument("--repeat", type=int, default=3, help="children per figure; the best is kept")
    parser.add_argument("--passes", type=int, default=2, help="passes per child: the first, then steady ones")
    parser.add_argument("--no-tracemalloc", dest="tracemalloc", action="store_false")
    parser.add_argument("--profile", action="store_true", help="also cProfile ingest's path on one core")
    parser.add_argument("--profile-top", type=int, default=25)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--child", choices=CHUNKERS, help=argparse.SUPPRESS)
    parser.add_argument("--profile-child", choices=CHUNKERS, help=argparse.SUPPRESS)
    parser.add_argument("--check-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    if args.profile_child:
        return profile_child(args)
    if args.check_child:
        return check_child(args)

    if args.cpu is None:
        args.cpu = min(os.sched_getaffinity(0))
    names = args.only.split(",") if args.only else list(CHUNKERS)
    if "bare" not in names:
        names.insert(0, "bare")  # every ratio needs it from the same run
    me = [sys.executable, str(Path(__file__).resolve()), "--corpus", str(args.corpus)]
    # In a child, so this process stays small: a child forked from it would inherit its footprint.
    subprocess.run(me + ["--check-child"], check=True, cwd=ROOT)
    files = sorted(args.corpus.rglob("*.md"))
    corpus_bytes = sum(p.stat().st_size for p in files)
    corpus_mb = corpus_bytes / 1e6
    settings = [("one", 1)] * ("one" in args.cores) + [("all", args.workers)] * ("all" in args.cores)
    load_before = os.getloadavg()
    print(
        f"# markdown_speed {time.strftime('%Y-%m-%d %H:%M %Z')}\n{_machine()}\n"
        f"corpus {args.corpus}: {len(files)} files, {corpus_mb:.2f} MB; {args.max_tokens} cl100k tokens; "
        f"best of {args.repeat} children x {args.passes} passes; load average before "
        f"{load_before[0]:.2f} (1 min)",
        flush=True,
    )
    runs: dict[tuple[str, str], list[dict]] = {}
    for repeat in range(args.repeat):  # interleaved, so a burst of load on the machine hits all alike
        for setting, workers in settings:
            for name in names:
                run = _spawn(args, name, workers, tracemalloc=args.tracemalloc and repeat == 0)
                runs.setdefault((setting, name), []).append(run)
    results = {}
    for setting, workers in settings:
        rows = {name: _best(runs[(setting, name)]) for name in names}
        results[setting] = rows
        what = f"one core (CPU {args.cpu})" if workers == 1 else f"all cores ({workers} worker processes)"
        print(f"\n## {what}\n\n{_table(rows, corpus_mb, workers)}")
    for label, reason in NOT_RUN.items():
        print(f"\nnot measured: {label}: {reason}")
    load_after = os.getloadavg()
    print(f"\nload average after {load_after[0]:.2f} (1 min), {load_after[1]:.2f} (5 min)")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": _machine(),
                    "corpus_bytes": corpus_bytes,
                    "load": [load_before, load_after],
                    "results": results,
                },
                indent=1,
            )
        )
    if args.profile:
        for name in (n for n in names if n.startswith("ingest")):
            sys.stdout.flush()
            subprocess.run(
                me
                + [
                    "--profile-child",
                    name,
                    "--max-tokens",
                    str(args.max_tokens),
                    "--cpu",
                    str(args.cpu),
                    "--profile-top",
                    str(args.profile_top),
                ],
                check=True,
                cwd=ROOT,
            )


if __name__ == "__main__":
    main()
