"""The Drive half of benchmarks/scale.py: the sample served by the tests' fake Google server, in a
process of its own (its JSON and threads are not charged to the driver it answers), every request
answered after a round trip's latency; and what its request log says about a run: who downloaded
what (the driver or the workers, told apart by the client's port) and how far the fetches overlapped.
"""

from __future__ import annotations

import multiprocessing
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.drive.fake_google import FakeGoogle
from tests.drive.fake_google.__main__ import Mirror, job_config
from tests.drive.helpers import FETCHES

Entry = tuple[str, int, int, float, float]
"""One request of the log: target, client port, bytes answered, arrived, answered (monotonic s)."""


class DriveServer:
    """The fake, serving `folder`'s files (as `python -m tests.drive.fake_google --from` does) from a
    spawned process; driven over a pipe."""

    def __init__(self, folder: Path, latency: float) -> None:
        self.conn, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("spawn").Process(target=_serve, args=(child, folder, latency))
        self.process.start()
        self.top, self.files, self.token, self.drive_endpoint, self.docs_endpoint = self.conn.recv()
        self.port = urlsplit(self.drive_endpoint).port

    def source(self) -> dict:
        """The run config's `source:` for the served folder."""
        return job_config(self, self.top, Path("."))["source"]  # it has the endpoints and the token

    def count(self) -> int:
        return self._ask("count")

    def log(self, since: int) -> list[Entry]:
        return self._ask("log", since)

    def stop(self) -> None:
        if self.process.is_alive():
            self._ask("stop")
        self.process.join(timeout=30)

    def _ask(self, *command):
        self.conn.send(command)
        return self.conn.recv()


def _serve(conn, folder: Path, latency: float) -> None:
    fake = FakeGoogle(latency=latency).start()
    mirror = Mirror(fake, folder, fake.add_folder(folder.name))
    files = len(mirror.sync())
    conn.send((mirror.top, files, fake.token, fake.drive_endpoint, fake.docs_endpoint))
    while True:
        command, *args = conn.recv()
        if command == "stop":
            fake.stop()
            conn.send(None)
            return
        if command == "count":
            conn.send(len(fake.log))
        elif command == "log":
            conn.send([(r.target, r.client_port, r.sent, r.began, r.answered) for r in fake.log[args[0] :]])


@contextmanager
def driver_ports(server_port: int) -> Iterator[set[int]]:
    """The local ports of every connection this process (the driver) opens to the fake: Ray's
    workers are other processes, so a request from any other port is a worker's."""
    ports: set[int] = set()
    real = socket.socket.connect

    def connect(sock: socket.socket, address, *args):
        result = real(sock, address, *args)
        if isinstance(address, tuple) and address[1] == server_port:
            ports.add(sock.getsockname()[1])
        return result

    socket.socket.connect = connect
    try:
        yield ports
    finally:
        socket.socket.connect = real


@dataclass(frozen=True, slots=True)
class Traffic:
    """A run's requests as the fake saw them."""

    driver_requests: int
    driver_bytes: int
    """Everything the driver asked for: the listing (and, in a local run, the downloads)."""
    driver_fetches: int
    driver_fetch_bytes: int
    """Of those, the files' contents (downloads, exports, Docs reads)."""
    worker_fetches: int
    worker_fetch_bytes: int
    overlap: float
    """The fetches' summed time over the time at least one was in flight: 1.0 one at a time, 2.0
    two at once throughout."""
    peak: int
    """The most fetches in flight at once."""


def traffic(log: list[Entry], driver: set[int]) -> Traffic:
    fetches = [e for e in log if any(f in e[0] for f in FETCHES)]
    mine = [e for e in log if e[1] in driver]
    my_fetches = [e for e in fetches if e[1] in driver]
    theirs = [e for e in fetches if e[1] not in driver]
    busy, peak = _in_flight([(e[3], e[4]) for e in fetches])
    summed = sum(e[4] - e[3] for e in fetches)
    return Traffic(
        len(mine),
        sum(e[2] for e in mine),
        len(my_fetches),
        sum(e[2] for e in my_fetches),
        len(theirs),
        sum(e[2] for e in theirs),
        summed / busy if busy else 0.0,
        peak,
    )


def _in_flight(spans: list[tuple[float, float]]) -> tuple[float, int]:
    """The time covered by at least one span, and the most spans open at once."""
    events = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans], key=lambda e: (e[0], e[1]))
    busy = 0.0
    open_, peak, since = 0, 0, 0.0
    for at, step in events:
        if open_ == 0 and step == 1:
            since = at
        open_ += step
        peak = max(peak, open_)
        if open_ == 0:
            busy += at - since
    return busy, peak
