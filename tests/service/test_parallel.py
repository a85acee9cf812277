"""Workers that die: only the document that kills its worker fails; the run goes on."""

from __future__ import annotations

import os

from ingest.errors import WorkerCrash
from ingest.runner.parallel import ordered_map


def _work(item: int) -> int:
    if item == 3:
        os._exit(1)  # what a segfault in a parser library or the OOM killer does to a worker
    if item == 5:
        raise ValueError("a parser's own error")
    return item * 10


def test_a_dying_worker_fails_only_its_own_item_and_the_pool_is_replaced():
    results = {}
    for item, future in ordered_map(_work, range(40), workers=2):
        results[item] = future.exception() or future.result()
    assert [k for k in results] == list(range(40))  # every item, in order
    assert isinstance(results[3], WorkerCrash)
    assert isinstance(results[5], ValueError)
    assert all(results[i] == i * 10 for i in range(40) if i not in (3, 5))


def test_one_worker_runs_in_this_process():
    out = [(i, f.result()) for i, f in ordered_map(lambda x: x + 1, [1, 2], workers=1)]
    assert out == [(1, 2), (2, 3)]


def _timed(item: int) -> tuple[int, float, float]:
    import time

    began = time.monotonic()
    time.sleep(0.3 if item % 2 == 0 else 0.05)
    return item, began, time.monotonic()


def test_heavy_items_run_one_at_a_time_and_light_ones_around_them():
    spans = [f.result() for _, f in ordered_map(_timed, range(8), workers=3, heavy=lambda i: i % 2 == 0)]
    assert [s[0] for s in spans] == list(range(8))  # still in order
    heavy = sorted((b, e) for i, b, e in spans if i % 2 == 0)
    assert all(later[0] >= earlier[1] for earlier, later in zip(heavy, heavy[1:]))  # never two at once
    light = [(b, e) for i, b, e in spans if i % 2]
    assert any(b < heavy[0][1] for b, _ in light)  # the light ones did not wait for the heavy
