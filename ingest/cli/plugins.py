"""`ingest plugins`: what this installation can load, clean with, write to and read from."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from ..plugin_list import listing


@click.command("plugins")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per plugin.")
def plugins_cmd(as_json: bool) -> None:
    """List every loader, cleaner, sink, source and embedder, with where each comes from."""
    items = sorted(listing(), key=lambda p: ("loader", "cleaner", "sink", "source", "embedder").index(p.kind))
    if as_json:
        for item in items:
            click.echo(json.dumps(asdict(item)))
        return
    kind = ""
    for item in items:
        if item.kind != kind:
            kind = item.kind
            click.echo(f"\n{kind}s:" if kind != "loader" else f"{kind}s:")
        click.echo(f"  {item.name}  ({item.origin})")
        for key, value in item.details.items():
            click.echo(f"      {key}: {value}")
        if item.error:
            click.echo(f"      error: {item.error}")
