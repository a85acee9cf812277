"""Helpers for tests that run `ingest run` as a service would: a real subprocess, real signals,
real SQLite files, and a plugin cleaner that makes documents slow or hang on demand."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

SLOW_PLUGIN = '''
import dataclasses, os, time

def slow(blocks, ctx):
    """Sleeps SLOW_S per document; a document named hang* never ends (a parser stuck on it)."""
    if ctx.document.name.startswith("hang"):
        while True:
            time.sleep(1)
    time.sleep(float(os.environ.get("SLOW_S", "0")))
    yield from blocks


def faulty(blocks, ctx):
    """While the file FAULT_FLAG exists, the machine fails documents by their name's start."""
    name = ctx.document.name
    if os.path.exists(os.environ.get("FAULT_FLAG", "/nonexistent")):
        if name.startswith("oom"):
            raise MemoryError()
        if name.startswith("crash"):
            os._exit(1)
        if name.startswith("stuck"):
            time.sleep(3600)
    if name.startswith("bug"):  # half a surrogate pair, which no encoder takes, in a long text
        blocks = [dataclasses.replace(b, text=b.text + " word" * 2000 + chr(0xDB62)) for b in blocks]
    yield from blocks
'''


def workspace(
    tmp_path: Path, n: int = 6, *, workers: int = 1, extra: str = "", slow: bool = True, cleaner: str = "slow"
) -> Path:
    """A folder of `n` Markdown files and a config over it; returns the config path."""
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    for i in range(n):
        (docs / f"doc{i:03}.md").write_text(f"# Document {i}\n\nParagraph {i} about parcels and signatures.\n")
    (tmp_path / "plugins").mkdir(exist_ok=True)
    (tmp_path / "plugins" / "slow_plugin.py").write_text(SLOW_PLUGIN)
    cleaners = f'cleaners: ["slow_plugin:{cleaner}"]\n' if slow else ""
    cfg = tmp_path / "ingest.yaml"
    cfg.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'index.sqlite'}}}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: {workers}\n"
        f"chunker: {{max_tokens: 200, min_tokens: 16, overlap_tokens: 0}}\n{cleaners}{extra}",
        encoding="utf-8",
    )
    return cfg


def env(tmp_path: Path, **more: str) -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "plugins"), out.get("PYTHONPATH", "")])
    out.update(more)
    return out


def start(cfg: Path, *args: str, environ: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "ingest", "run", str(cfg), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environ,
    )


def ingest_run(
    cfg: Path, *args: str, environ: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(cfg), *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=timeout,
    )


def children(pid: int) -> set[int]:
    """Pids whose parent is `pid`, read from /proc."""
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited


def indexed(index: Path) -> set[str]:
    if not index.exists():
        return set()
    with sqlite3.connect(index) as db:
        try:
            return {r[0] for r in db.execute("SELECT id FROM documents")}
        except sqlite3.OperationalError:  # created, its tables not yet
            return set()


def recorded(state: Path) -> dict[str, str]:
    """doc_id -> status, as the state database holds them."""
    with sqlite3.connect(state) as db:
        return dict(db.execute("SELECT doc_id, status FROM documents"))


def wait_until(predicate, timeout: float = 30.0, every: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return False
