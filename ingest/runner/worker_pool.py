"""Worker processes that each hold one job at a time, so the parent knows which document each is
on: a worker that dies fails exactly its own document, one over its time limit is killed and
replaced, and a stop kills them all without waiting.

Workers never outlive the parent: the kernel kills them when it dies (Linux `PR_SET_PDEATHSIG`),
and a watchdog thread in each exits when its parent pid changes (everywhere else, and as a second
line). They ignore SIGINT and SIGTERM: Ctrl-C reaches the whole process group, and the parent,
which decides what a stop means, ends them itself.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from ..errors import DocumentTimeout, Stopped, WorkerCrash
from .stopping import StopRequest

_POLL_S = 0.2
"""How often a waiting parent looks at the stop flag and the clock."""
_CRASH = (
    "the worker process died while processing it (a crash inside a parser library, or out of "
    "memory); the run went on without it"
)


@dataclass(slots=True)
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    seq: int | None = None
    started: float = 0.0


def pool_map(
    fn: Callable[[Any], Any],
    items: Iterable[Any],
    workers: int,
    *,
    timeout_s: float | None = None,
    stop: StopRequest | None = None,
    heavy: Callable[[Any], bool] | None = None,
) -> Iterator[tuple[Any, Future]]:
    """(item, future) in input order, `fn` run in `workers` processes; at most 4 jobs per worker
    wait in the parent, so memory stays bounded whatever the number of items. At most one item
    for which `heavy` is true runs at a time (a parser's memory grows with its input: two large
    files at once, one per worker, would double the run's peak)."""
    stop = stop or StopRequest()
    window = workers * 4
    source = iter(items)
    exhausted = False
    waiting: deque[tuple[int, Any]] = deque()  # read from `items`, not yet given to a worker
    held: dict[int, Any] = {}  # every item not yet yielded, by sequence number
    done: dict[int, Future] = {}
    next_seq = next_out = 0
    pool: list[_Worker] = []
    try:
        while True:
            while not exhausted and len(held) < window:
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                held[next_seq] = item
                waiting.append((next_seq, item))
                next_seq += 1
            while len(pool) < min(workers, len(held)):
                pool.append(_start(fn))
            heavy_busy = heavy is not None and any(w.seq is not None and heavy(held[w.seq]) for w in pool)
            for worker in pool:
                if worker.seq is None and waiting:
                    pick = next(
                        (i for i, (_, it) in enumerate(waiting) if heavy is None or not (heavy_busy and heavy(it))),
                        None,
                    )
                    if pick is None:
                        break  # only heavy items wait, and one runs: the others wait their turn
                    seq, item = waiting[pick]
                    del waiting[pick]
                    heavy_busy = heavy_busy or (heavy is not None and heavy(item))
                    worker.seq, worker.started = seq, time.monotonic()
                    try:
                        worker.conn.send(item)
                    except (OSError, ValueError) as exc:  # died idle, or the item cannot be pickled
                        done[seq] = _failed(WorkerCrash(_CRASH) if isinstance(exc, OSError) else exc)
                        worker.seq = None
            if next_out in done:
                future = done.pop(next_out)
                yield held.pop(next_out), future
                next_out += 1
                continue
            if exhausted and not held:
                return
            stop.check()
            busy = [(w, w.seq) for w in pool if w.seq is not None]
            now = time.monotonic()
            timeout = _POLL_S
            if timeout_s is not None and busy:
                timeout = max(0.0, min(timeout, min(w.started + timeout_s for w, _ in busy) - now))
            ready = set(wait([w.conn for w, _ in busy] + [w.process.sentinel for w, _ in busy], timeout))
            for worker, seq in busy:
                if worker.conn in ready or worker.process.sentinel in ready:
                    try:
                        status, value = worker.conn.recv()
                    except (EOFError, OSError):
                        stop.check()  # a worker killed by the same signal is no crash of its document
                        done[seq] = _failed(WorkerCrash(_CRASH))
                        _replace(pool, worker, fn)
                        continue
                    done[seq] = _failed(value) if status == "err" else _ok(value)
                    worker.seq = None
                elif timeout_s is not None and time.monotonic() - worker.started > timeout_s:
                    done[seq] = _failed(
                        DocumentTimeout(
                            f"took longer than the time limit of {timeout_s:g} s (timeout_s); its worker was "
                            "stopped and the document is tried again next run"
                        )
                    )
                    _replace(pool, worker, fn)
    finally:
        for worker in pool:
            _end(worker, gently=worker.seq is None)


def _start(fn: Callable[[Any], Any]) -> _Worker:
    parent, child = multiprocessing.Pipe()
    process = multiprocessing.Process(target=_serve, args=(fn, child, os.getpid()), daemon=True)
    process.start()
    child.close()
    return _Worker(process, parent)


def _replace(pool: list[_Worker], worker: _Worker, fn: Callable[[Any], Any]) -> None:
    _end(worker, gently=False)
    pool[pool.index(worker)] = _start(fn)


def _end(worker: _Worker, *, gently: bool) -> None:
    if gently:
        try:
            worker.conn.send(None)
            worker.process.join(timeout=2.0)
        except (OSError, ValueError):
            pass
    if worker.process.is_alive():
        worker.process.kill()
    worker.process.join(timeout=5.0)
    worker.conn.close()


def _ok(value: Any) -> Future:
    future: Future = Future()
    future.set_result(value)
    return future


def _failed(exc: BaseException) -> Future:
    future: Future = Future()
    future.set_exception(exc)
    return future


def _serve(fn: Callable[[Any], Any], conn: Connection, parent_pid: int) -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
    _die_with_parent(parent_pid)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        try:
            reply: tuple[str, Any] = ("ok", fn(item))
        except Exception as exc:  # MemoryError included: the parent decides what each means
            reply = ("err", exc)
        try:
            conn.send(reply)
        except Exception as exc:  # a result or an exception that cannot be pickled
            conn.send(("err", RuntimeError(f"result could not be sent back: {exc!r}")))


def _die_with_parent(parent_pid: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: the kernel kills us with the parent
    except (OSError, AttributeError):
        pass  # not Linux: the watchdog below does it
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def run_here(fn: Callable[[Any], Any], item: Any, *, timeout_s: float | None, stop: StopRequest) -> Future:
    """`fn(item)` in this process: a stop abandons it at once (it has written nothing), and the
    time limit is an interval timer (it stops Python code; a C call stuck for good needs workers)."""
    future: Future = Future()
    timed = timeout_s is not None and threading.current_thread() is threading.main_thread()

    def expire(signum: int, frame: object) -> None:
        raise DocumentTimeout(
            f"took longer than the time limit of {timeout_s:g} s (timeout_s); the document is tried again next run"
        )

    previous = signal.signal(signal.SIGALRM, expire) if timed else None
    try:
        with stop.abandonable():
            if timed and timeout_s is not None:
                signal.setitimer(signal.ITIMER_REAL, timeout_s)
            try:
                future.set_result(fn(item))
            finally:
                if timed:
                    signal.setitimer(signal.ITIMER_REAL, 0)
    except Stopped:
        raise
    except Exception as exc:  # the caller decides per item, as with a pool
        future.set_exception(exc)
    finally:
        if timed:
            signal.signal(signal.SIGALRM, previous)
    return future
