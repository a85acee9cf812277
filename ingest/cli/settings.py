"""What `ingest chunk`, `stats` and `inspect` clean and chunk with: a config file's chunker and
cleaners (`--config`), cleaners named on the command line (`--cleaner`), then explicit flags."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from .. import registry
from ..chunker import ChunkOptions
from ..cleaners import Step, build_chain, parse_cleaner_arg
from ..config import load_chunk_settings, load_config
from ..errors import ConfigError, IngestError


def cleaner_option(f):
    return click.option(
        "--cleaner",
        "cleaners",
        multiple=True,
        metavar="NAME[:JSON]",
        help="A cleaner to run (built in, installed, or module:attr), with options as JSON "
        '(running_headers:{"min_pages": 3}) or :false to switch one off. Repeatable.',
    )(f)


def config_option(f):
    return click.option(
        "--config",
        "config",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=None,
        help="Take the chunker and cleaners of this config file (a run's config, or one of `chunker:` and `cleaners:` alone).",
    )(f)


def resolve_settings(
    config: Path | None, cleaners: Iterable[str], **chunker: Any
) -> tuple[tuple[Step, ...], ChunkOptions]:
    """The cleaner chain and chunk options; `chunker` holds the flags given (None: not given)."""
    items: dict[str, Any] = {}
    base = None
    options = ChunkOptions()
    if config is not None:
        configured, options = load_chunk_settings(config)
        items.update(configured)
        base = config.parent
    try:
        for text in cleaners:  # the command line's word wins over the config's, in the config's place
            name, value = parse_cleaner_arg(text)
            if ":" in name:
                registry.import_attr(name, Path.cwd())  # importable from where the command runs
            items[name] = value
        steps = build_chain(items.items(), base)
    except IngestError as exc:
        raise ConfigError(str(exc), subject="--cleaner" if config is None else str(config)) from exc
    merged = {**asdict(options), **{k: v for k, v in chunker.items() if v is not None}}
    merged["min_tokens"] = min(merged["min_tokens"], merged["max_tokens"])
    return steps, ChunkOptions(**merged)


def config_or_folder(path: Path, index: Path | None):
    """`ingest run`'s argument: a config file, or a folder to index with the defaults of
    `configs/local.yaml` (into `--index`, default out/index.sqlite, its state beside it)."""
    from ..config import parse_config

    if not path.is_dir():
        if index is not None:
            raise click.BadParameter(
                "--index goes with a folder; a config file names its own sink", param_hint="--index"
            )
        return load_config(path)
    index = index or Path("out/index.sqlite")
    state = Path("out/state.sqlite") if index == Path("out/index.sqlite") else index.with_suffix(".state.sqlite")
    raw = {
        "source": {"local": {"path": str(path)}},
        "sink": {"sqlite": str(index)},
        "state": str(state),
        "chunker": {"max_tokens": 512, "min_tokens": 64, "overlap_tokens": 48, "tokenizer": "cl100k_base"},
        "embedder": {"name": "minilm"},
    }
    return parse_config(raw, origin=str(path))
