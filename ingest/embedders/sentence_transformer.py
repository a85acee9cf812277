"""A sentence-transformers model from a local folder (the `sentence-transformers` extra).

Never from the hub: the Hugging Face libraries are told to stay offline before they are imported,
and the model is opened with `local_files_only`, so a folder that is not a model fails here
instead of starting a download.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, field_validator

from ..errors import EmbedderError
from ..options import StrictOptions
from . import EmbedderType
from .vectors import unit_rows


class SentenceTransformerOptions(StrictOptions):
    path: Path
    """The model's folder (a `SentenceTransformer.save()`, or a hub snapshot copied there)."""
    batch_size: int = Field(32, ge=1)
    device: str = "cpu"
    max_seq_length: int | None = Field(None, ge=1)
    """Tokens read per text (the model's own limit when not set); longer texts are cut."""

    @field_validator("path")
    @classmethod
    def _is_model_folder(cls, path: Path) -> Path:
        if not path.is_dir():
            raise ValueError(f"{path} is not a folder; give the folder a sentence-transformers model was saved to")
        if not ((path / "modules.json").is_file() or (path / "config.json").is_file()):
            raise ValueError(f"{path} holds no model (no modules.json or config.json)")
        return path.resolve()  # the index records it, for searches run from another folder


@dataclass(frozen=True)
class SentenceTransformerEmbedder:
    name: str
    dimensions: int
    model: Any
    batch_size: int

    def embed(self, texts: Sequence[str]) -> Any:
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=False,
            show_progress_bar=False,
        )
        return unit_rows(vectors)


def open_sentence_transformer(options: SentenceTransformerOptions) -> SentenceTransformerEmbedder:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # a run's log is ours
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise EmbedderError(
            f"cannot import sentence_transformers ({exc}); install it with pip install 'ingest[sentence-transformers]'",
            subject="embedder sentence_transformers",
        ) from exc
    try:
        model = SentenceTransformer(str(options.path), device=options.device, local_files_only=True)
    except Exception as exc:  # the library's own errors: a broken folder, a device that is not there
        raise EmbedderError(f"cannot open the model in {options.path}: {exc}", subject="embedder.path") from exc
    if options.max_seq_length is not None:
        model.max_seq_length = options.max_seq_length
    get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    found = get_dim()
    if found is None:
        raise EmbedderError(f"the model in {options.path} does not say its dimensions", subject="embedder.path")
    dimensions = int(found)
    name = f"sentence-transformers:{options.path.name}:{_model_digest(options.path)}:{dimensions}"
    return SentenceTransformerEmbedder(name, dimensions, model, options.batch_size)


def _model_digest(folder: Path) -> str:
    """Tells two models saved to one folder apart (their configs, their weights' sizes), without
    reading the weights: their vectors must not be taken for each other's."""
    digest = hashlib.blake2b(digest_size=4)
    for path in sorted(folder.rglob("*")):
        if path.suffix in {".json", ".txt"} and path.stat().st_size < 4 << 20:
            digest.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
        elif path.suffix in {".safetensors", ".bin", ".onnx"}:
            digest.update(f"{path.relative_to(folder).as_posix()}:{path.stat().st_size}".encode())
    return digest.hexdigest()


sentence_transformers = EmbedderType(
    name="sentence_transformers", open=open_sentence_transformer, options=SentenceTransformerOptions
)
