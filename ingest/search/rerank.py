"""A second stage for any search: a cross-encoder reads the query and each of the first stage's top
N chunks together and those N are reordered by its relevance score.

A bi-encoder (the embedder) and BM25 score the query and a chunk apart; a cross-encoder attends
across both, which is what finds the chunk that answers a question among several that share its
words, at the price of one network pass per (query, chunk) pair: so only the top N are reread.

The model is an ONNX export from a local folder (`model.onnx` or `onnx/model.onnx`, and its
`tokenizer.json`), run by ONNX Runtime without PyTorch, as the default embedder is: for instance
sentence-transformers' cross-encoder/ms-marco-MiniLM-L-6-v2. No PyPI wheel carries a known
cross-encoder whole (flashrank's downloads its models at run time), so none ships with ingest, and
nothing is ever downloaded. What sentence-transformers' CrossEncoder does around the network is done
here as it does it: the pair as one sequence (`[CLS] query [SEP] text [SEP]`, cut longest first to
`max_tokens`), and the single logit as the score (higher: more relevant).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from os import PathLike
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from ..embedders.onnx_models import cpu_session, length_batches, sha256_file
from ..errors import ConfigError
from ..options import StrictOptions
from .bm25 import Hit

TOP = 20
"""Chunks of the first stage the cross-encoder rereads by default: the budget a RAG prompt reads
(about 1,000 tokens, 4-8 chunks) is well inside it, and 20 pairs cost a MiniLM-L6 some tens of
milliseconds on a core (benchmarks/README.md, Reranker)."""
MAX_TOP = 200
MODEL_FILES = ("model.onnx", "onnx/model.onnx")
"""Where an ONNX export keeps the network: optimum's folder, or a Hugging Face repository's onnx/."""
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class RerankOptions(StrictOptions):
    model: Path
    """The folder holding the cross-encoder: model.onnx (or onnx/model.onnx) and tokenizer.json."""
    top: int = Field(TOP, ge=1, le=MAX_TOP)
    """First-stage hits reread and reordered; those past them keep their order below them."""
    max_tokens: int = Field(512, ge=16, le=512)
    """WordPiece tokens of one (query, chunk) pair, the longer of the two cut first (BERT's 512 at most)."""
    batch_size: int = Field(16, ge=1)
    """Pairs per call of the network; a batch is padded to its longest pair."""
    threads: int = Field(0, ge=0)
    """ONNX Runtime's intra-op threads; 0: its choice, one per core."""


@dataclass(frozen=True)
class CrossEncoder:
    name: str
    """"rerank:FOLDER-NAME:SHA256[:12]": which network scored (shown beside the scores)."""
    session: Any
    """onnxruntime's `InferenceSession`."""
    tokenizer: Any
    """tokenizers' `Tokenizer`, unpadded, truncating pairs at `max_tokens`."""
    inputs: tuple[str, ...]
    """Which of input_ids, attention_mask, token_type_ids the network takes (RoBERTa-like models have no token types)."""
    batch_size: int

    def scores(self, query: str, texts: Sequence[str]) -> Any:
        """One relevance logit per text for `query`, as float32."""
        import numpy as np

        out = np.zeros(len(texts), np.float32)
        if not texts:
            return out
        encodings = self.tokenizer.encode_batch([(query, t) for t in texts])
        for rows, width in length_batches(encodings, self.batch_size):
            feed = {name: np.zeros((len(rows), width), np.int64) for name in self.inputs}
            for j, i in enumerate(rows):
                e = encodings[i]
                n = len(e.ids)
                feed["input_ids"][j, :n] = e.ids
                if "attention_mask" in feed:
                    feed["attention_mask"][j, :n] = 1
                if "token_type_ids" in feed:
                    feed["token_type_ids"][j, :n] = e.type_ids
            logits = np.asarray(self.session.run(None, feed)[0], np.float32)
            out[rows] = logits.reshape(len(rows), -1)[:, 0]
        return out


def rerank_options(rerank: RerankOptions | Mapping[str, Any] | str | PathLike[str]) -> RerankOptions:
    """The reranker's options from a folder (the defaults for the rest) or a dict of the fields."""
    if isinstance(rerank, RerankOptions):
        return rerank
    if isinstance(rerank, str | PathLike):
        rerank = {"model": rerank}
    if not isinstance(rerank, Mapping):
        raise ConfigError(
            f"expected a model folder, a dict of RerankOptions' fields or RerankOptions, got {type(rerank).__name__}",
            subject="rerank",
        )
    try:
        return RerankOptions(**rerank)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(first["msg"], subject=f"rerank.{where}" if where else "rerank") from None


def open_cross_encoder(options: RerankOptions) -> CrossEncoder:
    """The cross-encoder in `options.model`, opened once per folder and settings in a process (a
    session costs some 0.1 s to open; a search API caller asks again and again)."""
    folder = options.model.expanduser().resolve()
    return _opened(folder, options.max_tokens, options.batch_size, options.threads)


@lru_cache(maxsize=4)
def _opened(folder: Path, max_tokens: int, batch_size: int, threads: int) -> CrossEncoder:
    subject = f"rerank.model {folder}"
    if not folder.is_dir():
        raise ConfigError("is not a folder; give the folder holding model.onnx and tokenizer.json", subject=subject)
    weights = next((folder / f for f in MODEL_FILES if (folder / f).is_file()), None)
    tokenizer_file = folder / "tokenizer.json"
    if weights is None or not tokenizer_file.is_file():
        missing = [
            name
            for name, there in (("model.onnx", weights is not None), ("tokenizer.json", tokenizer_file.is_file()))
            if not there
        ]
        raise ConfigError(
            f"holds no {' and no '.join(missing)}: a cross-encoder exported to ONNX is model.onnx (or "
            "onnx/model.onnx) beside its tokenizer.json, e.g. `optimum-cli export onnx --model "
            "cross-encoder/ms-marco-MiniLM-L-6-v2 FOLDER` where a network is at hand",
            subject=subject,
        )
    try:
        import onnxruntime  # noqa: F401  (cpu_session's; named here, where a missing one is explained)
        from tokenizers import Tokenizer
    except ImportError as exc:  # runtime dependencies of ingest (the default embedder's)
        raise ConfigError(
            f"cannot import what the reranker runs on ({exc}); reinstall ingest", subject=subject
        ) from exc
    try:
        tokenizer = Tokenizer.from_file(str(tokenizer_file))
    except Exception as exc:  # tokenizers raises a bare Exception on a malformed file
        raise ConfigError(
            f"is not a tokenizers tokenizer.json ({exc})", subject=f"rerank.model {tokenizer_file}"
        ) from exc
    tokenizer.no_padding()  # padded per batch, to the batch's longest pair
    tokenizer.enable_truncation(max_tokens, strategy="longest_first")  # as transformers' truncation=True
    try:
        session = cpu_session(weights, threads)
    except Exception as exc:  # onnxruntime's errors share no public base class
        raise ConfigError(f"ONNX Runtime cannot open it ({exc})", subject=f"rerank.model {weights}") from exc
    taken = tuple(i.name for i in session.get_inputs())
    if "input_ids" not in taken or set(taken) - set(_INPUTS):
        raise ConfigError(
            f"takes inputs {', '.join(taken)}; a cross-encoder takes input_ids, attention_mask and maybe token_type_ids",
            subject=f"rerank.model {weights}",
        )
    shape = session.get_outputs()[0].shape  # a dimension is an int, or a name / None when dynamic
    if len(shape) not in (1, 2) or (len(shape) == 2 and isinstance(shape[1], int) and shape[1] != 1):
        raise ConfigError(
            f"answers {session.get_outputs()[0].name} of shape {shape}; a cross-encoder answers one logit "
            "per pair (batch, 1): this looks like an embedder or a classifier with several labels",
            subject=f"rerank.model {weights}",
        )
    name = f"rerank:{folder.name}:{sha256_file(weights)[:12]}"
    return CrossEncoder(name, session, tokenizer, tuple(i for i in _INPUTS if i in taken), batch_size)


def reranked(query: str, hits: Sequence[Hit], encoder: CrossEncoder, top: int = TOP) -> list[Hit]:
    """`hits` (a first stage's, best first) with the first `top` reordered by the cross-encoder's
    score of (query, chunk's embed_text: what the index searched), each carrying that score and
    `ranked_by` the reranker; the rest follow in their order with their first-stage scores. Ties
    keep the first stage's order."""
    head, tail = list(hits[:top]), list(hits[top:])
    scores = encoder.scores(query, [h.chunk.embed_text for h in head])
    order = sorted(range(len(head)), key=lambda i: -float(scores[i]))  # stable: ties keep the first stage's order
    return [replace(head[i], score=float(scores[i]), ranked_by=encoder.name) for i in order] + tail
