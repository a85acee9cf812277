"""Shared fixtures. The real-document corpus lives beside the checkout in ../shared/corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI must not flake on a new random example: there, property tests replay a fixed set. Locally
# they explore, and every failure they find is a bug to fix, not to retry.
settings.register_profile("ci", derandomize=True, max_examples=150)
if os.environ.get("CI"):
    settings.load_profile("ci")

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


@pytest.fixture
def fake_google():
    """A fresh fake Google Drive v3 + Docs v1 server on 127.0.0.1 (tests/fake_google/), stopped after the test."""
    from fake_google import fake_google_server

    yield from fake_google_server()


@pytest.fixture(scope="session")
def postgres():
    """One real PostgreSQL 16 + pgvector server on 127.0.0.1 for the session (tests/pg_server.py)."""
    from pg_server import pg_server

    yield from pg_server()


@pytest.fixture(scope="session")
def pg_database(postgres) -> str:
    """One database on the session's server that the tests share, each in its own schema."""
    return postgres.create_database("ingest_tests")


@pytest.fixture
def pg(pg_database, request):
    """A schema of its own for one test (the sink creates it), dropped after the test."""
    import hashlib

    import psycopg
    from pg_server import PgPlace

    place = PgPlace(pg_database, "t_" + hashlib.sha1(request.node.nodeid.encode()).hexdigest()[:16])
    yield place
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{place.schema}" CASCADE')
