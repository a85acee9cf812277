"""The OpenAI-compatible embedder against a fake server on 127.0.0.1 (tests/retrieval/fake_openai.py):
batching, the key from the environment and never shown, retries with back-off, clear errors."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from ingest.embedders import load
from ingest.errors import EmbedderError
from tests.retrieval.fake_openai import KEY, fake_openai_server, vector_of


@pytest.fixture
def api(monkeypatch):
    monkeypatch.setenv("TEST_EMBED_KEY", KEY)
    yield from fake_openai_server(dimensions=8)


def _open(api, **options):
    return load(
        {
            "name": "openai",
            "base_url": api.base_url,
            "model": "fake-embed",
            "api_key_env": "TEST_EMBED_KEY",
            "backoff_s": 0,
            **options,
        }
    )


def _unit(text: str, dimensions: int = 8) -> np.ndarray:
    row = np.array(vector_of(text, dimensions), np.float32)
    return row / np.linalg.norm(row)


def test_texts_go_in_batches_and_come_back_in_order_as_unit_rows(api):
    embedder = _open(api, batch_size=64)
    texts = [f"text number {i}" for i in range(150)]
    rows = embedder.embed(texts)
    assert [len(r["input"]) for r in api.requests] == [64, 64, 22]
    assert all(r["model"] == "fake-embed" and r["auth"] == f"Bearer {KEY}" for r in api.requests)
    assert rows.shape == (150, 8) and rows.dtype == np.float32
    assert np.allclose(rows, np.stack([_unit(t) for t in texts]), atol=1e-6)  # the server answers in reverse
    assert embedder.dimensions == 8 and embedder.name == "openai:fake-embed"


def test_dimensions_asked_for_are_sent_and_name_the_vectors(api):
    embedder = _open(api, dimensions=4)
    assert embedder.embed(["a"]).shape == (1, 4) and api.requests[0]["dimensions"] == 4
    assert embedder.name == "openai:fake-embed:4"


def test_dimensions_not_given_are_learnt_from_one_answer(api):
    embedder = _open(api)
    assert embedder.dimensions == 8 and len(api.requests) == 1


def test_rate_limits_server_errors_and_dropped_connections_are_retried(api):
    api.faults = [("status", 429, 0), ("status", 500, None), ("drop",), ("status", 503, None)]
    rows = _open(api, retries=5).embed(["one", "two"])
    assert len(api.requests) == 5 and np.allclose(rows[1], _unit("two"), atol=1e-6)


def test_a_stalled_answer_times_out_and_is_asked_again(api):
    api.faults = [("stall", 2.0)]
    rows = _open(api, timeout_s=0.3, retries=1).embed(["late"])
    assert len(api.requests) == 2 and np.allclose(rows[0], _unit("late"), atol=1e-6)


def test_retries_run_out_with_an_error_saying_what_the_server_said(api):
    api.faults = [("status", 503, None)] * 3
    with pytest.raises(EmbedderError, match=r"answered 503 after 3 tries: injected 503"):
        _open(api, retries=2).embed(["x"])
    assert len(api.requests) == 3


def test_a_refusal_is_not_retried_and_the_key_is_never_shown(api, monkeypatch, caplog):
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("TEST_EMBED_KEY", "sk-wrong-key-999")
    embedder = _open(api, retries=5)
    with pytest.raises(EmbedderError) as caught:
        embedder.embed(["x"])
    message = str(caught.value)
    assert "answered 401: Incorrect API key provided" in message and "api_key_env" in message
    assert len(api.requests) == 1
    for shown in (message, repr(embedder), caplog.text):
        assert "sk-wrong-key-999" not in shown


def test_a_wrong_base_url_says_to_check_it(api):
    embedder = load({"name": "openai", "base_url": api.base_url.removesuffix("/v1"), "api_key_env": "TEST_EMBED_KEY"})
    with pytest.raises(EmbedderError, match=r"answered 404.*check base_url"):
        embedder.embed(["x"])


def test_an_unset_key_variable_is_named():
    with pytest.raises(EmbedderError, match="environment variable NO_SUCH_KEY_VARIABLE is not set"):
        load({"name": "openai", "api_key_env": "NO_SUCH_KEY_VARIABLE"})


def test_a_server_that_cannot_be_reached_is_said_so():
    embedder = load(
        {"name": "openai", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "", "retries": 1, "backoff_s": 0}
    )
    with pytest.raises(EmbedderError, match=r"could not be reached \(ConnectionError\), 2 tries"):
        embedder.embed(["x"])
