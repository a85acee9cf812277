"""Fetching where the work runs: on a cluster each worker reads its document from the source
itself (Drive: with its own client, from the key the driver hands it), hashes it, and only then
loads, cleans and chunks it, so the driver downloads nothing and the fetches spread over the
cluster. The driver still decides, in listing order, what each outcome means for the index and
the state (`pipeline._settle_fetched`).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..blocks import Document, readers_tag
from ..errors import IngestError, SourceError
from ..loaders import content_hash
from .parallel import Done, Job, process


@dataclass(frozen=True, slots=True)
class RemoteFetch:
    """What a worker needs beside the job to fetch its document and tell an edit from a touch."""

    read: Callable[[], tuple[bytes, Document]]
    """Picklable: the bytes and the document they make (a source's `remote_fetch(item)`)."""
    stamp: str
    """The settings stamp the digest is taken under."""
    same: tuple[str, str] | None
    """The stored version's (digest, uri), when it is current and under the listed name: a fetch
    matching both is touched, not changed, and is not processed again (None: no such version)."""


@dataclass(frozen=True, slots=True)
class NotFetched:
    """The source would not give the bytes: no verdict on the document, tried again next run."""

    error: str


@dataclass(frozen=True, slots=True)
class Refused:
    """A verdict on this version before any byte was parsed (too large, not downloadable)."""

    error: str


@dataclass(frozen=True, slots=True)
class Touched:
    """The same bytes, readers, name and place as stored: only the state's record moves."""

    document: Document
    digest: str


@dataclass(frozen=True, slots=True)
class Failed:
    """Processing raised: the error, with the document as fetched (who may read it decides who
    still sees the chunks kept from before)."""

    document: Document
    error: BaseException


Outcome = Done | NotFetched | Refused | Touched | Failed


def fetch_and_process(job: Job, fetch: RemoteFetch) -> Outcome:
    """On a worker: fetch -> hash -> (unless touched) load, clean, chunk; the Done carries its digest."""
    try:
        data, document = fetch.read()
    except SourceError as exc:
        return NotFetched(str(exc))
    except IngestError as exc:
        return Refused(str(exc))
    readers = "" if document.readers is None else ":" + readers_tag(document.readers)
    digest = f"{content_hash(data)}{readers}#{fetch.stamp}"
    if fetch.same == (digest, document.uri):
        return Touched(document, digest)
    try:
        done = process(replace(job, data=data, document=document))
    except Exception as exc:
        if not _picklable(exc):  # raised as is: Ray hands back what it can of it
            raise
        return Failed(document, exc)
    return replace(done, digest=digest)


def _picklable(exc: BaseException) -> bool:
    try:
        pickle.dumps(exc)
    except Exception:
        return False
    return True
