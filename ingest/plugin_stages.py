"""Sources and sinks as plugins: a name, what opens one, and its options model beside its code.

The built-ins are listed in `BUILTIN_SOURCES` and `BUILTIN_SINKS`; a third-party source or sink
is a `SourceType` / `SinkType` exposed through the `ingest.sources` / `ingest.sinks` entry-point
group, or named as `module:attr`, and configured as `source: {name: {options}}` or
`sink: {name: {options}}` (checked against its options model when the config loads).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from . import registry
from .errors import ConfigError


@dataclass(frozen=True, slots=True)
class SourceType:
    name: str
    open: Callable[[Any], Any]
    """Called with the validated options; returns a `ingest.sources.Source`."""
    options: type[BaseModel]


@dataclass(frozen=True, slots=True)
class SinkType:
    name: str
    open: Callable[[Any], Any]
    """Called with the validated options; returns a `ingest.sinks.Sink` (a context manager)."""
    options: type[BaseModel] | None = None
    """None: the option is one path (the built-in sinks: a file, a folder)."""


BUILTIN_SOURCES = (  # name, opener, options model
    ("local", "ingest.sources.local:LocalSource", "ingest.sources.local_options:LocalSourceConfig"),
    ("drive", "ingest.sources.drive:DriveSource", "ingest.sources.drive_options:DriveSourceConfig"),
)
BUILTIN_SINKS = (  # name, opener (called with a path)
    ("sqlite", "ingest.sinks.sqlite:SqliteSink"),
    ("jsonl", "ingest.sinks.jsonl:JsonlSink"),
)
BUILTIN_OPTION_SINKS = (  # name, opener, options model: configured as `sink: {name: {options}}`
    ("pgvector", "ingest.sinks.pgvector:open_sink", "ingest.sinks.pgvector_options:PgvectorOptions"),
)


def builtin_sources() -> list[SourceType]:
    return [SourceType(n, _lazy(opener), registry.builtin(model)) for n, opener, model in BUILTIN_SOURCES]


def builtin_sinks() -> list[SinkType]:
    return [SinkType(n, _lazy(opener)) for n, opener in BUILTIN_SINKS] + [
        SinkType(n, _lazy(opener), registry.builtin(model)) for n, opener, model in BUILTIN_OPTION_SINKS
    ]


def resolve(kind: str, name: str, base: Path | None = None) -> tuple[SourceType | SinkType, str]:
    """A plugin source or sink by entry-point name or `module:attr` (importable from `base` too)."""
    wanted = SourceType if kind == "source" else SinkType
    if kind == "sink" and name in {n for n, *_ in BUILTIN_OPTION_SINKS}:
        return next(s for s in builtin_sinks() if s.name == name), registry.BUILT_IN
    if ":" in name:
        found = registry.import_attr(name, base)
    else:
        ep = registry.entry_point(kind, name)
        if ep is None:
            builtins = [n for n, *_ in (BUILTIN_SOURCES if kind == "source" else BUILTIN_SINKS + BUILTIN_OPTION_SINKS)]
            known = ", ".join(builtins + sorted(e.name for e in registry.installed(kind)))
            raise ConfigError(
                f"unknown {kind} (there are: {known}; or name one as module:attr)", subject=f"{kind}.{name}"
            )
        found = registry.load_entry_point(kind, ep)
    if not isinstance(found.obj, wanted):
        raise ConfigError(f"is not an ingest {wanted.__name__}", subject=f"{kind}.{name}")
    return found.obj, found.origin


def plugin_options(
    kind: str, extra: Mapping[str, Any] | None, base: Path | None = None
) -> tuple[SourceType | SinkType, Any] | None:
    """The plugin a config's `source:` or `sink:` names and its validated options; None for a built-in."""
    if not extra:
        return None
    name, raw = next(iter(extra.items()))
    plugin, _origin = resolve(kind, name, base)
    if plugin.options is None:
        return plugin, Path(raw)
    if not isinstance(raw, Mapping):
        raise ConfigError(f"expected a mapping of {name}'s options", subject=f"{kind}.{name}")
    fields = plugin.options.model_fields
    unknown = [k for k in raw if k not in fields]
    if unknown:
        raise ConfigError(f"unknown option {unknown[0]!r} (its options: {', '.join(fields)})", subject=f"{kind}.{name}")
    try:
        return plugin, plugin.options.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        raise ConfigError(f"{key}: {err['msg']}", subject=f"{kind}.{name}") from None


def with_job_embedder(options: Any, embedder: Any) -> Any:
    """A sink's options with the job's `embedder:` where the sink takes one and names none itself,
    so one `embedder:` serves the sink's vectors and the queries made against them."""
    takes = isinstance(options, BaseModel) and "embedder" in type(options).model_fields
    if takes and embedder is not None and options.embedder is None:
        return options.model_copy(update={"embedder": embedder})
    return options


def _lazy(target: str) -> Callable[[Any], Any]:
    def open_(options: Any) -> Any:
        return registry.builtin(target)(options)

    return open_
