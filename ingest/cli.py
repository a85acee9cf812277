"""The `ingest` command: a thin edge that validates input, calls the library, and turns
`IngestError` into a clear message and an exit code (1: some documents failed, 2: bad input)."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from .blocks import Loaded
from .chunk_json import chunk_to_dict
from .chunker import ChunkOptions, chunk
from .chunker.metrics import defects, sizes
from .cleaners import build_chain, clean
from .config import load_config
from .errors import IngestError
from .loaders import load_file
from .pipeline import DocResult, RunSummary, run as run_pipeline
from .search import principals, search as search_index

err = Console(stderr=True, soft_wrap=True)


def main() -> None:
    try:
        cli(standalone_mode=False)
    except click.exceptions.Abort:
        err.print("aborted")
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except IngestError as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        sys.exit(2)


@click.group()
@click.version_option(package_name="ingest")
def cli() -> None:
    """Turn documents into clean, structure-preserving chunks for search and RAG."""


class _Interval(click.ParamType):
    """A duration: seconds, or a number with s, m, h or d."""

    name = "duration"
    _UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

    def convert(self, value, param, ctx) -> float:
        if isinstance(value, (int, float)):
            return float(value)
        text = str(value).strip().lower()
        unit = self._UNITS.get(text[-1:], None)
        try:
            seconds = float(text[:-1] if unit else text) * (unit or 1)
        except ValueError:
            self.fail(f"{value!r} is not a duration such as 90s, 15m or 1h", param, ctx)
        if seconds <= 0:
            self.fail("must be more than zero", param, ctx)
        return seconds


@cli.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--quiet", is_flag=True, help="No progress, summary only.")
@click.option("--every", type=_Interval(), default=None,
              help="Run again this long after each run starts (e.g. 15m, 1h, 90s) until interrupted.")
def run(config: Path, quiet: bool, every: float | None) -> None:
    """Sync the source in CONFIG into its index: changed documents only, deletions included."""
    cfg, steps, options = load_config(config)
    summary: RunSummary | None = None
    try:
        while True:
            started = time.monotonic()
            if every is None:
                summary = _run_once(cfg, steps, options, quiet)
                break
            try:
                summary = _run_once(cfg, steps, options, quiet)
            except IngestError as exc:  # the folder unmounted, the state locked: try again next time
                err.print(f"[red]run failed:[/red] {exc}", highlight=False)
                summary = _FAILED_RUN
            # On a schedule a failing document is reported, not fatal: the next run may fetch it.
            wait = max(0.0, every - (time.monotonic() - started))
            err.print(f"next run in {wait:.0f} s (Ctrl-C stops)", highlight=False)
            time.sleep(wait)
    except KeyboardInterrupt:  # what each document's transaction committed stays; the rest waits
        err.print("stopped", highlight=False)
        if summary is None:
            sys.exit(130)
    sys.exit(0 if summary.ok else 1)


_FAILED_RUN = RunSummary(seen=0, changed=0, unchanged=0, deleted=0, failed=1, skipped=0, chunks_written=0,
                         seconds=0.0, failures=())
"""What a scheduled run that raised counts as: failed, so Ctrl-C after it exits with 1."""


def _run_once(cfg, steps, options, quiet: bool) -> RunSummary:
    show_progress = not quiet and err.is_terminal
    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=err, disable=not show_progress, transient=True,
    ) as progress:
        task = progress.add_task("ingesting", total=None)

        def on_result(result: DocResult) -> None:
            progress.update(task, advance=1, description=result.name)
            if result.status == "failed":
                progress.console.print(f"[red]failed[/red] {result.error}", highlight=False)

        summary = run_pipeline(cfg, steps, options, on_result)
    table = Table(title="ingest run", show_header=False, box=None)
    for label, value in (
        ("documents seen", summary.seen), ("changed", summary.changed), ("unchanged", summary.unchanged),
        ("deleted", summary.deleted), ("failed", summary.failed), ("skipped (no loader)", summary.skipped),
        ("chunks written", summary.chunks_written), ("time", f"{summary.seconds:.2f} s"),
    ):
        table.add_row(label, str(value))
    Console().print(table)
    for note in summary.notes:
        err.print(f"note: {note}", highlight=False)
    if summary.failures:
        err.print(f"[red]{summary.failed} document(s) failed:[/red]")
        for failure in summary.failures:
            again = " (tried again next run)" if failure.retry else ""
            err.print(f"  {failure.error}{again}", highlight=False)
    return summary


def _chunk_options(f):
    f = click.option("--tokenizer", default="cl100k_base", show_default=True, help="tiktoken encoding or 'chars'.")(f)
    f = click.option("--min-tokens", type=int, default=64, show_default=True)(f)
    return f


@cli.command("chunk")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--max-tokens", type=int, default=512, show_default=True)
@click.option("--overlap-tokens", type=int, default=48, show_default=True)
@_chunk_options
def chunk_cmd(paths: tuple[Path, ...], max_tokens: int, overlap_tokens: int, min_tokens: int, tokenizer: str) -> None:
    """Print the chunks of each file as JSON Lines."""
    options = ChunkOptions(max_tokens, min(min_tokens, max_tokens), overlap_tokens, tokenizer)
    steps = build_chain([])
    failed = 0
    for path in paths:
        try:
            loaded = load_file(path)
            blocks = list(clean(loaded.blocks, loaded.document, steps)[0])
            for c in chunk(loaded, options, blocks):
                click.echo(json.dumps(chunk_to_dict(c), ensure_ascii=False))
        except IngestError as exc:
            err.print(f"[red]error:[/red] {exc}", highlight=False)
            failed += 1
    if failed:
        sys.exit(1)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--max-tokens", default="120,200,300,400,600,1000", show_default=True, help="Comma-separated budgets.")
@click.option("--overlap-tokens", default="0", show_default=True, help="Comma-separated overlaps.")
@_chunk_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per setting.")
def stats(paths: tuple[Path, ...], max_tokens: str, overlap_tokens: str, min_tokens: int, tokenizer: str, as_json: bool) -> None:
    """Size distribution and defects of the chunks, for each budget and overlap."""
    steps = build_chain([])
    docs: list[tuple[Loaded, list]] = []
    for path in paths:
        loaded = load_file(path)
        docs.append((loaded, list(clean(loaded.blocks, loaded.document, steps)[0])))
    rows = []
    for budget in _ints(max_tokens, "--max-tokens"):
        for overlap in _ints(overlap_tokens, "--overlap-tokens"):
            rows.append(_measure(docs, ChunkOptions(budget, min(min_tokens, budget), min(overlap, budget - 1), tokenizer)))
    if as_json:
        for row in rows:
            click.echo(json.dumps(row))
        return
    headers = ("max", "overlap", "n", "min", "p50", "p90", "max", "over", "mid-sentence",
               "orphan-rows", "headerless", "separated", "stored")
    lines = [headers]
    for r in rows:
        s, d = r["sizes"], r["defects"]
        lines.append((
            r["max_tokens"], r["overlap_tokens"], s["n"], s["min"], s["p50"], s["p90"], s["max"],
            s["over_target"], d["end_mid_sentence"], d["orphaned_table_rows"], d["headerless_table_pieces"],
            f"{d['separated_pairs']}/{d['sentence_pairs']}", f"{d['stored_ratio']:.2f}x",
        ))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(headers))]
    for line in lines:  # plain columns: readable in a terminal, a pipe or a log alike
        click.echo("  ".join(str(v).rjust(w) for v, w in zip(line, widths)))


def _measure(docs: list[tuple[Loaded, list]], options: ChunkOptions) -> dict:
    counts: list[int] = []
    totals: dict[str, float] = {}
    stored = length = 0
    for loaded, blocks in docs:
        chunks = list(chunk(loaded, options, blocks))
        counts.extend(c.token_count for c in chunks)
        d = defects(loaded.text, blocks, chunks)
        for key, value in asdict(d).items():
            if key != "stored_ratio":
                totals[key] = totals.get(key, 0) + value
        stored += sum(len(c.text) for c in chunks)
        length += len(loaded.text) if loaded.text is not None else sum(len(b.text) for b in blocks)
    totals["stored_ratio"] = round(stored / max(length, 1), 3)
    return {
        "max_tokens": options.max_tokens, "overlap_tokens": options.overlap_tokens,
        "tokenizer": options.tokenizer, "sizes": asdict(sizes(counts, options.max_tokens)), "defects": totals,
    }


@cli.command("search")
@click.argument("query")
@click.option("--index", default="out/index.sqlite", show_default=True, type=click.Path(path_type=Path))
@click.option("-k", default=5, show_default=True, type=click.IntRange(1, 100))
@click.option("--window", default=1, show_default=True, type=click.IntRange(0, 20), help="Neighbouring chunks to add on each side.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--as", "as_user", metavar="EMAIL", help="Only what this person may open (Drive readers).")
@click.option("--groups", default="", metavar="A@X,B@X", help="With --as: the groups the person is in.")
def search_cmd(query: str, index: Path, k: int, window: int, as_json: bool, as_user: str | None, groups: str) -> None:
    """Best chunks for QUERY (BM25, heading path weighted above the body), with their citation."""
    if groups and not as_user:
        raise click.BadParameter("needs --as (whose groups they are)", param_hint="--groups")
    readers = principals(as_user, tuple(groups.split(","))) if as_user else None
    hits = search_index(index, query, k=k, window=window, readers=readers)
    out = Console()
    for rank, hit in enumerate(hits, 1):
        if as_json:
            click.echo(json.dumps({"rank": rank, "score": hit.score, "citation": hit.citation, "url": hit.chunk.url,
                                   "context": hit.context, "chunk": chunk_to_dict(hit.chunk)}, ensure_ascii=False))
            continue
        out.rule(f"{rank}. {hit.citation}  [dim](score {hit.score:.2f})[/dim]")
        if hit.chunk.url:
            out.print(hit.chunk.url, highlight=False, markup=False, soft_wrap=True)
        out.print(hit.context, highlight=False, markup=False)
    if not hits and not as_json:
        err.print("no matches")


def _ints(value: str, option: str) -> list[int]:
    try:
        numbers = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated whole numbers, got {value!r}", param_hint=option) from None
    if not numbers or min(numbers) < 0:
        raise click.BadParameter("give at least one number, none negative", param_hint=option)
    return numbers
