"""`executor: {ray: ...}` and `--executor ray --ray-address` are checked at the edge: both
executors at once, a bad address, an address without Ray are usage errors naming the keys."""

from __future__ import annotations

import pytest

from ingest.config import parse_config, with_executor
from ingest.errors import ConfigError
from tests.local_job import ingest

SOURCE = {"source": {"local": {"path": "."}}}


def test_ray_config_defaults_and_address():
    config, _, _ = parse_config({**SOURCE, "executor": {"ray": {"address": "10.0.0.5:6379", "max_retries": 5}}})
    assert config.executor is not None and config.executor.ray is not None
    assert (config.executor.ray.address, config.executor.ray.max_retries, config.executor.ray.max_in_flight) == (
        "10.0.0.5:6379",
        5,
        0,
    )
    for address in ("auto", "ray://head.internal:10001"):
        parse_config({**SOURCE, "executor": {"ray": {"address": address}}})


def test_workers_and_ray_together_is_an_error_naming_both():
    with pytest.raises(ConfigError, match=r"`workers`.*`executor\.ray`"):
        parse_config({**SOURCE, "workers": 2, "executor": {"ray": {}}})


@pytest.mark.parametrize("address", ["http://head:8265", "head", ""])
def test_an_address_ray_cannot_take_names_the_key(address):
    with pytest.raises(ConfigError, match=r"executor\.ray.*address"):
        parse_config({**SOURCE, "executor": {"ray": {"address": address}}})


def test_the_command_line_chooses_the_executor():
    config, _, _ = parse_config(SOURCE)
    ray = with_executor(config, "ray", "127.0.0.2:6379")
    assert ray.executor is not None and ray.executor.ray is not None and ray.executor.ray.address == "127.0.0.2:6379"
    assert with_executor(ray, "local", None).executor is None
    with pytest.raises(ConfigError, match="--ray-address goes with --executor ray"):
        with_executor(config, None, "127.0.0.2:6379")
    workers, _, _ = parse_config({**SOURCE, "workers": 2})
    with pytest.raises(ConfigError, match="not both"):
        with_executor(workers, "ray", None)


def test_cli_refuses_workers_with_ray_before_running(tmp_path):
    cfg = tmp_path / "job.yaml"
    cfg.write_text(f"source: {{local: {{path: {tmp_path}}}}}\nworkers: 2\nstate: {tmp_path / 's.sqlite'}\n")
    done = ingest("run", cfg, "--executor", "ray", "--ray-address", "127.0.0.2:6379")
    assert done.returncode == 2, done.stderr
    assert "not both" in done.stderr and "workers" in done.stderr
    assert not (tmp_path / "s.sqlite").exists()
