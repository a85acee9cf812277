"""The PATH arguments of `chunk`, `stats` and `inspect`: files, or folders standing for every file
under them that a loader reads (ingest/file_walk.py); none at all is a usage error."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import click

from ..file_walk import files_of


def expanded(paths: Iterable[Path]) -> list[Path]:
    """The files for a command: skipped ones noted on stderr; none at all is a usage error."""
    files = files_of(paths, lambda line: click.echo(f"note: {line}", err=True))
    if not files:
        raise click.BadParameter("no file a loader reads is there (see `ingest plugins`)", param_hint="PATHS")
    return files
