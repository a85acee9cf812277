"""Files as ingest's chunks without an index: what `ingest chunk` prints for the same paths and
config (the same loaders, cleaners and chunker), one chunk at a time."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..blocks import Chunk
from ..chunker import ChunkOptions, chunks_with_card
from ..cleaners import Step, build_chain, clean
from ..config import load_config
from ..errors import ConfigError
from ..file_walk import files_of
from ..loaders import load_file
from ..terminal_text import printable

log = logging.getLogger(__name__)


def settings(config: str | Path | None, options: ChunkOptions | None) -> tuple[tuple[Step, ...], ChunkOptions]:
    """The cleaner chain and chunk options: a config file's (its `cleaners:` and `chunker:`), else
    the defaults; `options`, when given, in place of the chunk options."""
    if config is None:
        steps, base = build_chain(()), ChunkOptions()
    else:
        _cfg, steps, base = load_config(config)
    if options is not None and not isinstance(options, ChunkOptions):
        raise ConfigError(f"expected ChunkOptions, got {type(options).__name__}", subject="options")
    return steps, options or base


def as_paths(paths: str | Path | Iterable[str | Path]) -> tuple[Path, ...]:
    """One path or several, as Paths; none at all, or one that is not there, is a `ConfigError`."""
    found = (Path(paths),) if isinstance(paths, str | Path) else tuple(Path(p) for p in paths)
    if not found:
        raise ConfigError("no file or folder given", subject="paths")
    for path in found:
        if not path.exists():
            raise ConfigError("no such file or folder", subject=printable(str(path)))
    return found


def chunks_of(paths: Iterable[Path], steps: tuple[Step, ...], options: ChunkOptions) -> Iterator[Chunk]:
    """The chunks of every file `paths` stand for (a folder: each file under it a loader reads, in
    name order), file after file. A file of a folder that no loader reads, and a loader's warning
    (an empty file, a guessed encoding), are logged naming the file; a file that cannot be read
    raises its `IngestError`, which names it."""
    paths = tuple(paths)
    files = files_of(paths, lambda line: log.warning("%s", line))
    if not files:
        shown = ", ".join(printable(str(p)) for p in paths)
        raise ConfigError("no file a loader reads is there (see `ingest plugins`)", subject=shown)
    for path in files:
        loaded = load_file(path)
        for warning in loaded.warnings:
            log.warning("%s: %s", printable(str(path)), printable(warning))
        blocks, _report = clean(loaded.blocks, loaded.document, steps)
        yield from chunks_with_card(loaded, options, list(blocks))
