"""What `ingest plugins` shows: every loader, cleaner, sink, source and embedder, and where it comes from."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pydantic import BaseModel

from . import registry
from .cleaners import DEFAULT_CHAIN, Cleaner, _as_cleaner, builtin
from .embedders import EmbedderType, builtin_types
from .errors import IngestError
from .loaders import FormatLoader
from .loaders import available as loaders
from .plugin_stages import SinkType, SourceType, builtin_sinks, builtin_sources


@dataclass(frozen=True, slots=True)
class Listed:
    kind: str
    """loader, cleaner, sink, source or embedder."""
    name: str
    origin: str
    """"built in", or the distribution and version that provides it."""
    details: dict[str, str] = field(default_factory=dict)
    error: str = ""
    """Why an installed plugin could not be loaded (it is listed, not used)."""


def listing() -> Iterator[Listed]:
    for loader, origin in loaders():
        yield _loader(loader, origin)
    for name in DEFAULT_CHAIN:
        cleaner = builtin(name)
        yield _cleaner(cleaner, registry.BUILT_IN, "on" if cleaner.default_for is not None else "when named")
    for kind in ("loader", "cleaner", "sink", "source", "embedder"):
        for ep in registry.installed(kind):
            if kind == "loader":
                continue  # listed above with the built-ins
            try:
                found = registry.load_entry_point(kind, ep)
                if kind == "cleaner":
                    if ep.name in DEFAULT_CHAIN:
                        yield Listed(kind, ep.name, found.origin, error="ignored: a built-in has this name")
                        continue
                    yield _cleaner(_as_cleaner(found.obj, ep.name), found.origin, "when named")
                else:
                    yield _stage(kind, found.obj, found.origin, name=ep.name)
            except IngestError as exc:
                yield Listed(kind, ep.name, registry.origin_of(ep), error=str(exc))
    for sink in builtin_sinks():
        yield _stage("sink", sink, registry.BUILT_IN)
    for source in builtin_sources():
        yield _stage("source", source, registry.BUILT_IN)
    for embedder in builtin_types():
        yield _stage("embedder", embedder, registry.BUILT_IN)


def _loader(loader: FormatLoader, origin: str) -> Listed:
    return Listed(
        "loader",
        loader.name,
        origin,
        {
            "mime types": ", ".join(loader.mime_types),
            "extensions": ", ".join(loader.extensions) or "-",
            "used": "by type" if origin == registry.BUILT_IN else "when named in loaders:",
        },
    )


def _cleaner(cleaner: Cleaner, origin: str, default: str) -> Listed:
    if cleaner.default_for is None:
        formats = "every document it is named for"
    else:
        formats = ", ".join(sorted(cleaner.default_for)) or "all"
    return Listed(
        "cleaner",
        cleaner.name,
        origin,
        {
            "formats": formats,
            "default": default,
            "options": _options(cleaner.options),
        },
    )


def _stage(kind: str, obj: object, origin: str, name: str = "") -> Listed:
    if not isinstance(obj, (SinkType, SourceType, EmbedderType)):
        return Listed(kind, name, origin, error=f"not an ingest {kind} type")
    return Listed(kind, obj.name, origin, {"options": _options(obj.options) if obj.options else "a path"})


def _options(model: type[BaseModel] | None) -> str:
    if model is None:
        return "-"
    parts = []
    for name, info in model.model_fields.items():
        default = "required" if info.is_required() else repr(info.get_default(call_default_factory=True))
        parts.append(f"{name}={default}")
    return ", ".join(parts)
