"""`ingest search --config JOB`: search the index a job's pgvector sink writes, with its embedder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..config import load_config
from ..embedders import EmbedderConfig, load
from ..errors import ConfigError
from ..plugin_stages import plugin_options, with_job_embedder
from ..search.bm25 import Hit
from ..search.filters import Filters
from ..sinks.pgvector_options import PgvectorOptions

if TYPE_CHECKING:
    from ..sinks.pgvector_search import Mode

# The command's --mode names, as the pgvector search calls them (its full-text ranking is not BM25).
_MODES: dict[str, Mode] = {"bm25": "keyword", "vector": "vector", "hybrid": "hybrid"}


def search_job(
    config_path: Path,
    query: str,
    k: int,
    window: int,
    readers: tuple[str, ...] | None,
    mode: str,
    filters: Filters | None = None,
) -> list[Hit]:
    from ..sinks.pgvector_search import search_pgvector

    config, _steps, _options = load_config(config_path)
    plugin = plugin_options("sink", config.sink.model_extra, config_path.parent)
    options = None if plugin is None else with_job_embedder(plugin[1], config.embedder)
    if not isinstance(options, PgvectorOptions):
        raise ConfigError(
            "--config searches a job whose sink is pgvector; for the SQLite index use --index", subject=str(config_path)
        )
    embedder = load(options.embedder or EmbedderConfig(), config_path.parent)
    return search_pgvector(
        options, embedder, query, k=k, window=window, readers=readers, mode=_MODES[mode], filters=filters
    )
