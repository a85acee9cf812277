"""What every folder's tests need: the shared corpus (../shared, or INGEST_SHARED) and the rule that
a test needing it is marked `corpus`. Each folder's conftest.py holds its own servers and fixtures."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tests import paths

# CI must not flake on a new random example: there, property tests replay a fixed set. Locally
# they explore, and every failure they find is a bug to fix, not to retry.
settings.register_profile("ci", derandomize=True, max_examples=150)
if os.environ.get("CI"):
    settings.load_profile("ci")

# A test needs ../shared when it asks for one of these fixtures or its module imports one of
# these paths; the hook below marks it, so `-m "not corpus"` is a run without ../shared.
SHARED_FIXTURES = frozenset({"corpus", "seeds", "shared"})
SHARED_PATHS = (paths.SHARED, paths.CORPUS, paths.SEEDS)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "corpus: needs the shared corpus (../shared, or INGEST_SHARED); set by conftest")


def needs_shared(item: pytest.Item) -> bool:
    if SHARED_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    module = getattr(item, "module", None)
    return any(value is path for value in vars(module).values() for path in SHARED_PATHS) if module else False


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if needs_shared(item):
            item.add_marker(pytest.mark.corpus)


def pytest_collection_finish(session: pytest.Session) -> None:
    # Tests on real documents must not silently skip: a run that selects them without the corpus
    # is a broken setup. Only a run that leaves them out (`-m "not corpus"`) may go without it.
    if not paths.CORPUS.is_dir() and any(item.get_closest_marker("corpus") for item in session.items):
        raise pytest.UsageError(f"corpus not found at {paths.CORPUS}; set INGEST_SHARED to the shared/ folder")


@pytest.fixture(scope="session")
def shared():
    return paths.SHARED


@pytest.fixture(scope="session")
def corpus():
    return paths.CORPUS


@pytest.fixture(scope="session")
def seeds():
    return paths.SEEDS
