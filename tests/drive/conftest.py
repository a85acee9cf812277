"""The Drive tests' server: Google's Drive v3 + Docs v1 (+ Sheets export) faked on 127.0.0.1."""

from tests.drive.server import fake_google  # noqa: F401  (a fixture, used by name)
