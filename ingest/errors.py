"""One root error, a subclass per stage. Each carries what it is about and says what to do."""

from __future__ import annotations


class IngestError(Exception):
    """Root of every error ingest raises on purpose. `subject` names the file, key or block."""

    def __init__(self, message: str, subject: object = None) -> None:
        self.subject = subject
        super().__init__(f"{subject}: {message}" if subject is not None else message)


class ConfigError(IngestError):
    """The configuration is invalid; `subject` is the key path or config file."""


class SourceError(IngestError):
    """A source could not be listed or read."""


class SourceUnreachable(SourceError):
    """The source cannot be listed at all (a local folder that does not exist or is not mounted):
    the run cannot say what it holds, so it changes nothing."""


class LoaderError(IngestError):
    """A document could not be parsed; `subject` is the document's path or uri."""


class UnreadableText(LoaderError):
    """A document whose text layer cannot be read (a file cut short, fonts without a Unicode map):
    indexing it would store cipher, so it fails and the index keeps what it held for it."""


class UnsupportedFormat(LoaderError):
    """No loader is registered for the document's type."""


class CleanerError(IngestError):
    """A cleaner failed or could not be found."""


class ChunkerError(IngestError):
    """Chunker options are inconsistent."""


class TokenizerError(ChunkerError):
    """The tokenizer could not be loaded offline."""


class EmbedderError(IngestError):
    """An embedder could not be loaded or could not embed; `subject` is the embedder or setting."""


class SinkError(IngestError):
    """The index or dump could not be written."""


class SinkUnreachable(SinkError):
    """A database server the sink writes to refused or dropped the connection, retries included:
    the machine's fault, not the document's, so the next run tries the document again."""


class WorkerCrash(IngestError):
    """A worker process died while processing a document; the document is named by the caller."""


class StateError(IngestError):
    """The state database is unreadable or from an incompatible version."""


class DocumentTimeout(IngestError):
    """A document took longer than `timeout_s` to load, clean and chunk; its worker was replaced."""


class RunError(IngestError):
    """The run as a whole cannot go on, or refused part of its work; nothing half-done is kept."""


class LockHeld(RunError):
    """Another run holds the state's lock; `subject` is the lock file."""


class MassDeleteRefused(RunError):
    """The run would delete more documents than `max_delete` allows; nothing was deleted."""


class DamagedDatabase(RunError):
    """SQLite reports the index or state file corrupt; `subject` is the file."""


class ClusterLost(RunError):
    """The Ray cluster a run works on cannot be reached, or went away mid-run; what was written
    stays (each document is one transaction), the cursor does not move, the next run goes on."""


class ClusterSetupError(RunError):
    """A Ray cluster cannot do the run's work as configured (a plugin missing on a node); nothing
    was processed."""


class Stopped(BaseException):
    """SIGTERM or SIGINT asked the run to stop. Not an `IngestError`: nothing is wrong, and, like
    KeyboardInterrupt, it must pass through `except Exception` on its way out."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signum)


def internal_error(subject: object, exc: BaseException) -> str:
    """A bug's one-line report for a file's summary: its type and message, cut short (the repr of
    a UnicodeError holds the whole string it failed on; the traceback goes to the log)."""
    message = " ".join(str(exc).split())
    if len(message) > 200:
        message = message[:200] + "..."
    return f"{subject}: internal error ({type(exc).__name__}: {message}); please report it"
