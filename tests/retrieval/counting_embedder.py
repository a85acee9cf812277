"""A plugin embedder for the tests (`embedder: {name: "tests.retrieval.counting_embedder:counting"}`): the real
offline default underneath, with every text it was asked to embed recorded in `CALLS`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ingest.embedders import EmbedderConfig, EmbedderType, load
from ingest.embedders.wordllama import WordLlamaOptions
from ingest.options import StrictOptions

CALLS: list[list[str]] = []


@dataclass
class Counting:
    inner: Any

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimensions(self) -> int:
        return self.inner.dimensions

    def embed(self, texts: Sequence[str]) -> Any:
        CALLS.append(list(texts))
        return self.inner.embed(texts)


def _open(options: WordLlamaOptions) -> Counting:
    return Counting(load({"name": "wordllama", **options.model_dump()}))


counting = EmbedderType("counting", _open, WordLlamaOptions)


def _open_default(options: EmptyOptions) -> Counting:
    return Counting(load(EmbedderConfig()))


class EmptyOptions(StrictOptions):
    pass


counting_default = EmbedderType("counting_default", _open_default, EmptyOptions)
"""The same over the default embedder (`EmbedderConfig()`: what a job gets without naming one)."""
