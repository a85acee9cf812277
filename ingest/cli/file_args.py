"""The PATH arguments of `chunk`, `stats` and `inspect`: files, or folders standing for every file
under them that a loader reads (in name order; hidden ones left out, as a local source does).

A file named on the command line is always tried (an unsupported one is an error naming it); a
file found in a folder that no loader reads is named as skipped, never dropped in silence."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

import click

from ..loaders import mime_type_of, supports
from ..terminal_text import printable


def files_of(paths: Iterable[Path], say: Callable[[str], object]) -> list[Path]:
    """The files `paths` stand for; `say(line)` is told each file of a folder that is skipped."""
    files: list[Path] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if name.startswith("."):
                    continue
                found = Path(dirpath, name)
                mime_type = mime_type_of(found)
                if supports(mime_type):
                    files.append(found)
                else:
                    say(
                        f"skipped {printable(str(found))}: no loader for {found.suffix.lower() or mime_type} ({mime_type})"
                    )
    return files


def expanded(paths: Iterable[Path]) -> list[Path]:
    """The files for a command: skipped ones noted on stderr; none at all is a usage error."""
    files = files_of(paths, lambda line: click.echo(f"note: {line}", err=True))
    if not files:
        raise click.BadParameter("no file a loader reads is there (see `ingest plugins`)", param_hint="PATHS")
    return files


def written_file(*names: str, help: str) -> Callable[[Callable], Callable]:
    """An option naming a file the command writes (never a folder); None when not given."""
    return click.option(*names, type=click.Path(dir_okay=False, path_type=Path), default=None, help=help)
