"""The PATH arguments of `chunk`, `stats` and `inspect`: files, or folders standing for every file
under them that a loader reads (ingest/file_walk.py); none at all is a usage error. And the
options naming a file a command writes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import click

from ..file_walk import files_of


def expanded(paths: Iterable[Path]) -> list[Path]:
    """The files for a command: skipped ones noted on stderr; none at all is a usage error."""
    files = files_of(paths, lambda line: click.echo(f"note: {line}", err=True))
    if not files:
        raise click.BadParameter("no file a loader reads is there (see `ingest plugins`)", param_hint="PATHS")
    return files


def written_file(*names: str, help: str) -> Callable[[Callable], Callable]:
    """An option naming a file the command writes (never a folder); None when not given."""
    return click.option(*names, type=click.Path(dir_okay=False, path_type=Path), default=None, help=help)
