"""The fake Google server as a fixture, for the folders whose tests sync from Drive (their
conftest.py imports it by name): Drive v3 + Docs v1 (+ Sheets export) on 127.0.0.1."""

from __future__ import annotations

import pytest


@pytest.fixture
def fake_google():
    """A fresh fake Google Drive v3 + Docs v1 server on 127.0.0.1 (tests/drive/fake_google/), stopped after the test."""
    from tests.drive.fake_google import fake_google_server

    yield from fake_google_server()
