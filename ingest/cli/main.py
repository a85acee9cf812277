"""The `ingest` command: a thin edge that validates input, calls the library, and turns
`IngestError` into a clear message and an exit code (listed below and in the README)."""

from __future__ import annotations

import json
import logging
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Literal

import click
from rich.console import Console

from ..blocks import Loaded
from ..chunk_json import chunk_to_dict
from ..chunker import ChunkOptions, chunk, chunks_with_card
from ..chunker.metrics import defects, sizes
from ..cleaners import clean
from ..config import with_executor
from ..errors import ClusterLost, ConfigError, IngestError, LockHeld, SourceUnreachable, Stopped
from ..loaders import load_file
from ..runner.pipeline import RunFlags, RunSummary
from ..runner.pipeline import run as run_pipeline
from ..runner.run_report import RunReport, write_summary_json
from ..runner.stopping import StopRequest
from ..search.hybrid import MODES, Mode, default_mode, search_mode
from ..search.principals import principals
from ..search.rerank import MAX_TOP as RERANK_MAX_TOP
from ..search.rerank import TOP as RERANK_TOP
from ..search.rerank import RerankOptions, open_cross_encoder, reranked
from ..terminal_text import printable, shown
from .file_args import expanded, written_file
from .filters import filter_options, filters_from
from .search_output import print_hits
from .settings import cleaner_option, config_option, config_or_folder, resolve_settings

err = Console(stderr=True, soft_wrap=True)


SOME_FAILED = 1
"""Exit code: the run finished, and some documents failed (each is named)."""
BAD_INPUT = 2
"""Exit code: the config or the command line is wrong; nothing ran."""
RUN_FAILED = 3
"""Exit code: the run itself failed (database damaged, mass delete refused...)."""
LOCKED = 4
"""Exit code: another run holds the state, and --wait was not given; nothing ran."""
SOURCE_UNREACHABLE = 5
"""Exit code: the source could not be listed, in whole or in part (Google unreachable, DNS,
credentials refused, a Drive folder that will not list, a local folder missing); nothing it may
still hold was deleted. Apart from SOME_FAILED, so a service can treat it as the failure it is."""
CLUSTER_LOST = 6
"""Exit code: the Ray cluster could not be reached, or was lost mid-run; what was written is whole."""
# Stopped by a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM), as a shell reports it.


def summary_code(summary: RunSummary) -> int:
    """The exit code of a run that went to its end, or was stopped by a signal."""
    if summary.stopped is not None:
        return 128 + summary.stopped
    if summary.error:
        return RUN_FAILED
    if summary.unreachable:
        return SOURCE_UNREACHABLE
    return 0 if summary.ok else SOME_FAILED


def exit_code(exc: IngestError) -> int:
    if isinstance(exc, ConfigError):
        return BAD_INPUT
    if isinstance(exc, LockHeld):
        return LOCKED
    if isinstance(exc, SourceUnreachable):
        return SOURCE_UNREACHABLE
    if isinstance(exc, ClusterLost):
        return CLUSTER_LOST
    return RUN_FAILED


def main() -> None:
    try:
        cli(standalone_mode=False)
    except click.exceptions.Abort:
        err.print("aborted")
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(BAD_INPUT)
    except IngestError as exc:  # `run` tells its own failures apart; elsewhere it is the input
        err.print(f"[red]error:[/red] {shown(str(exc))}", highlight=False)
        sys.exit(BAD_INPUT)
    except Stopped as exc:  # a second signal, or one outside a run: no traceback, the shell's code
        err.print("stopped", highlight=False)
        sys.exit(128 + exc.signum)
    except KeyboardInterrupt:  # Ctrl-C before `run` answers signals (loading the config, `chunk`)
        err.print("stopped", highlight=False)
        sys.exit(130)


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
@click.argument("config", type=click.Path(path_type=Path))
@written_file("--index", help="With a folder: the index to write  [default: out/index.sqlite]")
@click.option("--quiet", is_flag=True, help="No progress and no line per changed document: problems and the summary.")
@click.option(
    "--every",
    type=_Interval(),
    default=None,
    help="Run again this long after each run starts (e.g. 15m, 1h, 90s) until interrupted.",
)
@click.option("--wait", is_flag=True, help="If another run holds the state, wait for it instead of exiting.")
@click.option("--allow-mass-delete", is_flag=True, help="Delete what the source lost even past max_delete.")
@click.option("--reprocess", is_flag=True, help="Process every document again, changed or not.")
@click.option(
    "--log-format",
    type=click.Choice(["auto", "pretty", "text", "json"]),
    default="auto",
    show_default=True,
    help="auto: pretty on a terminal, else text (timestamped lines); json: one event a line.",
)
@written_file("--summary-json", help="Write the run's summary, failures and changes to this file as JSON.")
@click.option(
    "--executor",
    type=click.Choice(["local", "ray"]),
    default=None,
    help="Where documents are processed: local (`workers` processes) or ray (a Ray cluster)  [default: the config's]",
)
@click.option("--ray-address", default=None, metavar="auto|HOST:PORT|ray://HOST:PORT", help="The Ray cluster to use.")
def run(
    config: Path,
    index: Path | None,
    quiet: bool,
    every: float | None,
    wait: bool,
    allow_mass_delete: bool,
    reprocess: bool,
    log_format: Literal["auto", "pretty", "text", "json"],  # what the click.Choice allows
    summary_json: Path | None,
    executor: str | None,
    ray_address: str | None,
) -> None:
    """Sync the source in CONFIG into its index: changed documents only, deletions included.

    CONFIG may be a folder: it is indexed with the defaults of configs/local.yaml, no file needed."""
    cfg, steps, options = config_or_folder(config, index)
    cfg = with_executor(cfg, executor, ray_address)
    flags = RunFlags(wait=wait, allow_mass_delete=allow_mass_delete, reprocess=reprocess)
    report = RunReport.choose(log_format, quiet)
    stop = StopRequest()
    code: int | None = None  # of the last finished run
    with stop.installed():
        while True:
            started = time.monotonic()
            try:
                with report.running():
                    summary = run_pipeline(
                        cfg, steps, options, report.document, flags=flags, stop=stop, on_stage=report.stage
                    )
            except IngestError as exc:  # the folder unmounted, the state locked
                report.run_failed(exc, scheduled=every is not None)
                code = exit_code(exc)  # on a schedule it is reported, and the next run may succeed
                if summary_json:
                    write_summary_json(summary_json, None, code, str(exc))
            else:
                report.summary(summary)
                code = summary_code(summary)
                if summary_json:
                    write_summary_json(summary_json, summary, code)
                if summary.stopped is not None:
                    sys.exit(code)
            if every is None:
                sys.exit(code)
            wait_s = max(0.0, every - (time.monotonic() - started))
            report.message(logging.INFO, f"next run in {wait_s:.0f} s (Ctrl-C stops)", action="sleep")
            try:
                stop.sleep(wait_s)
            except Stopped:  # between runs nothing is in hand: stop at once, as the last run ended
                report.message(logging.WARNING, "stopped", action="stopped")
                sys.exit(code)


def _say_empty(path: Path, loaded: Loaded, report: dict) -> None:
    took = [f"{name} removed {c['blocks']} blocks" for name, c in report.items() if c.get("blocks")]
    why = "; ".join(took) if took else f"the loader found {len(loaded.blocks)} blocks"
    err.print(f"note: {path}: no chunks ({why}; see `ingest inspect {path}`)", highlight=False, markup=False)


def _chunk_options(f):
    f = click.option("--tokenizer", default=None, help="tiktoken encoding or 'chars'  [default: cl100k_base]")(f)
    f = click.option("--min-tokens", type=int, default=None, help="[default: 64]")(f)
    f = cleaner_option(config_option(f))
    return f


@cli.command("chunk")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--max-tokens", type=int, default=None, help="[default: 512]")
@click.option("--overlap-tokens", type=int, default=None, help="[default: 48]")
@click.option(
    "--cards/--no-cards",
    default=None,
    help="End each document with its card (title, properties, headers, footers, stamps)  [default: the config's, else cards]",
)
@_chunk_options
def chunk_cmd(
    paths: tuple[Path, ...],
    max_tokens: int | None,
    overlap_tokens: int | None,
    cards: bool | None,
    min_tokens: int | None,
    tokenizer: str | None,
    config: Path | None,
    cleaners: tuple[str, ...],
) -> None:
    """Print the chunks of each file (or every file a loader reads under a folder) as JSON Lines."""
    steps, options = resolve_settings(
        config,
        cleaners,
        max_tokens=max_tokens,
        min_tokens=min_tokens,
        overlap_tokens=overlap_tokens,
        tokenizer=tokenizer,
        card=cards,
    )
    failed = 0
    for path in expanded(paths):
        try:
            loaded = load_file(path)
            _say_warnings(path, loaded)
            stream, report = clean(loaded.blocks, loaded.document, steps)
            blocks = list(stream)
            chunks = 0
            for c in chunks_with_card(loaded, options, blocks):
                click.echo(json.dumps(chunk_to_dict(c), ensure_ascii=False))
                chunks += 1
            if not chunks and not loaded.warnings:  # say why, rather than print nothing
                _say_empty(path, loaded, report)
        except IngestError as exc:
            err.print(f"[red]error:[/red] {shown(str(exc))}", highlight=False)
            failed += 1
    if failed:
        sys.exit(1)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--max-tokens", default=None, help="Comma-separated budgets  [default: the config's, else 120,200,300,400,600,1000]"
)
@click.option("--overlap-tokens", default=None, help="Comma-separated overlaps  [default: the config's, else 0]")
@_chunk_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per setting.")
def stats(
    paths: tuple[Path, ...],
    max_tokens: str | None,
    overlap_tokens: str | None,
    min_tokens: int | None,
    tokenizer: str | None,
    config: Path | None,
    cleaners: tuple[str, ...],
    as_json: bool,
) -> None:
    """Size distribution and defects of the chunks, for each budget and overlap (files, or folders:
    every file a loader reads under them; each file read is named on stderr)."""
    steps, base = resolve_settings(config, cleaners, min_tokens=min_tokens, tokenizer=tokenizer)
    if max_tokens is None:
        max_tokens = str(base.max_tokens) if config is not None else "120,200,300,400,600,1000"
    if overlap_tokens is None:
        overlap_tokens = str(base.overlap_tokens) if config is not None else "0"
    min_tokens, tokenizer = base.min_tokens if min_tokens is None else min_tokens, base.tokenizer
    docs: list[tuple[Loaded, list]] = []
    read: list[str] = []
    failed = 0
    for path in expanded(paths):
        try:
            loaded = load_file(path)
            docs.append((loaded, list(clean(loaded.blocks, loaded.document, steps)[0])))
        except IngestError as exc:  # named; the other files are still measured
            err.print(f"[red]error:[/red] {shown(str(exc))}", highlight=False)
            failed += 1
            continue
        _say_warnings(path, loaded)
        err.print(f"read {printable(str(path))}", highlight=False, markup=False)
        read.append(str(path))
    rows = []
    for budget in _ints(max_tokens, "--max-tokens"):
        for overlap in _ints(overlap_tokens, "--overlap-tokens"):
            rows.append(
                _measure(docs, ChunkOptions(budget, min(min_tokens, budget), min(overlap, budget - 1), tokenizer))
            )
    if as_json:
        for row in rows:
            click.echo(json.dumps({**row, "files": read}))
        sys.exit(1 if failed else 0)
    headers = (
        "max",
        "overlap",
        "n",
        "min",
        "p50",
        "p90",
        "max",
        "over",
        "mid-sentence",
        "orphan-rows",
        "headerless",
        "separated",
        "stored",
    )
    lines = [headers]
    for r in rows:
        s, d = r["sizes"], r["defects"]
        lines.append(
            (
                r["max_tokens"],
                r["overlap_tokens"],
                s["n"],
                s["min"],
                s["p50"],
                s["p90"],
                s["max"],
                s["over_target"],
                d["end_mid_sentence"],
                d["orphaned_table_rows"],
                d["headerless_table_pieces"],
                f"{d['separated_pairs']}/{d['sentence_pairs']}",
                f"{d['stored_ratio']:.2f}x",
            )
        )
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(headers))]
    for line in lines:  # plain columns: readable in a terminal, a pipe or a log alike
        click.echo("  ".join(str(v).rjust(w) for v, w in zip(line, widths)))
    if failed:
        sys.exit(1)


def _say_warnings(path: Path, loaded: Loaded) -> None:
    for warning in loaded.warnings:  # an encoding guessed, an empty file: named, as a run names them
        err.print(f"warning: {printable(str(path))}: {printable(warning)}", highlight=False, markup=False)


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
        "max_tokens": options.max_tokens,
        "overlap_tokens": options.overlap_tokens,
        "tokenizer": options.tokenizer,
        "sizes": asdict(sizes(counts, options.max_tokens)),
        "defects": totals,
    }


def _readers(as_user: str | None, groups: str) -> tuple[str, ...] | None:
    """What `--as` (and `--groups`) match. Given at all, --as narrows: a value that is not one
    e-mail address is a usage error on one line (exit 2, nothing searched), never "no filter"."""
    if as_user is None:
        return None
    try:
        return principals(as_user, groups.split(",") if groups else ())
    except ConfigError as exc:
        err.print(f"[red]error:[/red] {shown(str(exc))}", highlight=False)
        raise SystemExit(BAD_INPUT) from exc


@cli.command("search")
@click.argument("query")
@click.option("--index", default="out/index.sqlite", show_default=True, type=click.Path(path_type=Path))
@click.option("-k", default=5, show_default=True, type=click.IntRange(1, 100))
@click.option(
    "--window",
    default=1,
    show_default=True,
    type=click.IntRange(0, 20),
    help="Neighbouring chunks to add on each side.",
)
@click.option("--json", "as_json", is_flag=True)
@click.option("--as", "as_user", metavar="EMAIL", help="Only what this person may open (Drive readers).")
@click.option("--groups", default="", metavar="A@X,B@X", help="With --as: the groups the person is in.")
@click.option(
    "--mode",
    type=click.Choice(MODES),
    help="bm25: words; vector: meaning (needs an index built with `embedder:`); hybrid: both, rank-fused. "
    "Default: hybrid when the index holds vectors (and with --config), else bm25 "
    "(on PostgreSQL, bm25 ranks by its full-text ts_rank).",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Search the index this job writes (its pgvector sink) instead of --index.",
)
@click.option(
    "--rerank",
    "rerank_model",
    metavar="FOLDER",
    type=click.Path(path_type=Path),
    help="Reorder the first stage's top hits by the cross-encoder in FOLDER (model.onnx and tokenizer.json); "
    "each hit shows its score.",
)
@click.option(
    "--rerank-top",
    default=RERANK_TOP,
    show_default=True,
    type=click.IntRange(1, RERANK_MAX_TOP),
    help="With --rerank: how many first-stage hits it rereads.",
)
@click.option(
    "--exact",
    is_flag=True,
    help="Vector and hybrid: compare the query with every vector, not the HNSW index beside a large index "
    "(`search: {ann: ...}`); slower at scale, misses nothing.",
)
@filter_options
def search_cmd(
    query: str,
    index: Path,
    k: int,
    window: int,
    as_json: bool,
    as_user: str | None,
    groups: str,
    mode: Mode | None,
    config_path: Path | None,
    rerank_model: Path | None,
    rerank_top: int,
    exact: bool,
    **filter_flags,
) -> None:
    """Best chunks for QUERY (BM25, heading path weighted above the body, or --mode vector|hybrid), with their citation."""
    if groups and as_user is None:
        raise click.BadParameter("needs --as (whose groups they are)", param_hint="--groups")
    if rerank_top != RERANK_TOP and rerank_model is None:
        raise click.BadParameter("needs --rerank (the cross-encoder that rereads them)", param_hint="--rerank-top")
    if exact and config_path is not None:
        raise click.BadParameter(
            "is for the SQLite index (--index); a pgvector job's HNSW index is PostgreSQL's", param_hint="--exact"
        )
    readers = _readers(as_user, groups)
    filters = filters_from(**filter_flags)
    encoder = None
    if rerank_model is not None:
        encoder = open_cross_encoder(RerankOptions(model=rerank_model, top=rerank_top))  # before the index is read
    depth = max(k, rerank_top) if encoder else k
    if config_path is not None:
        from .pgvector import search_job

        hits = search_job(
            config_path, query, k=depth, window=window, readers=readers, mode=mode or "hybrid", filters=filters
        )
    else:
        mode = mode or default_mode(index)
        hits = search_mode(index, query, mode, k=depth, window=window, readers=readers, filters=filters, exact=exact)
    if encoder is not None:
        hits = reranked(query, hits, encoder, rerank_top)[:k]
    for rank, hit in enumerate(hits, 1) if as_json else ():
        click.echo(
            json.dumps(
                {
                    "rank": rank,
                    "score": hit.score,
                    "ranked_by": hit.ranked_by,
                    "citation": hit.citation,
                    "url": hit.chunk.url,
                    "context": hit.context,
                    "chunk": chunk_to_dict(hit.chunk),
                },
                ensure_ascii=False,
            )
        )
    if not as_json:
        print_hits(hits, Console())
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


from .plugins import plugins_cmd  # noqa: E402  (commands in their own modules)

cli.add_command(plugins_cmd)

from .inspect import inspect_cmd  # noqa: E402

cli.add_command(inspect_cmd)

from .eval import eval_cmd  # noqa: E402

cli.add_command(eval_cmd)
