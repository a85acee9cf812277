"""One real two-node Ray cluster for the whole test session (start-up ~9 s, 0.75 GiB): a head on
127.0.0.2 and a worker node on 127.0.0.3. The session's driver (this process) reaches it with the
token in its environment; at the end every process of the cluster is gone, checked."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.drive.server import fake_google  # noqa: F401  (a fixture, for the Drive runs on the cluster)
from tests.drive.test_source import corpus_files  # noqa: F401  (a fixture: the corpus as Drive files)
from tests.ray.cluster import Cluster, cluster_env, processes_with, start_cluster

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def ray_cluster():
    env = cluster_env(REPO)
    # Set before Ray is imported: it reads its token from the environment once, at import.
    saved = {k: os.environ.get(k) for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_USAGE_STATS_ENABLED")}
    os.environ.update({k: env[k] for k in saved})
    pytest.importorskip("ray")
    root = Path(tempfile.mkdtemp(prefix="ingest-ray-"))
    cluster = start_cluster(root, env)
    try:
        yield cluster
    finally:
        import ray

        if ray.is_initialized():
            ray.shutdown()
        cluster.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        left = processes_with(cluster.env["RAY_AUTH_TOKEN"])
        assert not left, f"Ray processes left behind: {left}"


@pytest.fixture
def two_nodes(ray_cluster: Cluster) -> Cluster:
    """The cluster with its worker node up (a test before may have killed it)."""
    if not any(n.alive for n in ray_cluster.nodes if n.host == "127.0.0.3"):
        ray_cluster.start_worker()
    return ray_cluster
