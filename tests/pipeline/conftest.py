"""A local folder of three documents for the pipeline's runs."""

from __future__ import annotations

import pytest

from tests.local_job import write_docs


@pytest.fixture
def docs(tmp_path, seeds):
    return write_docs(tmp_path, seeds)
