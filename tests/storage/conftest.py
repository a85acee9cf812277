"""The pgvector sink's server: a real PostgreSQL 16 + pgvector on 127.0.0.1, one for the session."""

from __future__ import annotations

import hashlib

import pytest


@pytest.fixture(scope="session")
def postgres():
    """One real PostgreSQL 16 + pgvector server on 127.0.0.1 for the session (tests/storage/pg_server.py)."""
    from tests.storage.pg_server import pg_server

    yield from pg_server()


@pytest.fixture(scope="session")
def pg_database(postgres) -> str:
    """One database on the session's server that the tests share, each in its own schema."""
    return postgres.create_database("ingest_tests")


@pytest.fixture
def pg(pg_database, request):
    """A schema of its own for one test (the sink creates it), dropped after the test."""
    import psycopg

    from tests.storage.pg_server import PgPlace

    place = PgPlace(pg_database, "t_" + hashlib.sha1(request.node.nodeid.encode()).hexdigest()[:16])
    yield place
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{place.schema}" CASCADE')
