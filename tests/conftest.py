"""What every folder's tests need: the shared corpus (../shared, or INGEST_SHARED), the rule that a
test needing it is marked `corpus` (left out, with a note, when it is missing; CI fails instead), and
the `torch` tests, left out unless `-m` names them. Each folder's conftest.py holds its own servers and fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests import paths

# CI must not flake on a new random example: there, property tests replay a fixed set. Locally
# they explore, and every failure they find is a bug to fix, not to retry.
settings.register_profile("ci", derandomize=True, max_examples=150)
if os.environ.get("CI"):
    settings.load_profile("ci")

# A test needs ../shared when it asks for one of these fixtures or its module holds a path inside
# it (paths.CORPUS, paths.RAGBENCH, PDFEVAL / "tools", ...); the hook below marks it, so
# `-m "not corpus"` is a run without ../shared.
SHARED_FIXTURES = frozenset({"corpus", "seeds", "shared"})
# Run by their own CI step (`pytest -m torch`, after `pip install -e '.[test-torch]'`): left out of a
# run whose -m does not name them, as torch is not in the `test` extra.
TORCH = "torch"
NOTES = pytest.StashKey[list[str]]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "corpus: needs the shared corpus (../shared, or INGEST_SHARED); set by conftest")
    config.addinivalue_line(
        "markers", "ray: starts a real two-node Ray cluster (tests/ray); selected by default, as CI runs them"
    )
    config.addinivalue_line(
        "markers", "torch: needs the test-torch extra (torch, sentence-transformers); run with `pytest -m torch`"
    )
    config.stash[NOTES] = []


def is_shared_path(value: object) -> bool:
    return isinstance(value, Path) and value.is_relative_to(paths.SHARED)


def needs_shared(item: pytest.Item) -> bool:
    if SHARED_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    module = getattr(item, "module", None)
    return any(is_shared_path(value) for value in vars(module).values()) if module else False


def deselect(config: pytest.Config, items: list[pytest.Item], gone: list[pytest.Item], note: str) -> None:
    config.hook.pytest_deselected(items=gone)
    left_out = set(gone)
    items[:] = [item for item in items if item not in left_out]
    config.stash[NOTES].append(f"{len(gone)} {note}")


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    # Marked before `-m` and `-k` choose, left out after: the notes count only what would have run.
    for item in items:
        if needs_shared(item):
            item.add_marker(pytest.mark.corpus)
    yield
    if TORCH not in (config.getoption("markexpr") or ""):
        gone = [item for item in items if item.get_closest_marker(TORCH)]
        if gone:
            deselect(
                config, items, gone, "torch tests deselected: run them with `pytest -m torch` (the test-torch extra)"
            )
    if not paths.CORPUS.is_dir() and not paths.REQUIRE_CORPUS:
        gone = [item for item in items if item.get_closest_marker("corpus")]
        if gone:
            deselect(
                config,
                items,
                gone,
                f"corpus tests deselected: no corpus at {paths.CORPUS}; to run them, set INGEST_SHARED to the "
                "shared/ folder or put shared/ beside the checkout",
            )


def pytest_collection_finish(session: pytest.Session) -> None:
    # CI (INGEST_REQUIRE_CORPUS=1) runs every test on real documents: there, a run that selects them
    # without the corpus is a broken setup, not a reason to leave them out.
    if not paths.CORPUS.is_dir() and any(item.get_closest_marker("corpus") for item in session.items):
        raise pytest.UsageError(
            f"corpus not found at {paths.CORPUS} (INGEST_REQUIRE_CORPUS is set); set INGEST_SHARED to the shared/ folder"
        )


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    for note in config.stash.get(NOTES, []):
        terminalreporter.write_line(note)


@pytest.fixture(scope="session")
def shared():
    return paths.SHARED


@pytest.fixture(scope="session")
def corpus():
    return paths.CORPUS


@pytest.fixture(scope="session")
def seeds():
    return paths.SEEDS
