"""`ingest inspect FILE`: what each cleaner removed or changed, on a terminal, as JSON or HTML."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from ..errors import IngestError
from ..inspect import Inspection, as_json, inspect_document, segments
from ..inspect_html import render
from ..loaders import load_file
from ..terminal_text import printable
from .file_args import expanded, written_file
from .settings import cleaner_option, config_option, resolve_settings

# Rich colour names in the order of the HTML palette (red, blue, green, yellow, ...).
_TERMINAL = ("red", "blue", "green", "yellow", "magenta", "dark_orange", "cyan", "deep_pink3", "grey50")


@click.command("inspect")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@config_option
@cleaner_option
@written_file("--html", "html_out", help="Write one self-contained HTML page here.")
@click.option("--json", "as_json_flag", is_flag=True, help="One JSON object: blocks, removals, chunks, counts.")
@click.option("--changes-only", is_flag=True, help="On the terminal, only the blocks a cleaner touched.")
def inspect_cmd(
    paths: tuple[Path, ...],
    config: Path | None,
    cleaners: tuple[str, ...],
    html_out: Path | None,
    as_json_flag: bool,
    changes_only: bool,
) -> None:
    """Show the blocks of each file after loading and what each cleaner removed or changed.

    A folder stands for every file a loader reads under it: each is shown under its name (with
    --json, one object a line, its `document` naming it)."""
    steps, options = resolve_settings(config, cleaners)
    files = expanded(paths)
    if html_out is not None and len(files) > 1:
        raise click.BadParameter(f"writes one page: give one file, not {len(files)}", param_hint="--html")
    out = Console(highlight=False)
    failed = 0
    for path in files:
        try:
            inspection = inspect_document(load_file(path), steps, options)
        except IngestError as exc:  # named; the other files are still shown
            click.echo(f"error: {printable(str(exc))}", err=True)
            failed += 1
            continue
        if html_out is not None:
            html_out.write_text(render(inspection), encoding="utf-8")
            click.echo(f"wrote {html_out}", err=True)
        if as_json_flag:
            click.echo(json.dumps(as_json(inspection), ensure_ascii=False))
        elif html_out is None:
            if len(files) > 1:
                out.rule()  # then the name whole: a rule's title is cut at the terminal's width
                out.print(Text(printable(str(path)), style="bold"), soft_wrap=True)
            show(inspection, out, changes_only)
    if failed:
        sys.exit(1)


def show(inspection: Inspection, out: Console, changes_only: bool = False) -> None:
    colour = {n: _TERMINAL[i % len(_TERMINAL)] for i, n in enumerate(inspection.cleaners)}
    for traced in inspection.blocks:
        if changes_only and not (traced.removed_by or traced.removals or traced.changed_by):
            continue
        b = traced.block
        where = f"#{traced.index} {b.kind}" + (f" ({b.layer})" if b.layer != "body" else "")
        where += f" p.{b.page}" if b.page is not None else ""
        where += f" y {b.bbox[1]:.0f}" if b.bbox is not None else ""
        decided = (b.meta or {}).get("pdf_pass")
        where += f" by {decided}" if decided else ""  # the PDF reader's pass that made it this kind
        line = Text(f"{where}  ", style="dim")
        labels = []
        for run, cleaner in segments(traced):
            if cleaner:
                line.append(run, style=f"strike dim {colour.get(cleaner, 'grey50')}")
                if cleaner not in labels:
                    labels.append(cleaner)
            else:
                line.append(run)
        for cleaner in labels:  # labelled in words too: strike-through is lost in a pipe or a log
            line.append(
                f"  [{'removed' if cleaner == traced.removed_by else 'cut'} by {cleaner}]",
                style=f"bold {colour.get(cleaner, 'grey50')}",
            )
        for cleaner in traced.changed_by:
            if cleaner not in labels:
                line.append(f"  [changed by {cleaner}]", style=f"italic {colour.get(cleaner, 'grey50')}")
        out.print(line)
    out.rule("what each cleaner did")
    for name in inspection.cleaners:
        c = inspection.counts[name]
        out.print(
            Text(
                f"{name}: {c['blocks_removed']} blocks removed, {c['blocks_changed']} changed, "
                f"{c['chars_removed']} characters removed",
                style=colour[name],
            )
        )
    for warning in inspection.loaded.warnings:
        out.print(Text(f"loader warning: {warning}", style="yellow"))
    out.print(f"{len(inspection.chunks)} chunks")
