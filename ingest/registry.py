"""Where plugins come from: ingest's own tables, entry-point groups, or `module:attr` names.

Every stage extends the same way. Built-ins are listed in code, in one place per stage (the
cleaner chain in `cleaners/__init__.py`, loaders in `loaders/__init__.py`, sources and sinks in
their packages); a third-party package exposes its objects through one of the entry-point groups
below, and a config may name any object as `module:attr`. Entry points are only loaded when a
config or a command line names them, so installing a package never changes a job that did not
ask for it (and a broken plugin breaks only the jobs that use it).
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from .errors import IngestError

GROUPS = {
    "loader": "ingest.loaders",
    "cleaner": "ingest.cleaners",
    "sink": "ingest.sinks",
    "source": "ingest.sources",
    "embedder": "ingest.embedders",
}
BUILT_IN = "built in"


class PluginError(IngestError):
    """A plugin could not be found, imported, or is not the kind of object its stage takes."""


@dataclass(frozen=True, slots=True)
class Found:
    """An object a name resolved to, and where it came from."""

    obj: object
    origin: str
    """"built in", "<distribution> <version>" for an entry point, or "module:attr"."""


@cache
def installed(kind: str) -> tuple[EntryPoint, ...]:
    """The entry points of a stage's group, not loaded. Scanning costs ~10 ms: once per process."""
    eps = entry_points(group=GROUPS[kind])
    # An old editable install of ingest itself may still list the built-ins as entry points.
    return tuple(ep for ep in eps if not (ep.value.startswith("ingest.") or ep.value.startswith("ingest:")))


def entry_point(kind: str, name: str) -> EntryPoint | None:
    return next((ep for ep in installed(kind) if ep.name == name), None)


def origin_of(ep: EntryPoint) -> str:
    dist = ep.dist
    return f"{dist.name} {dist.version}" if dist is not None else f"entry point {ep.value}"


def load_entry_point(kind: str, ep: EntryPoint) -> Found:
    try:
        return Found(ep.load(), origin_of(ep))
    except Exception as exc:  # a plugin's import error is the plugin's, named as such
        raise PluginError(
            f"cannot load {kind} from entry point {ep.value} ({origin_of(ep)}): {exc!r}", subject=ep.name
        ) from exc


def import_attr(spec: str, base: Path | None = None) -> Found:
    """`module:attr`, importable from `base` (the config's folder) as well as from sys.path.

    The folder stays on sys.path: the plugin may import its own modules later, and forked
    workers must unpickle the cleaner by module name.
    """
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise PluginError("expected `module:attr`", subject=spec)
    if base is not None:
        folder = str(Path(base).resolve())
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        obj = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        where = f" (looked in {base} and on sys.path)" if base is not None else ""
        raise PluginError(f"cannot import: {exc}{where}", subject=spec) from exc
    return Found(obj, spec)


def builtin(path: str) -> Any:
    """`package.module:attr` of one of ingest's own objects: whatever the path names (a loader
    function, an options model, an embedder type), which only the caller's table knows."""
    module_name, _, attr = path.partition(":")
    return getattr(importlib.import_module(module_name), attr)
