"""The files that paths stand for: a file is itself, a folder every file under it that a loader
reads (in name order; hidden ones left out, as a local source does). Shared by `ingest chunk`,
`stats` and `inspect` and the framework adapters' loaders.

A file named directly is always tried (an unsupported one is an error naming it when loaded); a
file found in a folder that no loader reads is named as skipped, never dropped in silence."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from .loaders import mime_type_of, supports
from .terminal_text import printable


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
