"""Where documents are processed: the seam between the run (which lists, decides and alone writes)
and what loads, cleans, chunks (and, on a cluster, embeds) each document.

An executor maps a function over the run's plans and hands back (plan, future) pairs strictly in
input order, so the sink and the state are written in listing order whichever runs the work. The
local executor is the process pool of `parallel.py` (`workers: N`); the Ray executor
(`ray_executor.py`, loaded only when configured) spreads the same work over a cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from ..config import Config
from .parallel import ordered_map, worker_count
from .stopping import StopRequest


@dataclass(frozen=True, slots=True)
class Dispatch:
    """What the run tells an executor about its items, whichever executor runs them."""

    wanted: Callable[[Any], bool]
    """Items that need a worker; the others' futures hold `fn(item)` run here, or are skipped by the caller."""
    timeout_s: float | None
    """How long one item may take on a worker before it fails (`DocumentTimeout`)."""
    stop: StopRequest
    heavy: Callable[[Any], bool]
    """Items run one at a time where a machine's memory is shared (a parser's grows with its input)."""


class Executor(Protocol):
    def map(self, fn: Callable[[Any], Any], items: Iterable[Any], how: Dispatch) -> Iterator[tuple[Any, Future]]:
        """(item, future of `fn(item)`) in input order."""
        ...

    @property
    def embeds(self) -> bool:
        """Whether the results carry their vectors (embedded where the work ran)."""
        ...

    @property
    def fetches(self) -> bool:
        """Whether the work should fetch its own bytes (a source that can hand out its fetches
        then has the driver read none: on a cluster, the fetching spreads with the work)."""
        ...


class LocalExecutor:
    """`workers` processes on this machine (one: everything in this process)."""

    embeds = False
    fetches = False
    """This machine's threads read ahead for its processes (`read_ahead.py`)."""

    def __init__(self, workers: int | None) -> None:
        self.workers = worker_count(workers)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any], how: Dispatch) -> Iterator[tuple[Any, Future]]:
        return ordered_map(fn, items, self.workers, timeout_s=how.timeout_s, stop=how.stop, heavy=how.heavy)

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def open_executor(config: Config) -> AbstractContextManager[Executor]:
    """The executor the config asks for; Ray is imported only when it is used."""
    if config.executor is not None and config.executor.ray is not None:
        from .ray_executor import RayExecutor

        return RayExecutor(config.executor.ray, config.embedder, config.cleaners, config.loaders)
    return LocalExecutor(config.workers)
