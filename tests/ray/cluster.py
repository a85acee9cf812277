"""A real two-node Ray cluster on this machine, for the tests: a head on 127.0.0.2 and a worker
node on 127.0.0.3 (Ray rewrites 127.0.0.1 to the machine's outward address), each `--num-cpus 1`
with its own temp dir and ports.

Each node is one `ray start --block` in its own process group; stopping it kills that group by
its id, never `ray stop`, which kills every Ray process on the host (other people's clusters too).
The token is in the environment (RAY_AUTH_MODE=token, RAY_AUTH_TOKEN), so nothing is written to
the home directory.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

RAY = Path(sys.executable).with_name("ray")
START_TIMEOUT_S = 90.0
"""Start-up takes ~9 s on an idle machine; the CI box is shared by several jobs."""
PROBE_TIMEOUT_S = 30.0
WORKER_PORTS = 200
"""Ports a node's workers may take, from a random low end."""


def free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def cluster_env(root: Path) -> dict[str, str]:
    """What the nodes and the driver share: the token, no usage stats, this checkout importable."""
    env = dict(os.environ)
    env.update(
        RAY_AUTH_MODE="token",
        RAY_AUTH_TOKEN=secrets.token_hex(32),
        RAY_USAGE_STATS_ENABLED="0",
        PYTHONPATH=os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")])),
    )
    return env


@dataclass
class Node:
    host: str
    process: subprocess.Popen
    temp_dir: Path
    port: int
    """Its raylet's node manager port: how the head names it."""

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the node's process group: `ray start --block`, its raylet, GCS and workers."""
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def pids(self) -> set[int]:
        """Every live process of the node's group (the tests check none is left behind)."""
        found = set()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.getpgid(int(entry.name)) == self.process.pid:
                        found.add(int(entry.name))
                except (ProcessLookupError, PermissionError):
                    continue
        return found


@dataclass
class Cluster:
    root: Path
    env: dict[str, str]
    address: str = ""
    nodes: list[Node] = field(default_factory=list)

    def start_head(self) -> Node:
        host = "127.0.0.2"
        port = free_port(host)
        self.address = f"{host}:{port}"
        node = self._start(host, ["--head", f"--port={port}", "--include-dashboard=false"])
        self.nodes.append(node)
        return node

    def start_worker(self, host: str = "127.0.0.3") -> Node:
        node = self._start(host, [f"--address={self.address}"])
        self.nodes.append(node)
        self.wait_nodes()
        return node

    def _start(self, host: str, args: list[str]) -> Node:
        temp = self.root / f"ray-{host}-{len(self.nodes)}"
        temp.mkdir(parents=True)
        port = free_port(host)
        ports = [
            f"--node-manager-port={port}",
            f"--object-manager-port={free_port(host)}",
            f"--metrics-export-port={free_port(host)}",
            f"--dashboard-agent-listen-port={free_port(host)}",
            f"--dashboard-agent-grpc-port={free_port(host)}",
            f"--runtime-env-agent-port={free_port(host)}",
        ]
        # Ray refuses a worker port range that holds one of the node's own ports (seen in CI: the
        # node manager's free port fell inside it): draw again until it holds none.
        taken = (
            {port}
            | {int(p.rpartition("=")[2]) for p in ports}
            | {int(a.rpartition("=")[2]) for a in args if a.startswith("--port=")}
        )
        low = 20000 + secrets.randbelow(20000)
        while taken & set(range(low, low + WORKER_PORTS + 1)):
            low = 20000 + secrets.randbelow(20000)
        command = [
            str(RAY), "start", "--block", f"--node-ip-address={host}", "--num-cpus=1",
            f"--temp-dir={temp}", "--disable-usage-stats", f"--object-store-memory={100 * 1024 * 1024}",
            f"--min-worker-port={low}", f"--max-worker-port={low + WORKER_PORTS}", *ports, *args,
        ]  # fmt: skip
        log = (temp / "start.log").open("wb")
        process = subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        return Node(host, process, temp, port)

    def wait_nodes(self) -> None:
        """Wait until the head counts every live node of ours, and no dead one, as alive (asked in
        a child: the test's own process stays free to connect as a driver later)."""
        live = [n for n in self.nodes if n.alive]
        want = str(sorted(n.port for n in live))
        probe = (
            "import ray,sys; ray.init(address=sys.argv[1], logging_level='ERROR', log_to_driver=False);"
            "print(sorted(n['NodeManagerPort'] for n in ray.nodes() if n['Alive']))"
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        seen = ""
        while time.monotonic() < deadline:
            if not all(n.alive for n in live):
                break
            try:
                done = subprocess.run([sys.executable, "-c", probe, self.address], env=self.env, capture_output=True,
                                      text=True, timeout=PROBE_TIMEOUT_S)  # fmt: skip
            except subprocess.TimeoutExpired:  # the head's GCS not answering yet
                continue
            seen = done.stdout.strip() or done.stderr[-2000:]
            if seen == want:
                return
            time.sleep(1)
        logs = "\n".join((n.temp_dir / "start.log").read_text(errors="replace")[-2000:] for n in self.nodes)
        raise RuntimeError(f"the Ray cluster did not come up with the nodes at ports {want} ({seen}):\n{logs}")

    def stop(self) -> None:
        for node in reversed(self.nodes):
            node.kill()
        # A worker process runs in a session of its own and ends when its raylet does; any that
        # outlives it is killed by its id.
        for pid in processes_with(self.env["RAY_AUTH_TOKEN"], wait_s=10):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def start_cluster(root: Path, env: dict[str, str], workers: int = 1) -> Cluster:
    cluster = Cluster(root, env)
    try:
        cluster.start_head()
        cluster.wait_nodes()
        for _ in range(workers):
            cluster.start_worker()
    except BaseException:
        cluster.stop()
        raise
    return cluster


def processes_with(token: str, wait_s: float = 30.0) -> list[int]:
    """Processes (other than this one) whose environment holds the cluster's token: a cluster's
    workers run in sessions of their own, so this, not the process group, finds every one."""
    needle = f"RAY_AUTH_TOKEN={token}".encode()
    deadline = time.monotonic() + wait_s
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    status = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                    if status != "Z":
                        found.append(int(entry.name))
            except OSError:
                continue
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.5)
