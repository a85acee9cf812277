"""Embedders turn chunk texts into vectors, for vector and hybrid search.

The contract every sink and search path relies on (built-ins and plugins from the entry-point
group `ingest.embedders` alike): `embed` takes texts and returns one row per text, float32,
L2-normalised (so a dot product is the cosine), `dimensions` columns. `name` identifies the model
and its settings: a vector is only reused (cached by the chunk's content hash) or compared with
a query vector made under the same name.

A job names its embedder as `embedder: {name: minilm, ...its options}`. `load(config)` resolves
the name (a built-in, an `ingest.embedders` entry point, or `module:attr`) to an `EmbedderType`,
checks the options against its model and opens it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError

from .. import registry
from ..errors import ConfigError, EmbedderError
from ..options import StrictOptions

if TYPE_CHECKING:  # numpy is imported by the embedders that need it, not by every run
    import numpy as np


@runtime_checkable
class Embedder(Protocol):
    @property
    def name(self) -> str:
        """The model and every setting that changes its vectors, e.g. "wordllama:l2_supercat:256"."""
        ...

    @property
    def dimensions(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Shape (len(texts), dimensions), float32, each row of unit length."""
        ...


@dataclass(frozen=True, slots=True)
class EmbedderType:
    """What a config's `embedder: {name: ...}` resolves to: built-ins and plugins alike."""

    name: str
    open: Callable[[Any], Embedder]
    """Called with the validated options; returns an `Embedder` (loading its model)."""
    options: type[BaseModel]
    """The embedder's options model (a `StrictOptions`: unknown keys are errors)."""


class EmbedderConfig(StrictOptions):
    """`embedder:` in a job: the embedder's name, and its own options beside it."""

    # Every key but `name` is the named embedder's option, checked by its own model (`options_of`).
    model_config = ConfigDict(extra="allow", frozen=True)
    name: str = "minilm"
    """A built-in (minilm, wordllama, sentence_transformers, openai), an entry point, or module:attr."""

    def spec(self) -> dict[str, Any]:
        """The config as plain data: what an index records to open the same embedder for queries."""
        return {"name": self.name, **(self.model_extra or {})}


BUILTIN = (  # name, the module:attr of its EmbedderType
    ("minilm", "ingest.embedders.minilm:minilm"),
    ("wordllama", "ingest.embedders.wordllama:wordllama"),
    ("sentence_transformers", "ingest.embedders.sentence_transformer:sentence_transformers"),
    ("openai", "ingest.embedders.openai_http:openai"),
)


def builtin_types() -> list[EmbedderType]:
    return [registry.builtin(target) for _, target in BUILTIN]


def resolve(name: str, base: Path | None = None) -> tuple[EmbedderType, str]:
    """The `EmbedderType` a name stands for, and where it came from."""
    builtins = dict(BUILTIN)
    if name in builtins:
        found = registry.Found(registry.builtin(builtins[name]), registry.BUILT_IN)
    elif ":" in name:
        found = registry.import_attr(name, base)
    else:
        ep = registry.entry_point("embedder", name)
        if ep is None:
            known = ", ".join([*builtins, *sorted(e.name for e in registry.installed("embedder"))])
            raise ConfigError(
                f"unknown embedder {name!r} (there are: {known}; or name one as module:attr)", subject="embedder.name"
            )
        found = registry.load_entry_point("embedder", ep)
    if not isinstance(found.obj, EmbedderType):
        raise ConfigError(f"{name!r} is not an ingest.embedders.EmbedderType", subject="embedder.name")
    return found.obj, found.origin


def options_of(config: EmbedderConfig | Mapping[str, Any], base: Path | None = None) -> tuple[EmbedderType, BaseModel]:
    """The embedder type a config names and its options, checked: errors name `embedder.KEY`."""
    if not isinstance(config, EmbedderConfig):
        try:
            config = EmbedderConfig.model_validate(dict(config))
        except ValidationError as exc:
            raise ConfigError(exc.errors()[0]["msg"], subject="embedder.name") from None
    kind, _origin = resolve(config.name, base)
    raw = dict(config.model_extra or {})
    fields = kind.options.model_fields
    unknown = [k for k in raw if k not in fields]
    if unknown:
        known = ", ".join(fields) or "none"
        raise ConfigError(
            f"unknown option {unknown[0]!r} for embedder {config.name} (its options: {known})",
            subject=f"embedder.{unknown[0]}",
        )
    try:
        return kind, kind.options.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "name"
        raise ConfigError(f"{err['msg']} (embedder {config.name})", subject=f"embedder.{key}") from None


def load(config: EmbedderConfig | Mapping[str, Any], base: Path | None = None) -> Embedder:
    """Open the embedder a config names (`{name: minilm}` and its options), model loaded."""
    kind, options = options_of(config, base)
    embedder = kind.open(options)
    # Looked up with dir(), not isinstance(): that would read `dimensions`, which an API embedder
    # learns by asking its server.
    if not {"name", "dimensions", "embed"} <= set(dir(embedder)) or not callable(embedder.embed):
        raise EmbedderError(
            f"opened {type(embedder).__name__}, which lacks name, dimensions or embed()",
            subject=f"embedder {kind.name}",
        )
    return embedder


from .vectors import ChunkVectors, embed_chunks, text_hash  # noqa: E402  (vectors needs Embedder)

__all__ = [
    "ChunkVectors",
    "Embedder",
    "EmbedderConfig",
    "EmbedderType",
    "embed_chunks",
    "load",
    "options_of",
    "resolve",
    "text_hash",
]
