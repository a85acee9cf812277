"""Options of the local folder source (`source: {local: {...}}`), beside its code in `local.py`."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from ..options import StrictOptions
from .globs import GlobList


class LocalSourceConfig(StrictOptions):
    path: Path
    include: GlobList = Field(default_factory=lambda: ["**/*"])
    """Globs over paths relative to `path`, as in .gitignore (see `sources/globs.py`): `*` within
    a folder, `**` across folders, a pattern without a slash (`*.md`) at any depth, `!` negates."""
    exclude: GlobList = Field(default_factory=list)
    include_hidden: bool = False
    """Dot-files and dot-folders (.git, .DS_Store) are skipped unless this is on."""
    follow_symlinks: bool = False
    """Off: a link to a file or folder outside `path` is skipped and said (anyone who can write in
    the folder could otherwise pull any file the sync user can read into the index); links inside
    `path` to files are read. On: links are followed wherever they point (loops are skipped)."""
    max_file_mb: float = Field(200, gt=0)
    """Larger files are reported and not read."""
