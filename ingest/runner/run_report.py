"""What `ingest run` tells its reader, in one of three forms:

- `pretty` (a terminal): a progress bar, failures and warnings as they happen, a summary;
- `text` (the default off a terminal, as under systemd or cron): one line an event on stderr,
  with a UTC timestamp and a level;
- `json`: one JSON object an event on stderr (`document`, `action`, `reason`, `duration_s`...).

The summary table goes to stdout in every form; `--summary-json FILE` writes the run's summary,
its failures and the list of what it changed to FILE. File names are text from strangers: every
control character in them (a terminal escape sequence, a bidi override) is shown escaped.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..errors import IngestError
from ..terminal_text import printable, shown
from .pipeline import DocResult, RunSummary, Stage, cleaning_warnings

Format = Literal["pretty", "text", "json"]

_LEVELS = {
    "changed": logging.INFO,
    "deleted": logging.INFO,
    "unchanged": logging.DEBUG,
    "skipped": logging.INFO,
    "failed": logging.ERROR,
}


@dataclass
class RunReport:
    format: Format
    quiet: bool = False
    err: Console = field(default_factory=lambda: Console(stderr=True, soft_wrap=True, highlight=False))
    out: Console = field(default_factory=lambda: Console(highlight=False))
    _progress: Progress | None = None
    _task: Any = None

    @classmethod
    def choose(cls, requested: Format | Literal["auto"], quiet: bool) -> RunReport:
        err = Console(stderr=True, soft_wrap=True, highlight=False)
        fmt: Format = ("pretty" if err.is_terminal else "text") if requested == "auto" else requested
        return cls(fmt, quiet, err)

    # -- events ------------------------------------------------------------------------------

    def stage(self, stage: Stage) -> None:
        """Where the run is: the progress bar gets its total once the listing is known, and says
        what it waits for (the listing, the embedder's model) rather than stand at `0/?`."""
        if self._progress is None:
            return
        if stage.doing == "listing":
            self._progress.update(self._task, description="listing the source...")
        elif stage.doing == "listed":
            self._progress.update(self._task, total=stage.total, description="listed")
        else:
            self._progress.update(self._task, description=f"loading the embedder {shown(stage.detail)}...")

    def document(self, result: DocResult) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=shown(result.name))
            task = self._progress.tasks[0]
            if task.total is not None and task.completed > task.total:  # deletions come beyond the listing
                self._progress.update(self._task, total=task.completed)
        level = _LEVELS[result.status]  # a type no loader reads: named with its type, every run
        if result.status == "skipped" and not result.error.startswith("no loader"):
            level = logging.WARNING  # a link not followed, a file the source will not read
        reason = result.error + (" (tried again next run)" if result.retry else "")
        if self.quiet and level < logging.WARNING:
            pass  # --quiet: failures, skips and warnings only
        elif self.format == "pretty":
            if result.status == "failed":
                self._say(f"[red]failed[/red] {shown(reason)}")
            elif level == logging.WARNING:
                self._say(f"[yellow]skipped[/yellow] {shown(result.name)}: {shown(reason)}")
        else:
            self._event(
                level,
                result.status,
                _describe(result, reason),
                document=result.doc_id,
                name=result.name,
                reason=reason,
                duration_s=result.seconds,
                chunks=result.chunks,
                **({"type": result.kind} if result.status == "skipped" else {}),
            )
        for warning in result.warnings:
            if self.format == "pretty":
                self._say(f"[yellow]warning[/yellow] {shown(result.name)}: {shown(warning)}")
            else:
                self._event(
                    logging.WARNING,
                    "warning",
                    f"warning {result.name}: {warning}",
                    document=result.doc_id,
                    name=result.name,
                    reason=warning,
                )

    def message(self, level: int, text: str, **fields: Any) -> None:
        label = fields.pop("label", None)  # the word a terminal shows before it, where not the level's
        if self.format == "pretty":
            colour = {logging.ERROR: "red", logging.WARNING: "yellow"}.get(level)
            word = label or {logging.ERROR: "error", logging.WARNING: "note"}.get(level, "")
            prefix = f"[{colour}]{word}:[/{colour}] " if colour else ""
            self._say(prefix + shown(text))
        else:
            self._event(level, fields.pop("action", "message"), text, **fields)

    @contextmanager
    def running(self) -> Iterator[RunReport]:
        """Show progress (on a terminal) and take the library's log records while inside."""
        handler = _Forward(self)
        library = logging.getLogger("ingest")
        level, propagate = library.level, library.propagate
        library.addHandler(handler)
        library.setLevel(logging.INFO)
        library.propagate = False
        show = self.format == "pretty" and not self.quiet and self.err.is_terminal
        try:
            if show:
                with Progress(
                    SpinnerColumn(),
                    TextColumn("{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeElapsedColumn(),
                    TextColumn("eta"),
                    TimeRemainingColumn(),
                    console=self.err,
                    transient=True,
                ) as progress:
                    self._progress, self._task = progress, progress.add_task("starting...", total=None)
                    yield self
            else:
                yield self
        finally:
            self._progress = None
            library.removeHandler(handler)
            library.setLevel(level)
            library.propagate = propagate

    # -- the end of a run ----------------------------------------------------------------------

    def summary(self, summary: RunSummary) -> None:
        table = Table(title="ingest run", show_header=False, box=None)
        for label, value in (
            ("documents seen", summary.seen),
            ("changed", summary.changed),
            ("unchanged", summary.unchanged),
            ("deleted", summary.deleted),
            ("failed", summary.failed),
            ("skipped", _skipped_row(summary)),
            ("warnings", summary.warnings),
            ("chunks written", summary.chunks_written),
            *_removed_rows(summary),
            ("time", f"{summary.seconds:.2f} s"),
            *_embedding_rows(summary),
        ):
            table.add_row(label, str(value))
        self.out.print(table)
        if summary.stopped is not None:
            self.message(
                logging.WARNING,
                f"stopped ({signal.Signals(summary.stopped).name}) after {summary.seen} "
                f"document(s): {summary.changed} changed, {summary.unchanged} unchanged, {summary.failed} "
                "failed; nothing was deleted, and the next run picks up the rest",
                action="stopped",
            )
        for note in summary.notes:
            self.message(logging.WARNING, note, action="note")
        for warning in summary.heavy:  # a cleaner that took most of a document: worth a look
            self.message(logging.WARNING, warning, action="heavy_cleaning", label="warning")
        if summary.error:
            self.message(logging.ERROR, f"run failed: {summary.error}", action="run_failed")
        if summary.unreachable:
            self.message(
                logging.ERROR,
                f"the source could not be listed ({len(summary.unreachable)} place(s)): "
                f"{'; '.join(summary.unreachable)}. Nothing it may still hold was deleted",
                action="source_unreachable",
            )
        if self.format == "pretty" and not self.quiet and summary.skipped_files:
            self._say(_skipped_names(summary.skipped_files))
        if self.format == "pretty" and summary.failures:
            self._say(f"[red]{summary.failed} document(s) failed:[/red]")
            for failure in summary.failures:
                again = " (tried again next run)" if failure.retry else ""
                self._say(f"  {shown(failure.error)}{again}")
        if self.format != "pretty":
            self._event(
                logging.INFO if summary.ok else logging.WARNING, "summary", _one_line(summary), **_counts(summary)
            )

    def run_failed(self, exc: IngestError, scheduled: bool) -> None:
        self.message(logging.ERROR, f"{'run failed' if scheduled else 'error'}: {exc}", action="run_failed")

    # -- output ----------------------------------------------------------------------------------

    def _say(self, markup: str) -> None:
        console = self._progress.console if self._progress is not None else self.err
        console.print(markup, highlight=False)

    def _event(self, level: int, action: str, text: str, **fields: Any) -> None:
        if level < logging.INFO:
            return
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        name = logging.getLevelName(level)
        if self.format == "json":
            line = json.dumps({"time": stamp, "level": name.lower(), "action": action, "message": text, **fields})
        else:
            line = f"{stamp} {name} {printable(text)}"
        self.err.file.write(line + "\n")
        self.err.file.flush()


class _Forward(logging.Handler):
    """The library's log records (a lock waited for, an internal error) as report messages."""

    def __init__(self, report: RunReport) -> None:
        super().__init__(logging.INFO)
        self.report = report

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        self.report.message(record.levelno, text, action=getattr(record, "action", "log"))


def _describe(result: DocResult, reason: str) -> str:
    if result.status == "changed":
        return (
            f"changed {result.name} ({result.chunks} chunk{'' if result.chunks == 1 else 's'}, {result.seconds:.2f} s)"
        )
    if result.status == "failed":
        return f"failed {reason}"
    if result.status == "skipped":
        return f"skipped {result.name}: {reason}"
    return f"{result.status} {result.name}"


def _counts(summary: RunSummary) -> dict[str, Any]:
    return {
        "seen": summary.seen,
        "changed": summary.changed,
        "unchanged": summary.unchanged,
        "deleted": summary.deleted,
        "failed": summary.failed,
        "skipped": summary.skipped,
        "warnings": summary.warnings,
        "chunks_written": summary.chunks_written,
        "skipped_by_type": skipped_by_type(summary.skipped_files),
        "duration_s": summary.seconds,
        "embedding_s": summary.embedding_s,
        "embedder_load_s": summary.embedder_load_s,
        "unreachable": list(summary.unreachable),
        "stopped": signal.Signals(summary.stopped).name if summary.stopped is not None else None,
        "error": summary.error or None,
    }


def _one_line(summary: RunSummary) -> str:
    c = _counts(summary)
    return (
        f"run {'finished' if summary.stopped is None else 'stopped'}: {c['seen']} seen, {c['changed']} changed, "
        f"{c['unchanged']} unchanged, {c['deleted']} deleted, {c['failed']} failed, {c['skipped']} skipped, "
        f"{c['warnings']} warnings, {c['chunks_written']} chunks in {c['duration_s']:.2f} s"
    )


def write_summary_json(path: Path, summary: RunSummary | None, exit_code: int, error: str = "") -> None:
    """The run's summary as one JSON document at `path`, replaced atomically (a reader never sees
    half of it): counts, exit code, failures, warnings, and what changed."""
    record: dict[str, Any] = {"finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "exit_code": exit_code}
    if summary is None:
        record.update(error=error)
    else:
        record.update(_counts(summary))
        record["notes"] = list(summary.notes)
        record["failures"] = [
            {"document": f.doc_id, "name": f.name, "reason": f.error, "retry": f.retry} for f in summary.failures
        ]
        record["changes"] = [
            {"document": r.doc_id, "name": r.name, "action": r.status, "chunks": r.chunks} for r in summary.changes
        ]
        record["warning_list"] = [  # as many as `warnings` counts: the loaders', then the cleaners'
            # named by path too: a Drive document's id and link name the file for a machine only
            {"document": r.doc_id, "name": r.name, "warning": w}
            for r in summary.changes
            for w in (*r.warnings, *cleaning_warnings(r))
        ]
        record["skipped_list"] = [
            {"document": r.doc_id, "name": r.name, "type": r.kind, "reason": r.error} for r in summary.skipped_files
        ]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=2)
        handle.write("\n")
    os.replace(tmp, path)


def _removed_rows(summary: RunSummary) -> list[tuple[str, str]]:
    """One row per cleaner that removed anything: its totals over the documents processed."""
    totals: dict[str, list[int]] = {}
    for per_doc in summary.removed.values():
        for name, c in per_doc.items():
            t = totals.setdefault(name, [0, 0])
            t[0] += c["blocks"]
            t[1] += c["chars"]
    return [(f"removed by {name}", f"{b} blocks, {ch} characters") for name, (b, ch) in totals.items() if b or ch]


def skipped_by_type(skipped: tuple[DocResult, ...]) -> dict[str, int]:
    """How many files were skipped of each type, most first (then by type)."""
    counts: dict[str, int] = {}
    for r in skipped:
        counts[r.kind or "other"] = counts.get(r.kind or "other", 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _skipped_row(summary: RunSummary) -> str:
    """`4: .pptx 2, .html 1, link 1`: the count, then by type."""
    by_type = skipped_by_type(summary.skipped_files)
    if not by_type:
        return str(summary.skipped)
    return f"{summary.skipped}: " + ", ".join(f"{shown(kind)} {n}" for kind, n in by_type.items())


SKIPPED_NAMED = 10
"""How many skipped files a terminal summary names; the log and --summary-json name them all."""


def _skipped_names(skipped: tuple[DocResult, ...]) -> str:
    shown_here = [f"  {shown(r.name)}: {shown(r.error)}" for r in skipped[:SKIPPED_NAMED]]
    more = len(skipped) - SKIPPED_NAMED
    tail = [f"  ... and {more} more (--summary-json lists them all)"] if more > 0 else []
    return "\n".join([f"[yellow]skipped {len(skipped)} file(s):[/yellow]", *shown_here, *tail])


def _embedding_rows(summary: RunSummary) -> list[tuple[str, str]]:
    """The embedding's share of the run's time, apart: it is often most of it."""
    if summary.embedding_s is None:
        return []
    load = f" (loading the model {summary.embedder_load_s:.2f} s)" if summary.embedder_load_s is not None else ""
    rest = max(0.0, summary.seconds - summary.embedding_s)
    return [("embedding", f"{summary.embedding_s:.2f} s{load}"), ("the rest", f"{rest:.2f} s")]
