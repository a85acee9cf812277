"""Cleaners strip what is about a document rather than in it, before the chunker sees it.

A cleaner is a `Cleaner`: a name, a function over the block stream, and optionally a pydantic
model for its options (checked once, when the config is loaded). Built-ins and third-party
plugins register the same way: an object exposed through the `ingest.cleaners` entry-point group,
or named as `module:attr` in the config.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Callable, Collection, Iterable, Iterator, Mapping, Sequence

from pydantic import BaseModel, ValidationError

from ..blocks import Block, Document, Loaded
from ..errors import CleanerError

ENTRY_POINT_GROUP = "ingest.cleaners"


@dataclass(frozen=True, slots=True)
class CleanContext:
    """What a cleaner sees besides the blocks: the document, its options, and a tally to report to."""

    document: Document
    options: BaseModel | None
    removed: dict[str, int] = field(default_factory=dict)
    """Counts the cleaner reports (e.g. "lines", "chars"); summed per document in the run report."""

    def count(self, what: str, n: int = 1) -> None:
        self.removed[what] = self.removed.get(what, 0) + n


CleanFn = Callable[[Iterable[Block], CleanContext], Iterator[Block]]


def drop_lines(blocks: Sequence[Block], drop: Collection[int], ctx: CleanContext) -> Iterator[Block]:
    """The blocks whose index is not in `drop`, each dropped one reported as a line and its chars."""
    for i, block in enumerate(blocks):
        if i in drop:
            ctx.count("lines")
            ctx.count("chars", len(block.text))
        else:
            yield block


@dataclass(frozen=True, slots=True)
class Cleaner:
    name: str
    run: CleanFn
    options: type[BaseModel] | None = None
    """Options model; None if the cleaner takes none."""
    default_for: frozenset[str] | None = None
    """MIME types it runs on unless switched off; None: only when the config names it; empty: all."""
    order: int = 50
    """Place among the default cleaners, lowest first: inline marks (10-20) resolve before page
    furniture (30) and table shape (50) change what they point at; dropping furniture is last (90)."""

    def applies_to(self, mime_type: str) -> bool:
        return self.default_for is not None and (not self.default_for or mime_type in self.default_for)


@dataclass(frozen=True, slots=True)
class Step:
    """One configured link of the chain: a cleaner with validated options."""

    cleaner: Cleaner
    options: BaseModel | None
    explicit: bool
    """Named in the config and declaring no formats: runs on every document."""


def code_version(cleaner: Cleaner) -> str:
    """A digest of the module holding a plugin cleaner's code, so that editing the plugin makes its
    documents look changed; "" for ingest's own cleaners, which ingest's version covers."""
    module = sys.modules.get(getattr(cleaner.run, "__module__", "") or "")
    path = getattr(module, "__file__", None)
    if module is None or not path or module.__name__ == "ingest" or module.__name__.startswith("ingest."):
        return ""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        return ""


def available() -> dict[str, Cleaner]:
    """Every cleaner installed through the entry-point group, by name."""
    return dict(_installed())


@lru_cache(maxsize=1)
def _installed() -> tuple[tuple[str, Cleaner], ...]:
    # Scanning the installed distributions costs ~10 ms: once per process, not once per document.
    return tuple((ep.name, _as_cleaner(ep.load(), ep.value)) for ep in entry_points(group=ENTRY_POINT_GROUP))


def resolve(name: str) -> Cleaner:
    """A cleaner by entry-point name or by `module:attr`."""
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            obj = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise CleanerError(f"cannot import cleaner: {exc}", subject=name) from exc
        return _as_cleaner(obj, name)
    cleaners = available()
    if name not in cleaners:
        known = ", ".join(sorted(cleaners)) or "none"
        raise CleanerError(f"unknown cleaner (installed: {known})", subject=name)
    return cleaners[name]


def build_chain(configured: Iterable[tuple[str, Mapping | bool | None]]) -> tuple[Step, ...]:
    """Default cleaners in their `order`, then the other configured ones in config order.

    Each configured item is (name, options): a mapping configures it, `False` switches it off,
    `None` or `True` runs it with default options. Configuring a default cleaner neither moves it
    (the order keeps marks resolved before tables are reshaped) nor widens it to other formats;
    a named cleaner that declares no formats runs on every document.
    """
    cleaners = available()
    settings: dict[str, Mapping | bool | None] = {}
    order: list[str] = []
    for name, value in configured:
        if name in settings:
            raise CleanerError("named twice in the cleaner list", subject=name)
        settings[name] = value
        order.append(name)
    defaults = [c for c in cleaners.values() if c.default_for is not None]
    names = [c.name for c in sorted(defaults, key=lambda c: (c.order, c.name))]
    steps = []
    for name in names + [n for n in order if n not in names]:
        value = settings.get(name)
        if value is False:
            continue
        cleaner = cleaners.get(name) or resolve(name)
        # Options tune a default cleaner without widening it: it still runs on its own formats.
        explicit = name in settings and cleaner.default_for is None
        steps.append(Step(cleaner, _options(cleaner, value), explicit=explicit))
    return tuple(steps)


def clean(blocks: Iterable[Block], document: Document, chain: Iterable[Step]) -> tuple[Iterator[Block], dict[str, dict[str, int]]]:
    """Run the chain lazily; the returned report fills in as the blocks are consumed."""
    report: dict[str, dict[str, int]] = {}
    stream: Iterable[Block] = blocks
    for step in chain:
        if not (step.explicit or step.cleaner.applies_to(document.mime_type)):
            continue
        ctx = CleanContext(document, step.options, report.setdefault(step.cleaner.name, {}))
        stream = step.cleaner.run(stream, ctx)
    return iter(stream), report


def clean_blocks(loaded: Loaded, steps: tuple[Step, ...] | None = None) -> list[Block]:
    """The loaded document's blocks through the cleaner chain (the defaults when `steps` is None)."""
    blocks, _report = clean(loaded.blocks, loaded.document, build_chain([]) if steps is None else steps)
    return list(blocks)


def _options(cleaner: Cleaner, value: Mapping | bool | None) -> BaseModel | None:
    if cleaner.options is None:
        if isinstance(value, Mapping) and value:
            raise CleanerError(f"takes no options, got {sorted(value)}", subject=cleaner.name)
        return None
    try:
        return cleaner.options.model_validate(value if isinstance(value, Mapping) else {})
    except ValidationError as exc:
        raise CleanerError(f"bad options: {_first_error(exc)}", subject=cleaner.name) from exc


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"


def _as_cleaner(obj: object, origin: str) -> Cleaner:
    if isinstance(obj, Cleaner):
        return obj
    if callable(obj):  # a bare function is a cleaner without options
        return Cleaner(name=origin, run=obj)
    raise CleanerError("is neither a Cleaner nor a function", subject=origin)
