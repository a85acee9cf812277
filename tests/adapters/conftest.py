"""The adapters' tests share one real index: `ingest run` over a copy of examples/ (Markdown, text,
PDF, Word, Excel, with known modification times), built once for the session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.examples_index import build


@pytest.fixture(scope="session")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("adapters"))


@pytest.fixture(scope="session")
def cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real ONNX cross-encoder whose rule is known (tests/retrieval/overlap_cross_encoder.py)."""
    from tests.retrieval import overlap_cross_encoder

    return overlap_cross_encoder.build(tmp_path_factory.mktemp("cross-encoder"))
