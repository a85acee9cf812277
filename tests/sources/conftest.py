"""Globs on Drive need the Drive tests' server."""

from tests.drive.server import fake_google  # noqa: F401  (a fixture, used by name)
