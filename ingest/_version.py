"""The one place the version is declared (pyproject.toml reads it; modules import it from here,
never from the package root, whose source is then no part of every module's code stamp)."""

__version__ = "0.1.0"
