"""Shared fixtures. The real-document corpus lives beside the checkout in ../shared/corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("INGEST_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus"
SEEDS = SHARED / "seeds"


def pytest_sessionstart(session: pytest.Session) -> None:
    # Tests on real documents must not silently skip: a missing corpus is a broken setup.
    if not CORPUS.is_dir():
        raise pytest.UsageError(f"corpus not found at {CORPUS}; set INGEST_SHARED to the shared/ folder")


@pytest.fixture(scope="session")
def corpus() -> Path:
    return CORPUS


@pytest.fixture(scope="session")
def seeds() -> Path:
    return SEEDS
