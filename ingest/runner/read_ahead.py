"""Reading ahead: fetch the next documents' bytes on a few threads while this one works, and
hand them over strictly in order, so whatever is written after (sink, state, cursor) is written
in the order the source listed, as if read one at a time.

Threads, not processes: fetching waits on the network. At most `4 * workers` reads are ahead of
the one handed over, which bounds the bytes held in memory.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

E = TypeVar("E")


def read_ahead(
    entries: Iterable[E], read: Callable[[E], bytes], wanted: Callable[[E], bool], workers: int
) -> Iterator[tuple[E, Future | None]]:
    """(entry, future of `read(entry)`, or None where `wanted(entry)` is false), in input order."""
    if workers <= 1:
        for entry in entries:
            yield entry, (_here(read, entry) if wanted(entry) else None)
        return
    window = 4 * workers  # enough to ride out a slow document at the front; bounds memory
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fetch")
    pending: deque[tuple[E, Future | None]] = deque()
    reading = 0
    try:
        for entry in entries:
            future = pool.submit(read, entry) if wanted(entry) else None
            reading += future is not None
            pending.append((entry, future))
            # Hand over what is ready at the front; wait on the front only when the window is full.
            while pending and (pending[0][1] is None or pending[0][1].done() or reading >= window):
                entry_out, future_out = pending.popleft()
                reading -= future_out is not None
                yield entry_out, future_out
        while pending:
            yield pending.popleft()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _here(read: Callable[[E], bytes], entry: E) -> Future:
    future: Future = Future()
    try:
        future.set_result(read(entry))
    except Exception as exc:  # the caller decides per entry, as with the pool
        future.set_exception(exc)
    return future
