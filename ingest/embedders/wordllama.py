"""The offline default: WordLlama's l2_supercat model, whose 256-d weights and tokenizer ship inside
the `wordllama` wheel, so nothing is downloaded, ever.

Opened from the wheel's files directly: `WordLlama.load` looks for the tokenizer in a `tokenizer/`
folder while the wheel has it in `tokenizers/`, and would then fetch it from Hugging Face.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from ..errors import EmbedderError
from ..options import StrictOptions
from . import EmbedderType
from .vectors import unit_rows

_MODEL = "l2_supercat"
_SHIPPED_DIM = 256


class WordLlamaOptions(StrictOptions):
    dimensions: Literal[64, 128, 256] = 256
    """The model is trained to be cut short (Matryoshka): 64 or 128 columns cost less to store and
    search, for some accuracy."""
    batch_size: int = Field(256, ge=1)


@dataclass(frozen=True)
class WordLlamaEmbedder:
    name: str
    dimensions: int
    model: Any
    """wordllama's `WordLlamaInference`."""
    batch_size: int

    def embed(self, texts: Sequence[str]) -> Any:
        vectors = self.model.embed(list(texts), norm=False, batch_size=self.batch_size)
        return unit_rows(vectors[:, : self.dimensions])


def open_wordllama(options: WordLlamaOptions) -> WordLlamaEmbedder:
    try:
        from importlib.resources import files

        from safetensors import safe_open
        from wordllama import WordLlama
        from wordllama.inference import WordLlamaInference
    except ImportError as exc:
        raise EmbedderError(
            f"cannot import wordllama ({exc}); reinstall ingest, which depends on it", subject="embedder wordllama"
        ) from exc
    root = files("wordllama")
    weights = root / "weights" / f"{_MODEL}_{_SHIPPED_DIM}.safetensors"
    tokenizer = root / "tokenizers" / f"{_MODEL}_tokenizer_config.json"
    if not (weights.is_file() and tokenizer.is_file()):
        raise EmbedderError(
            f"this wordllama install lacks its bundled model ({weights}, {tokenizer}); reinstall wordllama from PyPI",
            subject="embedder wordllama",
        )
    with safe_open(str(weights), framework="np", device="cpu") as f:
        table = f.get_tensor("embedding.weight")
    model = WordLlamaInference(table, WordLlama.load_tokenizer(tokenizer))
    return WordLlamaEmbedder(f"wordllama:{_MODEL}:{options.dimensions}", options.dimensions, model, options.batch_size)


wordllama = EmbedderType(name="wordllama", open=open_wordllama, options=WordLlamaOptions)
