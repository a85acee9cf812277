"""Cleaners strip what is about a document rather than in it, before the chunker sees it.

A cleaner is a `Cleaner`: a name, a function over the block stream, and optionally a pydantic
model for its options (checked once, when the config is loaded). Built-ins are listed in
`DEFAULT_CHAIN`, in the order they run; third-party cleaners come from the `ingest.cleaners`
entry-point group or a `module:attr` name, and run only where a config or command line names them.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from .. import registry
from ..blocks import Block, Document, Loaded
from ..errors import CleanerError

ENTRY_POINT_GROUP = registry.GROUPS["cleaner"]

DEFAULT_CHAIN: tuple[str, ...] = (
    "comments",  # inline marks resolve first: later steps rewrite the text they point into
    "track_changes",
    "figures",  # off unless named: figure text is a chunk of its own kind (chunker/figures.py)
    "line_numbers",
    "page_numbers",
    "running_headers",
    "empty_cells",  # table shape, once marks are resolved
    "merged_cells",
    "mail_quotes",  # e-mail: quoted replies and signatures, as the mail loader marked them
    "furniture",  # last: drops what the loader, or a cleaner above, put in the furniture layer
)
"""The built-in cleaners, in the order they run; each is `ingest/cleaners/<name>.py`'s `cleaner`."""


_Options = TypeVar("_Options", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class CleanContext:
    """What a cleaner sees besides the blocks: the document, its options, and a tally to report to."""

    document: Document
    options: BaseModel | None
    removed: dict[str, int] = field(default_factory=dict)
    """Counts the cleaner reports (e.g. "lines"); ingest adds the blocks and characters it removed."""

    def count(self, what: str, n: int = 1) -> None:
        self.removed[what] = self.removed.get(what, 0) + n

    def options_as(self, kind: type[_Options]) -> _Options:
        """The step's options as the cleaner's own model: its defaults when the chain gave none
        (a cleaner run outside a configured chain, as the tests and `clean_blocks` do)."""
        return self.options if isinstance(self.options, kind) else kind()


CleanFn = Callable[[Iterable[Block], CleanContext], Iterator[Block]]


def drop_blocks(blocks: Iterable[Block], drop: Callable[[Block], bool], ctx: CleanContext) -> Iterator[Block]:
    """The blocks `drop` does not pick, each dropped one reported as a block and its chars."""
    for block in blocks:
        if drop(block):
            ctx.count("blocks")
            ctx.count("chars", len(block.text))
        else:
            yield block


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
    """Options model; None if the cleaner takes none. Unknown keys are refused, whatever the model says."""
    default_for: frozenset[str] | None = None
    """MIME types it runs on (empty: all). A built-in runs there unless switched off; a third-party
    cleaner only once a config or command line names it. None: every document it is named for."""

    def applies_to(self, mime_type: str) -> bool:
        return self.default_for is not None and (not self.default_for or mime_type in self.default_for)


@dataclass(frozen=True, slots=True)
class Step:
    """One configured link of the chain: a cleaner with validated options."""

    cleaner: Cleaner
    options: BaseModel | None
    explicit: bool
    """Named in the config and declaring no formats: runs on every document."""
    origin: str = registry.BUILT_IN
    """Where the cleaner came from: built in, a distribution and its version, or `module:attr`."""

    def runs_on(self, mime_type: str) -> bool:
        return self.explicit or self.cleaner.applies_to(mime_type)


class CleanerFailed(CleanerError):
    """A cleaner raised on a document: the document fails, naming the cleaner and its error."""

    def __init__(self, message: str, subject: object = None, cleaner: str = "") -> None:
        super().__init__(message, subject)
        self.cleaner = cleaner

    def __reduce__(self):  # keeps document, message and cleaner across a worker process
        return (_failed, (self.args[0], self.cleaner))


def _failed(text: str, cleaner: str) -> CleanerFailed:
    exc = CleanerFailed(text)
    exc.subject, exc.cleaner = "", cleaner  # the text already names the document
    return exc


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


def builtin(name: str) -> Cleaner:
    """One of ingest's own cleaners by name (its module is imported on first use)."""
    cleaner = registry.builtin(f"{__name__}.{name}:cleaner")
    assert isinstance(cleaner, Cleaner) and cleaner.name == name, name
    return cleaner


def available() -> dict[str, tuple[Cleaner, str]]:
    """Every cleaner there is, built in or installed, by name, with where it comes from.

    Loads every installed entry point: for listing them (`ingest plugins`), not for a run.
    """
    out = {name: (builtin(name), registry.BUILT_IN) for name in DEFAULT_CHAIN}
    for ep in registry.installed("cleaner"):
        if ep.name not in out:  # a built-in's name cannot be taken over by a package
            found = registry.load_entry_point("cleaner", ep)
            out[ep.name] = (_as_cleaner(found.obj, ep.name), found.origin)
    return out


def resolve(name: str, base: Path | None = None) -> tuple[Cleaner, str]:
    """A cleaner by built-in name, entry-point name or `module:attr` (importable from `base` too)."""
    if name in DEFAULT_CHAIN:
        return builtin(name), registry.BUILT_IN
    if ":" in name:
        found = registry.import_attr(name, base)
        return _as_cleaner(found.obj, name), found.origin
    ep = registry.entry_point("cleaner", name)
    if ep is None:
        known = ", ".join([*DEFAULT_CHAIN, *sorted(e.name for e in registry.installed("cleaner"))])
        raise CleanerError(f"unknown cleaner (there are: {known}; or name one as module:attr)", subject=name)
    found = registry.load_entry_point("cleaner", ep)
    return _as_cleaner(found.obj, name), found.origin


def build_chain(configured: Iterable[tuple[str, Mapping | bool | None]], base: Path | None = None) -> tuple[Step, ...]:
    """`DEFAULT_CHAIN`, then the other configured cleaners in config order.

    Each configured item is (name, options): a mapping configures it, `False` switches it off,
    `None` or `True` runs it with default options. Configuring a built-in neither moves it
    (the chain keeps marks resolved before tables are reshaped) nor widens it to other formats.
    A named plugin runs on the formats it declares, or on every document when it declares none.
    `base` is where `module:attr` names are importable from besides sys.path (the config's folder).
    """
    settings: dict[str, Mapping | bool | None] = {}
    for name, value in configured:
        if name in settings:
            raise CleanerError("named twice in the cleaner list", subject=name)
        settings[name] = value
    steps = []
    for name in [*DEFAULT_CHAIN, *(n for n in settings if n not in DEFAULT_CHAIN)]:
        value = settings.get(name)
        cleaner, origin = resolve(name, base)  # switched off or not, a misspelt name is an error
        options = _options(cleaner, value)
        if value is False:
            continue
        # Options tune a built-in without widening it: it still runs on its own formats.
        explicit = name in settings and cleaner.default_for is None
        steps.append(Step(cleaner, options, explicit=explicit, origin=origin))
    return tuple(steps)


def run_step(
    step: Step, blocks: Iterable[Block], document: Document, removed: dict[str, int], tally: _Tally | None = None
) -> Iterator[Block]:
    """One cleaner over the stream, counted into `tally` as it leaves; whatever the cleaner raises
    fails the document, naming it."""
    name = step.cleaner.name
    try:
        out = step.cleaner.run(blocks, CleanContext(document, step.options, removed))
        if tally is None:
            yield from out
            return
        for block in out:  # counted here, not in a generator of its own: one layer less a block
            tally.blocks += 1
            tally.chars += len(block.text)
            yield block
    except CleanerFailed:
        raise  # an earlier cleaner's, passing through this one
    except Exception as exc:
        raise CleanerFailed(
            f"cleaner {name!r} failed: {type(exc).__name__}: {exc}", subject=document.uri, cleaner=name
        ) from exc


def clean(
    blocks: Iterable[Block], document: Document, chain: Iterable[Step]
) -> tuple[Iterator[Block], dict[str, dict[str, int]]]:
    """Run the chain lazily; the returned report fills in as the blocks are consumed.

    Per cleaner it holds what the cleaner counted itself, and what it removed as ingest measured
    it: "blocks" and "chars" (net: a cleaner that adds text removes a negative amount) and
    "share", the characters removed as a share of the document's.
    """
    report: dict[str, dict[str, int]] = {}
    tallies = [_Tally()]
    stream: Iterable[Block] = tallies[0].over(blocks)
    names = []
    for step in chain:
        if not step.runs_on(document.mime_type):
            continue
        names.append(step.cleaner.name)
        tally = _Tally()
        stream = run_step(step, stream, document, report.setdefault(step.cleaner.name, {}), tally)
        tallies.append(tally)
    return _reported(stream, report, names, tallies), report


@dataclass(slots=True)
class _Tally:
    blocks: int = 0
    chars: int = 0

    def over(self, blocks: Iterable[Block]) -> Iterator[Block]:
        for block in blocks:
            self.blocks += 1
            self.chars += len(block.text)
            yield block


def _reported(stream: Iterable[Block], report: dict, names: list[str], tallies: list[_Tally]) -> Iterator[Block]:
    yield from stream
    # Each tally counted what left its step; what a cleaner removed is what it took in minus that.
    total = max(tallies[0].chars, 1)
    for name, before, after in zip(names, tallies, tallies[1:]):
        entry = report[name]
        entry["blocks"] = before.blocks - after.blocks
        entry["chars"] = before.chars - after.chars
        entry["share"] = round(entry["chars"] / total, 3)


def clean_blocks(loaded: Loaded, steps: tuple[Step, ...] | None = None) -> list[Block]:
    """The loaded document's blocks through the cleaner chain (the defaults when `steps` is None)."""
    blocks, _report = clean(loaded.blocks, loaded.document, build_chain([]) if steps is None else steps)
    return list(blocks)


def parse_cleaner_arg(text: str) -> tuple[str, Mapping | bool | None]:
    """A command line's `NAME`, `NAME:{json options}`, `NAME:false`, `module:attr` or
    `module:attr:{json}` as a configured item."""
    import json

    head, sep, tail = text.partition(":{")
    name, options = (head, "{" + tail) if sep else (text, "")
    if not sep and name.endswith((":false", ":off")):
        return name.rsplit(":", 1)[0], False
    if not options:
        return name, None
    try:
        value = json.loads(options)
    except ValueError as exc:
        raise CleanerError(
            f'options are not valid JSON ({exc}); e.g. running_headers:{{"min_pages": 3}}', subject=name
        ) from exc
    return name, value


def _options(cleaner: Cleaner, value: Mapping | bool | None) -> BaseModel | None:
    given = value if isinstance(value, Mapping) else {}
    if cleaner.options is None:
        if given:
            raise CleanerError(f"takes no options, got {', '.join(map(str, given))}", subject=cleaner.name)
        return None
    fields = cleaner.options.model_fields
    known = {f.alias or n for n, f in fields.items()} | set(fields)
    unknown = [k for k in given if k not in known]
    if unknown:  # pydantic ignores extra keys by default: a misspelt option would pass silently
        raise CleanerError(
            f"unknown option {unknown[0]!r} (its options: {', '.join(fields) or 'none'})", subject=cleaner.name
        )
    try:
        return cleaner.options.model_validate(given)
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
