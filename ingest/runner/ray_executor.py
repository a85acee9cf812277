"""The Ray executor: documents are loaded, cleaned, chunked and embedded on a Ray cluster, while
the driver (this process) lists, decides and alone writes the sink and the state, in listing
order, exactly as a local run does.

Workers are pure: a task takes a planned document (with its bytes, or, from a source that hands
out its fetches such as Drive, the fetch to run: `remote_fetch.py`) and returns its chunks,
vectors and verdicts; nothing on a worker writes anywhere. What goes wrong is told apart by whose fault it is:

- the document's (a parser raised): the task's own exception (`RayTaskError.cause`), failed as a
  local run fails it; Ray does not retry it, it would fail again;
- the machine's (a worker process died, its node was lost, an object was lost): Ray tries the
  task again, up to `max_retries`; a document lost on every try fails as a lost worker, and the
  next run tries it again;
- the cluster's (the driver cannot reach it): `ClusterLost`, the run ends; every document written
  is whole (one transaction each), and the cursor does not move.

Before any document is sent, each node checks it can open the run's cleaners, loaders and
embedder: a plugin missing on a node is named then, not as a failure of every document.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

from ..config import RayConfig
from ..embedders import EmbedderConfig
from ..errors import ClusterLost, ClusterSetupError, ConfigError, DocumentTimeout, IngestError, WorkerCrash
from .executor import Dispatch
from .parallel import Done
from .stopping import StopRequest

log = logging.getLogger(__name__)

_POLL_S = 0.2
"""How often the driver, waiting on the next document, looks at the stop flag and the clock."""
IN_FLIGHT_PER_CPU = 4
"""Documents in flight per CPU of the cluster when `max_in_flight` is 0: enough that no worker
waits on the driver, few enough that the driver holds a bounded number of results."""


class RayExecutor:
    """Connects on enter (and disconnects on exit, if it connected); `map` runs the work."""

    def __init__(self, config: RayConfig, embedder: EmbedderConfig | None, cleaners: list | None = None,
                 loaders: list[str] | None = None) -> None:  # fmt: skip
        self.config = config
        self.embedder = embedder.spec() if embedder is not None else None
        self.cleaners = cleaners or []
        self.loaders = loaders or []
        self.embeds = embedder is not None
        self.fetches = True  # each worker fetches its own document: the driver downloads nothing
        self._owned = False
        self._window = config.max_in_flight

    def __enter__(self) -> RayExecutor:
        try:
            import ray
        except ImportError:
            raise ConfigError("needs Ray on this machine: pip install 'ingest[ray]'", subject="executor.ray") from None
        self._ray = ray
        if not ray.is_initialized():
            try:
                ray.init(address=self.config.address, logging_level=logging.WARNING, log_to_driver=False)
            except Exception as exc:  # ConnectionError, or Ray's own when no cluster answers
                raise ClusterLost(
                    f"cannot connect: {_one_line(exc)}", subject=f"Ray cluster {self.config.address}"
                ) from None
            self._owned = True
        try:
            self._task = ray.remote(num_cpus=1, max_retries=self.config.max_retries)(_work)
            if not self._window:
                cpus = int(ray.cluster_resources().get("CPU", 1))
                self._window = IN_FLIGHT_PER_CPU * max(cpus, 1)
            self._check_nodes()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._owned:
            self._ray.shutdown()
            self._owned = False

    def _check_nodes(self) -> None:
        """Each live node opens what the run's documents need, before one is sent."""
        ray = self._ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        check = ray.remote(num_cpus=0, max_retries=0)(_node_check)
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        refs = {
            n["NodeManagerAddress"]: check.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)
            ).remote(self.cleaners, self.loaders, self.embedder)
            for n in nodes
        }
        for address, ref in refs.items():
            try:
                problem = ray.get(ref)
            except ray.exceptions.RayError as exc:
                problem = _one_line(exc)
            if problem:
                raise ClusterSetupError(
                    f"{problem}; install it on every node (the same ingest and plugin packages as here), "
                    "or give it in Ray's runtime_env",
                    subject=f"Ray node {address}",
                )

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any], how: Dispatch) -> Iterator[tuple[Any, Future]]:
        """(item, future) in input order; at most `max_in_flight` documents submitted and not yet
        handed back. `heavy` is not needed here: each task holds one of its node's CPUs."""
        pending: deque[tuple[Any, Any]] = deque()
        in_flight = 0
        for item in items:
            how.stop.check()
            ref = self._task.remote(fn, item, self.embedder) if how.wanted(item) else None
            in_flight += ref is not None
            pending.append((item, ref))
            while pending and (pending[0][1] is None or in_flight >= self._window or self._ready(pending[0][1])):
                item_out, ref_out = pending.popleft()
                in_flight -= ref_out is not None
                yield item_out, self._result(fn, item_out, ref_out, how.timeout_s, how.stop)
        while pending:
            item_out, ref_out = pending.popleft()
            yield item_out, self._result(fn, item_out, ref_out, how.timeout_s, how.stop)

    def _ready(self, ref: Any) -> bool:
        try:
            ready, _ = self._ray.wait([ref], timeout=0)
        except Exception as exc:
            raise self._lost(exc) from exc
        return bool(ready)

    def _result(
        self, fn: Callable[[Any], Any], item: Any, ref: Any, timeout_s: float | None, stop: StopRequest
    ) -> Future:
        ray = self._ray
        future: Future = Future()
        if ref is None:  # decided without a worker
            future.set_result(fn(item))
            return future
        # The time limit counts from when the driver waits on it: by then every document before it
        # is done, so the task has had at least that long on a worker.
        began = time.monotonic()
        while True:
            stop.check()
            try:
                ready, _ = ray.wait([ref], timeout=_POLL_S)
            except Exception as exc:
                raise self._lost(exc) from exc
            if ready:
                break
            if timeout_s is not None and time.monotonic() - began > timeout_s:
                ray.cancel(ref, force=True)  # kills its worker; Ray starts another
                future.set_exception(DocumentTimeout(f"took more than {timeout_s:g} s on the Ray cluster"))
                return future
        try:
            future.set_result(ray.get(ref))
        except ray.exceptions.RayTaskError as exc:  # the document's own failure, as raised on the worker
            cause = exc.cause if isinstance(exc.cause, BaseException) else exc
            future.set_exception(cause if isinstance(cause, Exception) else RuntimeError(_one_line(exc)))
        except (
            ray.exceptions.WorkerCrashedError,
            ray.exceptions.NodeDiedError,
            ray.exceptions.ObjectLostError,
            ray.exceptions.OutOfMemoryError,
            ray.exceptions.TaskCancelledError,
        ) as exc:
            tries = self.config.max_retries + 1
            future.set_exception(
                WorkerCrash(f"its Ray worker or node was lost on each of {tries} tries ({type(exc).__name__})")
            )
        except Exception as exc:  # the driver lost the cluster itself
            raise self._lost(exc) from exc
        return future

    def _lost(self, exc: BaseException) -> ClusterLost:
        return ClusterLost(f"lost mid-run: {_one_line(exc)}", subject=f"Ray cluster {self.config.address}")


def _one_line(exc: BaseException) -> str:
    """An exception's message without Ray's coloured traceback: its first line, plain."""
    text = str(getattr(exc, "cause", None) or exc) or type(exc).__name__
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return "".join(ch for ch in first if ch.isprintable())[:300]


_embedders: dict[str, Any] = {}
"""Per worker process: each embedder opened once, by its spec (a model loads in seconds)."""


def _work(fn: Callable[[Any], Any], item: Any, embedder: dict | None) -> Any:
    """On a worker: the document's work, then its vectors (no index to take them from here)."""
    done = fn(item)
    if embedder is not None and isinstance(done, Done):
        from ..embedders import load
        from ..embedders.vectors import embed_chunks

        key = json.dumps(embedder, sort_keys=True, default=str)
        if key not in _embedders:
            _embedders[key] = load(embedder)
        done = replace(done, vectors=embed_chunks(_embedders[key], done.chunks))
    return done


def _node_check(cleaners: list, loaders: list[str], embedder: dict | None) -> str:
    """On a node: what the run needs, opened; the first thing missing, in words, or ''."""
    try:
        from ..cleaners import build_chain
        from ..config import _cleaner_items
        from ..embedders import options_of
        from ..loaders import resolve

        build_chain(_cleaner_items(cleaners))
        for name in loaders:
            resolve(name)
        if embedder is not None:
            options_of(EmbedderConfig.model_validate(embedder))
    except IngestError as exc:
        return str(exc)
    except ImportError as exc:
        return f"cannot import {exc.name or exc}"
    return ""
