"""Spread documents over processes: parsing is pure Python, so threads would not help.

Results come back in submission order, and at most four documents per worker are in flight, so
memory stays bounded by a few documents per worker whatever the size of the run (`worker_pool.py`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..blocks import Chunk, Document
from ..chunker import ChunkOptions, chunks_with_card
from ..cleaners import Step, build_chain, clean
from ..config import LimitsConfig
from ..errors import IngestError, internal_error
from ..links import ChunkLinks
from ..loaders import load_bytes, load_file
from ..loaders.options import LoaderOptions
from .input_limits import check_input
from .stopping import StopRequest
from .worker_pool import pool_map, run_here

if TYPE_CHECKING:
    from ..embedders.vectors import ChunkVectors

T = TypeVar("T")
R = TypeVar("R")


def worker_count(requested: int | None) -> int:
    """`None` or 0 means one worker per core."""
    return requested if requested and requested > 0 else (os.cpu_count() or 1)


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    workers: int,
    *,
    timeout_s: float | None = None,
    stop: StopRequest | None = None,
    heavy: Callable[[T], bool] | None = None,
) -> Iterator[tuple[T, Future]]:
    """(item, future) pairs in input order; with one worker everything runs in this process.

    A worker that dies (a crash inside a parser library, the out-of-memory killer) fails only the
    item it was on (`WorkerCrash`), one past `timeout_s` fails with `DocumentTimeout`; either way
    a new worker takes its place. A stop (see `stopping.py`) raises `Stopped` from here. Items
    that are `heavy` run one at a time.
    """
    stop = stop or StopRequest()
    if workers <= 1:
        for item in items:
            stop.check()
            yield item, run_here(fn, item, timeout_s=timeout_s, stop=stop)
        return
    yield from pool_map(fn, items, workers, timeout_s=timeout_s, stop=stop, heavy=heavy)


@dataclass(frozen=True, slots=True)
class Job:
    """One document to load, clean and chunk in a worker."""

    data: bytes
    document: Document
    steps: tuple[Step, ...]
    options: ChunkOptions
    limits: LimitsConfig = LimitsConfig()
    loaders: LoaderOptions = LoaderOptions()


HEAVY_BYTES = 8 * 1024 * 1024
"""A document this large (before unzipping) may take a parser hundreds of MB: one at a time."""


def is_heavy(job: Job) -> bool:
    return len(job.data) >= HEAVY_BYTES


@dataclass(frozen=True, slots=True)
class Done:
    document: Document
    chunks: tuple[Chunk, ...]
    cleaned: dict
    warnings: tuple[str, ...] = ()
    seconds: float = 0.0
    """Time to load, clean and chunk it."""
    vectors: ChunkVectors | None = None
    """The chunks' vectors, where the executor embeds beside the work (a Ray worker); else the
    run embeds them before writing."""
    digest: str = ""
    """The content digest, where the worker fetched the bytes itself (`remote_fetch.py`)."""


def process(job: Job) -> Done:
    began = time.perf_counter()
    check_input(job.data, job.document.mime_type, job.limits)  # in the worker: the archive check inflates
    loaded = load_bytes(job.data, job.document, job.loaders)
    blocks, cleaned = clean(loaded.blocks, loaded.document, job.steps)
    links = ChunkLinks(loaded.document)
    chunks = tuple(links.link(c) for c in chunks_with_card(loaded, job.options, links.watch(blocks)))
    return Done(loaded.document, chunks, cleaned, loaded.warnings, time.perf_counter() - began)


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
            yield FileChunks(path, (), internal_error(path, exc))


@dataclass(frozen=True, slots=True)
class _FileTask:
    options: ChunkOptions

    def __call__(self, path: Path) -> tuple[Chunk, ...]:
        loaded = load_file(path)
        blocks, _ = clean(loaded.blocks, loaded.document, _default_chain())
        return tuple(chunks_with_card(loaded, self.options, blocks))


_chain: tuple[Step, ...] | None = None


def _default_chain() -> tuple[Step, ...]:
    global _chain  # resolved once per worker process: entry points are slow to scan
    if _chain is None:
        _chain = build_chain([])
    return _chain
