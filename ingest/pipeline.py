"""One run: list the source, process what changed, delete what vanished, report.

Per document: load -> clean -> chunk -> sink (one transaction) -> state. A document that fails
is recorded with its error and keeps what the sink already held; the run goes on.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from concurrent.futures import Future
from typing import Callable, Iterator, Literal

from . import __version__
from .chunker import ChunkOptions
from .cleaners import Step, code_version
from .config import Config
from .errors import IngestError, SourceError
from .loaders import content_hash, supports
from .parallel import Done, Job, ordered_map, process, worker_count
from .read_ahead import read_ahead
from .sinks import Sink
from .sinks.jsonl import JsonlSink
from .sinks.sqlite import SqliteSink
from .sources import Item, Source
from .sources.local import LocalSource
from .state import StateStore

log = logging.getLogger(__name__)

Status = Literal["changed", "unchanged", "failed", "skipped", "deleted"]


@dataclass(frozen=True, slots=True)
class DocResult:
    doc_id: str
    name: str
    status: Status
    chunks: int = 0
    error: str = ""
    cleaned: dict = field(default_factory=dict)
    """What each cleaner removed, e.g. {"furniture": {"blocks": 2, "chars": 40}}."""
    retry: bool = False
    """The document could not be fetched (network, permissions): the next run tries it again."""


@dataclass(frozen=True, slots=True)
class RunSummary:
    seen: int
    changed: int
    unchanged: int
    deleted: int
    failed: int
    skipped: int
    chunks_written: int
    seconds: float
    failures: tuple[DocResult, ...]
    notes: tuple[str, ...] = ()
    """What the run wants the user to know beyond counts (e.g. a change cursor that expired)."""

    @property
    def ok(self) -> bool:
        return self.failed == 0


def run(
    config: Config,
    steps: tuple[Step, ...],
    options: ChunkOptions,
    on_result: Callable[[DocResult], None] | None = None,
) -> RunSummary:
    """Sync the configured source into the sink; `on_result` sees each document as it finishes.

    The parent process lists, reads and decides; workers load, clean and chunk; the parent writes
    the sink and the state, in listing order, so the state always trails the sink.
    """
    started = time.perf_counter()
    source = open_source(config)
    sink = _open_sink(config)
    results: list[DocResult] = []

    def report(result: DocResult) -> None:
        results.append(result)
        if on_result:
            on_result(result)

    with StateStore(config.state) as state, sink:
        stamp = _settings_hash(steps, options)[:16]
        known = state.known(source.key)
        cursor = state.get_cursor(source.key)
        resettled = cursor is not None and _settings_changed(known, stamp)
        # A change feed would only show what changed in the source: new settings list everything.
        sync = source.sync(None if resettled else cursor)
        seen: set[str] = set()

        def decided() -> Iterator[tuple[Item, DocResult | None]]:
            for item in sync.items:
                seen.add(item.doc_id)
                yield item, _decide(item, source, state, stamp)

        def plans() -> Iterator[DocResult | _Planned]:
            # Reads run `concurrency` at a time ahead of this loop; results come back in order.
            for (item, early), data in read_ahead(decided(), lambda entry: source.read(entry[0]),
                                                  lambda entry: entry[1] is None, source.concurrency):
                yield early if early is not None else _plan(item, data, source, state, steps, options, stamp)

        for plan, future in ordered_map(_execute, plans(), worker_count(config.workers)):
            if isinstance(plan, DocResult):
                report(plan)
            else:
                report(_finish(plan, future, sink, state, source.key))
        for error in source.errors:  # a folder that could not be listed
            report(DocResult(error.subject, error.subject, "failed", error=str(error), retry=True))
        gone = [d for d in dict.fromkeys(sync.removed) if d in known and d not in seen]
        if sync.complete and not source.errors:
            # What an unreadable folder hid is not known to be gone: delete nothing then.
            gone += [d for d in known if d not in seen and d not in gone]
        for doc_id in gone:
            sink.delete(doc_id)
            state.forget(source.key, doc_id)
            report(DocResult(doc_id, known[doc_id].name, "deleted"))
        if not sync.complete:  # a change feed: what it did not mention stands as it was
            for doc_id, doc_state in known.items():
                if doc_id not in seen and doc_id not in gone:
                    status: Status = "failed" if doc_state.failed else "unchanged"
                    report(DocResult(doc_id, doc_state.name, status, error=doc_state.last_error if doc_state.failed else ""))
        # The cursor moves only when everything up to it was fetched and written.
        if sync.cursor is not None and not source.errors and not any(r.retry for r in results):
            state.set_cursor(source.key, sync.cursor)
    notes = (sync.note,) if sync.note else ()
    if resettled:
        notes += ("the chunker or cleaner settings changed since the last run: every document was listed "
                  "and processed again",)
    return _summary(results, time.perf_counter() - started, notes)


def open_source(config: Config) -> Source:
    if config.source.drive is not None:
        from .sources.drive import DriveSource  # the Google client libraries load only for Drive

        return DriveSource(config.source.drive)
    return LocalSource(config.source.local)


@dataclass(frozen=True, slots=True)
class _Planned:
    """A document that must be processed, with what the state will record once it is."""

    item: Item
    fingerprint: str
    digest: str
    job: Job


def _settings_changed(known: dict, stamp: str) -> bool:
    """A document was last seen under other chunker or cleaner settings (one fetched with no
    verdict has no fingerprint, and says nothing)."""
    return any(d.fingerprint and not d.fingerprint.endswith(f"#{stamp}") for d in known.values())


def _decide(item: Item, source: Source, state: StateStore, stamp: str) -> DocResult | None:
    """What can be said without reading the document; None: it must be read."""
    if not supports(item.mime_type):
        return DocResult(item.doc_id, item.name, "skipped", error=f"no loader for {item.mime_type}")
    # Fingerprints and hashes are stored stamped with the settings they were processed under,
    # so new chunker or cleaner settings make every document look changed.
    fingerprint = f"{item.fingerprint}#{stamp}"
    previous = state.get(source.key, item.doc_id)
    if previous is not None and previous.failed and previous.fingerprint == fingerprint:
        # Still the same bad file: report it again without parsing it again.
        return DocResult(item.doc_id, item.name, "failed", error=previous.last_error)
    if previous is not None and not previous.failed and previous.fingerprint == fingerprint:
        return DocResult(item.doc_id, item.name, "unchanged")
    return None


def _plan(
    item: Item, read: Future, source: Source, state: StateStore, steps: tuple[Step, ...], options: ChunkOptions,
    stamp: str,
) -> DocResult | _Planned:
    """The document `_decide` could not settle, once `read` has its bytes."""
    fingerprint = f"{item.fingerprint}#{stamp}"
    previous = state.get(source.key, item.doc_id)
    current = previous is not None and not previous.failed
    try:
        data = read.result()
    except SourceError as exc:  # not fetched: no verdict on the document, so try it again next run
        state.record_failure(source.key, item.doc_id, error=str(exc), fingerprint="", name=item.name, uri=item.doc_id)
        return DocResult(item.doc_id, item.name, "failed", error=str(exc), retry=True)
    except IngestError as exc:  # a verdict on this version (too large, not downloadable)
        return _failed(item, fingerprint, item.doc_id, str(exc), state, source.key)
    try:
        document = source.document(item, data)
    except IngestError as exc:
        return _failed(item, fingerprint, item.doc_id, str(exc), state, source.key)
    # Who may read it is part of what is stored: a sharing change alone is a change.
    readers = "" if document.readers is None else ":" + content_hash("\n".join(document.readers).encode())[:12]
    digest = f"{content_hash(data)}{readers}#{stamp}"
    # Same bytes under the same name: touched, not changed. A new name or place is a change even
    # with the same bytes: the title roots the heading paths, and the index names the document.
    if current and previous.content_hash == digest and (previous.name, previous.uri) == (item.name, document.uri):
        state.record_ok(
            source.key, item.doc_id, version=document.version, content_hash=digest,
            fingerprint=fingerprint, chunk_count=previous.chunk_count, name=item.name, uri=document.uri,
        )
        return DocResult(item.doc_id, item.name, "unchanged")
    return _Planned(item, fingerprint, digest, Job(data, document, steps, options))


def _execute(plan: DocResult | _Planned) -> Done | None:
    return None if isinstance(plan, DocResult) else process(plan.job)


def _finish(plan: _Planned, future: Future, sink: Sink, state: StateStore, key: str) -> DocResult:
    item, document = plan.item, plan.job.document
    try:
        done: Done = future.result()
        sink.write(done.document, done.chunks)
    except Exception as exc:  # one bad document must not stop the run
        if isinstance(exc, IngestError):
            error = str(exc) if exc.subject is not None else f"{document.uri}: {exc}"
        else:
            log.error("unexpected failure on %s", item.doc_id, exc_info=exc)
            error = f"{document.uri}: internal error: {exc!r}"
        return _failed(item, plan.fingerprint, document.uri, error, state, key)
    state.record_ok(
        key, item.doc_id, version=document.version, content_hash=plan.digest,
        fingerprint=plan.fingerprint, chunk_count=len(done.chunks), name=item.name, uri=document.uri,
    )
    return DocResult(item.doc_id, item.name, "changed", chunks=len(done.chunks), cleaned=done.cleaned)


def _failed(item: Item, fingerprint: str, uri: str, error: str, state: StateStore, key: str) -> DocResult:
    if item.name not in error:  # a Drive link names the file for a machine; the path names it for you
        error = f"{item.name}: {error}"
    state.record_failure(key, item.doc_id, error=error, fingerprint=fingerprint, name=item.name, uri=uri)
    return DocResult(item.doc_id, item.name, "failed", error=error)


def _open_sink(config: Config) -> Sink:
    if config.sink.sqlite is not None:
        return SqliteSink(config.sink.sqlite)
    return JsonlSink(config.sink.jsonl)


def _settings_hash(steps: tuple[Step, ...], options: ChunkOptions) -> str:
    """Changing the chunker, the cleaners (their options, or a plugin's code) or ingest itself
    re-processes every document."""
    described = {
        "version": __version__,
        "chunker": asdict(options),
        "cleaners": [(s.cleaner.name, s.options.model_dump() if s.options else None, s.explicit,
                      code_version(s.cleaner)) for s in steps],
    }
    return hashlib.sha256(json.dumps(described, sort_keys=True, default=str).encode()).hexdigest()


def _summary(results: list[DocResult], seconds: float, notes: tuple[str, ...] = ()) -> RunSummary:
    def n(status: Status) -> int:
        return sum(r.status == status for r in results)

    return RunSummary(
        seen=sum(r.status != "deleted" for r in results),
        changed=n("changed"),
        unchanged=n("unchanged"),
        deleted=n("deleted"),
        failed=n("failed"),
        skipped=n("skipped"),
        chunks_written=sum(r.chunks for r in results),
        seconds=round(seconds, 3),
        failures=tuple(r for r in results if r.status == "failed"),
        notes=notes,
    )
