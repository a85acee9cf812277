"""One run: list the source, process what changed, delete what vanished, report.

Per document: load -> clean -> chunk -> sink (one transaction) -> state. A document that fails
is recorded with its error and keeps what the sink already held; the run goes on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Literal

from ..blocks import readers_tag
from ..chunker import ChunkOptions
from ..cleaners import Step
from ..config import Config, LimitsConfig
from ..errors import EmbedderError, IngestError, RunError, SourceError, Stopped, internal_error
from ..loaders import content_hash, supports
from ..loaders.options import LoaderOptions
from ..plugin_stages import plugin_options, with_job_embedder
from ..sinks import ReadersSink, Sink
from ..sinks.jsonl import JsonlSink
from ..sinks.sqlite import SqliteSink
from ..sources import Item, Source, Sync
from ..sources.local import LocalSource
from .embedding_step import ChunkEmbedding
from .executor import Dispatch, open_executor
from .machine_faults import machine_fault
from .parallel import Done, Job, is_heavy, process
from .read_ahead import read_ahead
from .remote_fetch import Failed, NotFetched, Outcome, Refused, RemoteFetch, Touched, fetch_and_process
from .run_lock import Holder, RunLock
from .settings_stamp import SettingsStamps
from .state import DocState, StateStore
from .stopping import StopRequest

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
    """The failure is no verdict on the document (not fetched, disk full, out of memory, time
    limit, lost worker): the next run tries it again."""
    warnings: tuple[str, ...] = ()
    """What the loader wants said about the document (a page only an image, an encoding guessed)."""
    seconds: float = 0.0
    """Time to load, clean, chunk and write it (0 when nothing was done)."""
    kind: str = ""
    """A skipped file's type, which the summary counts skips by: its extension (`.pptx`), else
    its MIME type, or `link` for a link the source will not follow."""
    verdict: bool = False
    """A failure found on this run's version (not the same bad file reported again)."""


@dataclass(frozen=True, slots=True)
class Stage:
    """Where a run is, for a progress display: listing the source, listed (`total` items to go
    through), or loading the embedder (`detail`: its name) before the first vectors."""

    doing: Literal["listing", "listed", "loading_embedder"]
    total: int | None = None
    detail: str = ""


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
    removed: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    """Per document processed, per cleaner that ran on it: the blocks and characters it removed."""
    heavy: tuple[str, ...] = ()
    """Warnings: a cleaner that removed more than half of a document's text, named with it."""
    stopped: int | None = None
    """The signal that stopped the run before its end; what it committed stays, the rest waits."""
    error: str = ""
    """Why the run itself failed though it went to its end (a mass delete it refused)."""
    changes: tuple[DocResult, ...] = ()
    """What this run changed in the index: each document written or deleted."""
    warnings: int = 0
    """The warnings the run printed: the loaders' (each in its `DocResult.warnings`), then `heavy`."""
    skipped_files: tuple[DocResult, ...] = ()
    """Each file skipped, with its reason (`error`) and type (`kind`)."""
    unreachable: tuple[str, ...] = ()
    """What the source could not list (Google unreachable, credentials refused, a folder that
    will not list): the run could not see all the source holds, and deleted nothing on its account."""
    embedding_s: float | None = None
    """Time spent embedding, the model's loading included (None: the job has no embedder)."""
    embedder_load_s: float | None = None
    """Time the embedder's model took to load (None: not loaded this run)."""

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.stopped is None and not self.error


@dataclass(frozen=True, slots=True)
class RunFlags:
    """How this one run behaves, as asked on the command line (the config says what to sync)."""

    wait: bool = False
    """Another run holds the state: wait for it to end instead of failing at once."""
    allow_mass_delete: bool = False
    """Delete what the source no longer lists even past `max_delete`."""
    reprocess: bool = False
    """Process every document again, changed or not (after an upgrade ingest cannot see)."""


def run(
    config: Config,
    steps: tuple[Step, ...],
    options: ChunkOptions,
    on_result: Callable[[DocResult], None] | None = None,
    *,
    flags: RunFlags = RunFlags(),
    stop: StopRequest | None = None,
    on_stage: Callable[[Stage], None] | None = None,
) -> RunSummary:
    """Sync the configured source into the sink; `on_result` sees each document as it finishes,
    `on_stage` where the run is (listing, listed with its total, loading the embedder).

    The parent process lists, reads and decides; workers load, clean and chunk; the parent writes
    the sink and the state, in listing order, so the state always trails the sink. One run at a
    time holds the state (`run_lock.py`); a stop asked through `stop` ends the run between
    documents, and the summary says so.
    """
    started = time.perf_counter()
    stop = stop or StopRequest()

    def waiting(holder: Holder | None) -> None:
        log.warning("waiting for the run that holds the state (%s)", holder or "holder unknown")

    lock = RunLock(config.state, wait=flags.wait, on_wait=waiting)
    try:
        with stop.abandonable():  # waiting for the lock: a stop ends the wait at once
            lock.__enter__()
    except Stopped as exc:
        return _summary([], time.perf_counter() - started, (), stopped=exc.signum)
    try:
        one = _Run(config, steps, options, flags, stop, on_result, on_stage)
        one.sync()
        embedding = one.embedding
        return replace(
            _summary(one.results, time.perf_counter() - started, tuple(one.notes), stopped=one.stopped),
            error=one.error,
            unreachable=tuple(one.unreachable),
            embedding_s=None if embedding is None else round(embedding.seconds, 3),
            embedder_load_s=None
            if embedding is None or embedding.load_seconds is None
            else round(embedding.load_seconds, 3),
        )
    finally:
        lock.__exit__(None, None, None)


class _Run:
    """One run's working state: what it opened, what it saw, what it reported."""

    def __init__(
        self,
        config: Config,
        steps: tuple[Step, ...],
        options: ChunkOptions,
        flags: RunFlags,
        stop: StopRequest,
        on_result: Callable[[DocResult], None] | None,
        on_stage: Callable[[Stage], None] | None = None,
    ) -> None:
        self.config, self.steps, self.options, self.flags, self.stop = config, steps, options, flags, stop
        self.on_result = on_result
        self.on_stage = on_stage
        self.unreachable: list[str] = []
        self.results: list[DocResult] = []
        self.notes: list[str] = []
        self.stopped: int | None = None
        self.error = ""
        self.gone: set[str] = set()
        self.embedding: ChunkEmbedding | None = None

    def report(self, result: DocResult) -> None:
        self.results.append(result)
        if self.on_result:
            self.on_result(result)

    def stage(self, stage: Stage) -> None:
        if self.on_stage is not None:
            self.on_stage(stage)

    def sync(self) -> None:
        self.stage(Stage("listing"))
        source = open_source(self.config)
        with StateStore(self.config.state) as state, _open_sink(self.config) as sink:
            if self.config.embedder is not None:
                self.embedding = ChunkEmbedding(
                    self.config.embedder, sink, lambda name: self.stage(Stage("loading_embedder", detail=name))
                )
            stored = self._pair(state, sink)
            with state.batching():
                try:
                    self._sync(source, state, sink, stored)
                except Stopped as exc:  # nothing is deleted and the cursor stays: the next run goes on from here
                    self.stopped = exc.signum
                _durable(sink, state)

    def _sync(self, source: Source, state: StateStore, sink: Sink, stored: dict[str, str]) -> None:
        stamps = SettingsStamps(self.steps, self.options, self.config.embedder, self.config.loader_options())
        known = state.known(source.key)
        cursor = state.get_cursor(source.key)
        resettled = cursor is not None and _settings_changed(known, stamps)
        # A change feed would only show what changed in the source: new settings list everything.
        sync = source.sync(None if resettled or self.flags.reprocess else cursor)
        if sync.note:
            self.notes.append(sync.note)
        if resettled:
            self.notes.append(
                "the chunker or cleaner settings changed (or ingest itself did) since the last run: "
                "every document was listed, and those they change processed again"
            )
        seen: set[str] = set()
        # Listed whole before any is processed, so progress has a total (a listing is small and
        # quick beside processing what it lists).
        listed: list[Item] = []
        for item in sync.items:
            self.stop.check()
            listed.append(item)
        self.stage(Stage("listed", total=len(listed)))

        def decided() -> Iterator[tuple[Item, DocResult | None]]:
            for item in listed:
                self.stop.check()
                if item.skip:  # not a document of the source: a known one by that id is gone
                    yield item, DocResult(item.doc_id, item.name, "skipped", error=item.skip, kind="link")
                    continue
                seen.add(item.doc_id)
                yield item, _decide(item, source, state, stamps(item.mime_type), self.flags.reprocess)

        def plans() -> Iterator[DocResult | _Planned]:
            # Reads run `concurrency` at a time ahead of this loop; results come back in order.
            for (item, early), data in read_ahead(
                decided(),
                lambda entry: source.read(entry[0]),
                lambda entry: entry[1] is None,
                getattr(source, "concurrency", 1),
            ):  # a plugin may not say
                if data is None:  # not read: decided without its bytes
                    assert early is not None
                    yield early
                    continue
                yield _plan(
                    item,
                    data,
                    source,
                    state,
                    self.steps,
                    self.options,
                    stamps(item.mime_type),
                    self.config.limits,
                    self.flags.reprocess,
                    self.config.loader_options(),
                )

        def fetched_where_run() -> Iterator[DocResult | _Planned]:
            # The workers fetch: the driver hands each its document's fetch, reads no bytes itself.
            for item, early in decided():
                yield early if early is not None else self._remote_plan(item, source, state, stamps(item.mime_type))

        committed = time.monotonic()
        with open_executor(self.config) as executor:  # this process, its workers, or a Ray cluster
            remote = getattr(executor, "fetches", False) and callable(getattr(source, "remote_fetch", None))
            how = Dispatch(
                wanted=lambda plan: isinstance(plan, _Planned),
                timeout_s=self.config.timeout_s,
                stop=self.stop,
                heavy=lambda plan: isinstance(plan, _Planned) and is_heavy(plan.job),
            )
            mapped = executor.map(_execute, fetched_where_run() if remote else plans(), how)
            for plan, future in mapped:
                if isinstance(plan, DocResult):
                    result = plan
                elif plan.fetch is None:
                    result = _finish(plan, future, sink, state, source.key, self.embedding)
                else:
                    result, plan = _settle_fetched(plan, future, sink, state, source.key, self.embedding)
                if result.verdict and isinstance(sink, ReadersSink):
                    # A verdict on a newer version: its sharing may have changed with it, so the
                    # chunks kept from before are shown only to the new readers (none, when not known).
                    readers = plan.job.document.readers if isinstance(plan, _Planned) else ()
                    sink.withhold(result.doc_id, readers or ())
                self.report(result)
                if state.pending and time.monotonic() - committed >= _COMMIT_EVERY_S:
                    _durable(sink, state)
                    committed = time.monotonic()
                self.stop.check()  # between documents: what is written stays, the rest waits for the next run
        for error in source.errors:  # a folder that could not be listed
            self.unreachable.append(str(error))
            self.report(DocResult(error.subject, error.subject, "failed", error=str(error), retry=True))
        listed_all = sync.complete and not source.errors
        self._delete_gone(source, state, sink, sync, seen, known, stored, listed_all)
        if not sync.complete:  # a change feed: what it did not mention stands as it was
            for doc_id, doc_state in known.items():
                if doc_id not in seen and doc_id not in self.gone:
                    status: Status = "failed" if doc_state.failed else "unchanged"
                    error = doc_state.last_error if doc_state.failed else ""
                    self.report(DocResult(doc_id, doc_state.name, status, error=error))
        # The cursor moves only when everything up to it was fetched and written.
        if sync.cursor is not None and not source.errors and not self.error and not any(r.retry for r in self.results):
            state.set_cursor(source.key, sync.cursor)

    def _remote_plan(self, item: Item, source: Source, state: StateStore, stamp: str) -> _Planned:
        """`item` to be fetched, hashed and processed by a worker: the job without its bytes, the
        document as listed, and the stored version a touch must match."""
        read = source.remote_fetch(item)  # type: ignore[attr-defined]  # checked by the caller
        previous = state.get(source.key, item.doc_id)
        current = not self.flags.reprocess and previous is not None and not previous.failed
        same = (previous.content_hash, previous.uri) if current and previous and previous.name == item.name else None
        job = Job(b"", read.listed(), self.steps, self.options, self.config.limits, self.config.loader_options())
        return _Planned(item, f"{item.fingerprint}#{stamp}", "", job, RemoteFetch(read, stamp, same))

    def _delete_gone(
        self,
        source: Source,
        state: StateStore,
        sink: Sink,
        sync: Sync,
        seen: set[str],
        known: dict[str, DocState],
        stored: dict[str, str],
        listed_all: bool,
    ) -> None:
        """Delete what the source no longer has, unless that is more than `max_delete` allows."""
        gone = {d: known[d].name for d in dict.fromkeys(sync.removed) if d in known and d not in seen}
        if listed_all:
            # What an unreadable folder hid is not known to be gone: delete nothing then.
            gone.update((d, s.name) for d, s in known.items() if d not in seen)
            # The index may hold what no state remembers (the state was lost): the listing decides.
            gone.update((d, name) for d, name in stored.items() if d not in seen)
        total = max(len(known), len(stored))
        if gone and self.config.max_delete.refuses(len(gone), total) and not self.flags.allow_mass_delete:
            limit = self.config.max_delete
            self.error = (
                f"refused to delete {len(gone)} of the {total} documents in the index (max_delete allows "
                f"{limit.share:.0%} when more than {limit.count}); nothing was deleted. If the source really lost "
                "them, run once with --allow-mass-delete; if not, check the source is mounted and its path is right"
            )
            return
        for doc_id, name in gone.items():
            sink.delete(doc_id)
            state.forget(source.key, doc_id)
            self.report(DocResult(doc_id, name, "deleted"))
        self.gone = set(gone)
        if listed_all and state.get_meta("reconcile"):
            state.set_meta("reconcile", None)  # done: the index holds only what the source lists

    def _pair(self, state: StateStore, sink: Sink) -> dict[str, str]:
        """Check the state feeds this index; return what the index holds when it must be reconciled
        with the listing (no state knew it, or the state fed another index), else {}."""
        index_id = sink.identity()
        paired = state.get_meta("index_id")
        if paired != index_id:
            if paired is not None:
                self.notes.append(
                    "the index is not the one this state fed (deleted, replaced, or another file): every "
                    "document is processed again"
                )
            # A state from before index ids, beside an empty index: that index is new, so rebuild too.
            reset = paired is not None or (state.known_any() and not sink.stored())
            state.pair_with(index_id, reset=reset)
        if state.get_meta("reconcile") is None:
            return {}
        stored = sink.stored()
        if stored and not state.known_any():
            self.notes.append(
                "the index has documents no state remembers (the state was deleted): every document is "
                "processed again, and what the source no longer has is deleted from the index"
            )
        return stored


_COMMIT_EVERY_S = 0.5
"""How often the state's batch of records is committed; a crash re-processes at most this much."""


def _durable(sink: Sink, state: StateStore) -> None:
    """Commit the state's batch, after the sink has made what it records durable: the state never
    says a document is stored that a power cut could take from the index."""
    if state.pending:
        sink.sync()
        state.commit()


def open_source(config: Config) -> Source:
    plugin = plugin_options("source", config.source.model_extra)
    if plugin is not None:
        return plugin[0].open(plugin[1])
    if config.source.drive is not None:
        from ..sources.drive import DriveSource  # the Google client libraries load only for Drive

        return DriveSource(config.source.drive)
    assert config.source.local is not None  # the config holds exactly one source (SourceConfig checks)
    return LocalSource(config.source.local)


@dataclass(frozen=True, slots=True)
class _Planned:
    """A document that must be processed, with what the state will record once it is."""

    item: Item
    fingerprint: str
    digest: str
    job: Job
    fetch: RemoteFetch | None = None
    """Set when the worker fetches the bytes (then `job` has none, and `digest` is its to find)."""


def _settings_changed(known: dict[str, DocState], stamps: SettingsStamps) -> bool:
    """A document was last seen under other settings than any type's today (one fetched with no
    verdict has no fingerprint, and says nothing)."""
    today = stamps.all()
    return any(d.fingerprint and d.fingerprint.rpartition("#")[2] not in today for d in known.values())


def _decide(item: Item, source: Source, state: StateStore, stamp: str, reprocess: bool) -> DocResult | None:
    """What can be said without reading the document; None: it must be read."""
    if not supports(item.mime_type):
        extension = PurePosixPath(item.name).suffix.lower()
        what = f"{extension} ({item.mime_type})" if extension else item.mime_type
        return DocResult(
            item.doc_id, item.name, "skipped", error=f"no loader for {what}", kind=extension or item.mime_type
        )
    # Fingerprints and hashes are stored stamped with the settings they were processed under,
    # so new chunker or cleaner settings make every document look changed.
    fingerprint = f"{item.fingerprint}#{stamp}"
    previous = state.get(source.key, item.doc_id)
    if reprocess:  # asked for: every document is read and processed as if new
        previous = None
    if previous is not None and previous.failed and previous.fingerprint == fingerprint:
        # Still the same bad file: report it again without parsing it again.
        return DocResult(item.doc_id, item.name, "failed", error=previous.last_error)
    if previous is not None and not previous.failed and previous.fingerprint == fingerprint:
        return DocResult(item.doc_id, item.name, "unchanged")
    return None


def _plan(
    item: Item,
    read: Future,
    source: Source,
    state: StateStore,
    steps: tuple[Step, ...],
    options: ChunkOptions,
    stamp: str,
    limits: LimitsConfig,
    reprocess: bool,
    loaders: LoaderOptions | None = None,
) -> DocResult | _Planned:
    """The document `_decide` could not settle, once `read` has its bytes (with `reprocess`, no
    version stored before counts)."""
    fingerprint = f"{item.fingerprint}#{stamp}"
    previous = state.get(source.key, item.doc_id)
    current = not reprocess and previous is not None and not previous.failed
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
    readers = "" if document.readers is None else ":" + readers_tag(document.readers)
    digest = f"{content_hash(data)}{readers}#{stamp}"
    # Same bytes under the same name: touched, not changed. A new name or place is a change even
    # with the same bytes: the title roots the heading paths, and the index names the document.
    if (
        current
        and previous is not None
        and previous.content_hash == digest
        and (previous.name, previous.uri) == (item.name, document.uri)
    ):
        state.record_ok(
            source.key,
            item.doc_id,
            version=document.version,
            content_hash=digest,
            fingerprint=fingerprint,
            chunk_count=previous.chunk_count,
            name=item.name,
            uri=document.uri,
        )
        return DocResult(item.doc_id, item.name, "unchanged")
    return _Planned(item, fingerprint, digest, Job(data, document, steps, options, limits, loaders or LoaderOptions()))


def _execute(plan: DocResult | _Planned) -> Outcome | None:
    if isinstance(plan, DocResult):
        return None
    return process(plan.job) if plan.fetch is None else fetch_and_process(plan.job, plan.fetch)


def _settle_fetched(
    plan: _Planned, future: Future, sink: Sink, state: StateStore, key: str, embedding: ChunkEmbedding | None
) -> tuple[DocResult, _Planned]:
    """What a worker's fetch and work mean for the index and the state, as `_plan` and `_finish`
    decide it for a document read here; the plan comes back with the document as fetched."""
    item = plan.item
    try:
        outcome = future.result()
    except Exception:  # lost, timed out, or raised unpicklably: as for a document read here
        return _finish(plan, future, sink, state, key, embedding), plan
    if isinstance(outcome, NotFetched):  # no verdict on the document: tried again next run
        state.record_failure(key, item.doc_id, error=outcome.error, fingerprint="", name=item.name, uri=item.doc_id)
        return DocResult(item.doc_id, item.name, "failed", error=outcome.error, retry=True), plan
    if isinstance(outcome, Refused):
        return _failed(item, plan.fingerprint, item.doc_id, outcome.error, state, key), plan
    digest = outcome.digest if isinstance(outcome, Done | Touched) else ""
    plan = replace(plan, digest=digest, job=replace(plan.job, document=outcome.document))
    if isinstance(outcome, Touched):
        previous = state.get(key, item.doc_id)
        state.record_ok(
            key,
            item.doc_id,
            version=outcome.document.version,
            content_hash=digest,
            fingerprint=plan.fingerprint,
            chunk_count=previous.chunk_count if previous is not None else 0,
            name=item.name,
            uri=outcome.document.uri,
        )
        return DocResult(item.doc_id, item.name, "unchanged"), plan
    if isinstance(outcome, Failed):
        future = Future()
        future.set_exception(outcome.error)
    return _finish(plan, future, sink, state, key, embedding), plan


def _finish(
    plan: _Planned, future: Future, sink: Sink, state: StateStore, key: str, embedding: ChunkEmbedding | None = None
) -> DocResult:
    item, document = plan.item, plan.job.document
    try:
        done: Done = future.result()
        began = time.perf_counter()
        if embedding is None:
            sink.write(done.document, done.chunks)
        else:  # embedded before the sink's transaction: a slow API holds no lock on the index
            vectors = embedding.given(done.vectors) if done.vectors is not None else embedding.vectors(done.chunks)
            embedding.sink.write(done.document, done.chunks, vectors)  # the same sink
    except RunError:  # a damaged index: no document's fault, and the run must not write on
        raise
    except Exception as exc:  # one bad document must not stop the run
        if isinstance(exc, IngestError):
            error = str(exc) if exc.subject is not None else f"{document.uri}: {exc}"
        elif isinstance(exc, MemoryError):
            error = f"{document.uri}: out of memory while processing it"
        else:
            log.error("unexpected failure on %s", item.doc_id, exc_info=exc)
            error = internal_error(document.uri, exc)
        fault = machine_fault(exc)
        if fault is None and isinstance(exc, EmbedderError):  # an API down or refusing: not the document's fault
            fault = "the embedder failed; tried again next run"
        if fault is not None:  # no verdict on the document: the next run tries it again
            return _failed(item, "", document.uri, f"{error} [{fault}]", state, key, retry=True)
        return _failed(item, plan.fingerprint, document.uri, error, state, key)
    state.record_ok(
        key,
        item.doc_id,
        version=document.version,
        content_hash=plan.digest,
        fingerprint=plan.fingerprint,
        chunk_count=len(done.chunks),
        name=item.name,
        uri=document.uri,
    )
    state.record_removals(key, item.doc_id, done.cleaned)
    return DocResult(
        item.doc_id,
        item.name,
        "changed",
        chunks=len(done.chunks),
        cleaned=done.cleaned,
        warnings=done.warnings,
        seconds=round(done.seconds + time.perf_counter() - began, 4),
    )


def _failed(
    item: Item, fingerprint: str, uri: str, error: str, state: StateStore, key: str, retry: bool = False
) -> DocResult:
    """Record the failure; an empty `fingerprint` matches no listing, so the next run retries."""
    if item.name not in error:  # a Drive link names the file for a machine; the path names it for you
        error = f"{item.name}: {error}"
    state.record_failure(key, item.doc_id, error=error, fingerprint=fingerprint, name=item.name, uri=uri)
    return DocResult(item.doc_id, item.name, "failed", error=error, retry=retry, verdict=not retry)


def _open_sink(config: Config) -> Sink:
    plugin = plugin_options("sink", config.sink.model_extra)
    if plugin is not None:
        return plugin[0].open(with_job_embedder(plugin[1], config.embedder))
    if config.sink.sqlite is not None:
        return SqliteSink(config.sink.sqlite, ann=config.search.ann)
    assert config.sink.jsonl is not None  # the config holds exactly one sink (SinkConfig checks)
    return JsonlSink(config.sink.jsonl)


def _summary(
    results: list[DocResult], seconds: float, notes: tuple[str, ...] = (), stopped: int | None = None
) -> RunSummary:
    def n(status: Status) -> int:
        return sum(r.status == status for r in results)

    heavy = tuple(heavy_cleaning(results))
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
        removed={r.name: removals(r.cleaned) for r in results if r.status == "changed"},
        heavy=heavy,
        stopped=stopped,
        changes=tuple(r for r in results if r.status in ("changed", "deleted")),
        warnings=sum(len(r.warnings) for r in results) + len(heavy),  # every warning printed
        skipped_files=tuple(r for r in results if r.status == "skipped"),
    )


HEAVY_SHARE = 0.5
"""A cleaner removing more than this share of a document's characters is warned about."""


def removals(cleaned: dict) -> dict[str, dict[str, int]]:
    return {name: {"blocks": c.get("blocks", 0), "chars": c.get("chars", 0)} for name, c in cleaned.items()}


def heavy_cleaning(results: list[DocResult]) -> Iterator[str]:
    for r in results:
        for warning in cleaning_warnings(r):
            yield f"{r.name}: {warning}"


def cleaning_warnings(r: DocResult) -> Iterator[str]:
    """A cleaner that removed most of the document's text: worth a look, and counted as a warning."""
    for name, counts in r.cleaned.items():
        if counts.get("share", 0) > HEAVY_SHARE:
            yield (
                f"cleaner {name!r} removed {counts['share']:.0%} of the text "
                f"({counts.get('chars', 0)} characters, {counts.get('blocks', 0)} blocks); "
                f"check it with `ingest inspect`"
            )
