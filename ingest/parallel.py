"""Spread documents over processes: parsing is pure Python, so threads would not help.

Results come back in submission order, and at most `window` documents are in flight, so memory
stays bounded by a few documents per worker whatever the size of the run.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, TypeVar

from .blocks import Chunk, Document
from .chunker import ChunkOptions, chunk
from .cleaners import Step, build_chain, clean
from .errors import IngestError, WorkerCrash
from .links import ChunkLinks
from .loaders import load_bytes, load_file

T = TypeVar("T")
R = TypeVar("R")


def worker_count(requested: int | None) -> int:
    """`None` or 0 means one worker per core."""
    return requested if requested and requested > 0 else (os.cpu_count() or 1)


def ordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int) -> Iterator[tuple[T, Future]]:
    """(item, future) pairs in input order; with one worker everything runs in this process.

    A worker that dies (a crash inside a parser library, the out-of-memory killer) breaks the
    whole pool; then each item that was in flight runs again alone in a fresh process, so only
    the one that kills its worker fails (with `WorkerCrash`), and a new pool takes the rest.
    """
    if workers <= 1:
        for item in items:
            yield item, _run_here(fn, item)
        return
    window = workers * 4
    pool = ProcessPoolExecutor(max_workers=workers)
    pending: deque[tuple[T, Future]] = deque()
    try:
        for item in items:
            try:
                future = pool.submit(fn, item)
            except BrokenProcessPool:
                pool.shutdown(wait=False, cancel_futures=True)
                pool = ProcessPoolExecutor(max_workers=workers)
                future = pool.submit(fn, item)
            pending.append((item, future))
            if len(pending) >= window:
                yield _settled(fn, *pending.popleft())
        while pending:
            yield _settled(fn, *pending.popleft())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _settled(fn: Callable[[T], R], item: T, future: Future) -> tuple[T, Future]:
    if not isinstance(future.exception(), BrokenProcessPool):  # waits for the item
        return item, future
    with ProcessPoolExecutor(max_workers=1) as alone:  # was it this item, or a neighbour?
        retry = alone.submit(fn, item)
        if isinstance(retry.exception(), BrokenProcessPool):
            retry = Future()
            retry.set_exception(WorkerCrash(
                "the worker process died while processing it (a crash inside a parser library, or "
                "out of memory); the run went on without it"
            ))
    return item, retry


def _run_here(fn: Callable[[T], R], item: T) -> Future:
    future: Future = Future()
    try:
        future.set_result(fn(item))
    except Exception as exc:  # the caller decides per item, as with a pool
        future.set_exception(exc)
    return future


@dataclass(frozen=True, slots=True)
class Job:
    """One document to load, clean and chunk in a worker."""

    data: bytes
    document: Document
    steps: tuple[Step, ...]
    options: ChunkOptions


@dataclass(frozen=True, slots=True)
class Done:
    document: Document
    chunks: tuple[Chunk, ...]
    cleaned: dict


def process(job: Job) -> Done:
    loaded = load_bytes(job.data, job.document)
    blocks, cleaned = clean(loaded.blocks, loaded.document, job.steps)
    links = ChunkLinks(loaded.document)
    chunks = tuple(links.link(c) for c in chunk(loaded, job.options, links.watch(blocks)))
    return Done(loaded.document, chunks, cleaned)


@dataclass(frozen=True, slots=True)
class FileChunks:
    path: Path
    chunks: tuple[Chunk, ...]
    error: str = ""


def chunk_files(paths: Iterable[str | Path], options: ChunkOptions, workers: int | None = None) -> Iterator[FileChunks]:
    """Chunks of each file with the default cleaners, files spread over `workers` processes."""
    task = _FileTask(options)
    for path, future in ordered_map(task, (Path(p) for p in paths), worker_count(workers)):
        try:
            yield FileChunks(path, future.result())
        except IngestError as exc:
            yield FileChunks(path, (), str(exc) if exc.subject is not None else f"{path}: {exc}")
        except Exception as exc:  # a bug on one file must not end the others
            yield FileChunks(path, (), f"{path}: internal error: {exc!r}")


@dataclass(frozen=True, slots=True)
class _FileTask:
    options: ChunkOptions

    def __call__(self, path: Path) -> tuple[Chunk, ...]:
        loaded = load_file(path)
        blocks, _ = clean(loaded.blocks, loaded.document, _default_chain())
        return tuple(chunk(loaded, self.options, blocks))


_chain: tuple[Step, ...] | None = None


def _default_chain() -> tuple[Step, ...]:
    global _chain  # resolved once per worker process: entry points are slow to scan
    if _chain is None:
        _chain = build_chain([])
    return _chain
