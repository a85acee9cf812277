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
from typing import Callable, Literal

from . import __version__
from .chunker import ChunkOptions, chunk
from .cleaners import Step, clean
from .config import Config
from .errors import IngestError
from .loaders import content_hash, load_bytes, supports
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

    @property
    def ok(self) -> bool:
        return self.failed == 0


def run(
    config: Config,
    steps: tuple[Step, ...],
    options: ChunkOptions,
    on_result: Callable[[DocResult], None] | None = None,
) -> RunSummary:
    """Sync the configured source into the sink; `on_result` sees each document as it finishes."""
    started = time.perf_counter()
    source = LocalSource(config.source.local)
    sink = _open_sink(config)
    results: list[DocResult] = []
    with StateStore(config.state) as state, sink:
        stamp = _settings_hash(steps, options)[:16]
        known = state.known(source.key)
        seen: set[str] = set()
        for item in source.items():
            seen.add(item.doc_id)
            result = _process(item, source, sink, state, steps, options, stamp)
            results.append(result)
            if on_result:
                on_result(result)
        for doc_id, doc_state in known.items():
            if doc_id not in seen:
                sink.delete(doc_id)
                state.forget(source.key, doc_id)
                result = DocResult(doc_id, doc_state.name, "deleted")
                results.append(result)
                if on_result:
                    on_result(result)
    return _summary(results, time.perf_counter() - started)


def _process(
    item: Item,
    source: Source,
    sink: Sink,
    state: StateStore,
    steps: tuple[Step, ...],
    options: ChunkOptions,
    stamp: str,
) -> DocResult:
    if not supports(item.mime_type):
        return DocResult(item.doc_id, item.name, "skipped", error=f"no loader for {item.mime_type}")
    # Fingerprints and hashes are stored stamped with the settings they were processed under,
    # so new chunker or cleaner settings make every document look changed.
    fingerprint = f"{item.fingerprint}#{stamp}"
    previous = state.get(source.key, item.doc_id)
    current = previous is not None and not previous.failed
    if current and previous.fingerprint == fingerprint:
        return DocResult(item.doc_id, item.name, "unchanged")
    uri = item.doc_id
    try:
        data = source.read(item)
        digest = f"{content_hash(data)}#{stamp}"
        document = source.document(item, data)
        uri = document.uri
        if current and previous.content_hash == digest:  # touched, not changed
            state.record_ok(
                source.key, item.doc_id, version=document.version, content_hash=digest,
                fingerprint=fingerprint, chunk_count=previous.chunk_count, name=item.name, uri=uri,
            )
            return DocResult(item.doc_id, item.name, "unchanged")
        loaded = load_bytes(data, document)
        blocks, cleaned = clean(loaded.blocks, loaded.document, steps)
        chunks = list(chunk(loaded, options, blocks))
        sink.write(loaded.document, chunks)
    except Exception as exc:  # one bad document must not stop the run
        error = str(exc) if isinstance(exc, IngestError) else f"{item.doc_id}: internal error: {exc!r}"
        if not isinstance(exc, IngestError):
            log.exception("unexpected failure on %s", item.doc_id)
        state.record_failure(source.key, item.doc_id, error=error, fingerprint=fingerprint, name=item.name, uri=uri)
        return DocResult(item.doc_id, item.name, "failed", error=error)
    state.record_ok(
        source.key, item.doc_id, version=document.version, content_hash=digest,
        fingerprint=fingerprint, chunk_count=len(chunks), name=item.name, uri=uri,
    )
    return DocResult(item.doc_id, item.name, "changed", chunks=len(chunks), cleaned=cleaned)


def _open_sink(config: Config) -> Sink:
    if config.sink.sqlite is not None:
        return SqliteSink(config.sink.sqlite)
    return JsonlSink(config.sink.jsonl)


def _settings_hash(steps: tuple[Step, ...], options: ChunkOptions) -> str:
    """Changing the chunker, the cleaners or ingest itself re-processes every document."""
    described = {
        "version": __version__,
        "chunker": asdict(options),
        "cleaners": [(s.cleaner.name, s.options.model_dump() if s.options else None, s.explicit) for s in steps],
    }
    return hashlib.sha256(json.dumps(described, sort_keys=True, default=str).encode()).hexdigest()


def _summary(results: list[DocResult], seconds: float) -> RunSummary:
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
    )
