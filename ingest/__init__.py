"""ingest: documents in, clean structure-preserving chunks out.

The typed API the CLI is a thin layer over:

    from ingest import load_file, clean_blocks, chunk, ChunkOptions
    loaded = load_file("handbook.md")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=512), clean_blocks(loaded)))

    from ingest import load_config, run
    summary = run(*load_config("configs/local.yaml"))

    from ingest import search, Filters
    hits = search("out/index.sqlite", "ibuprofen dose", k=3, filters=Filters(mime_types="text/markdown"))
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from typing import TYPE_CHECKING

from ._version import __version__ as __version__

# Names resolve on first use, so `import ingest` stays cheap: a short script that only chunks
# Markdown never pays for pydantic, SQLite or the PDF and Office parsers.
_EXPORTS = {
    "Block": "blocks",
    "BlockMeta": "blocks",
    "Chunk": "blocks",
    "Citation": "blocks",
    "Document": "blocks",
    "Loaded": "blocks",
    "Mark": "blocks",
    "ChunkOptions": "chunker",
    "chunk": "chunker",
    "build_chain": "cleaners",
    "clean": "cleaners",
    "clean_blocks": "cleaners",
    "Config": "config",
    "load_config": "config",
    "IngestError": "errors",
    "load_bytes": "loaders",
    "load_file": "loaders",
    "RunSummary": "runner.pipeline",
    "run": "runner.pipeline",
    "chunk_files": "runner.parallel",
    "search": "search.api",
    "Filters": "search.filters",
    "Hit": "search.bm25",
    "principals": "search.principals",
}

__all__ = [
    "Block",
    "BlockMeta",
    "Chunk",
    "Citation",
    "ChunkOptions",
    "Config",
    "Document",
    "Filters",
    "Hit",
    "IngestError",
    "Loaded",
    "Mark",
    "RunSummary",
    "build_chain",
    "chunk",
    "chunk_files",
    "clean",
    "clean_blocks",
    "load_bytes",
    "load_config",
    "load_file",
    "principals",
    "run",
    "search",
]


def __getattr__(name: str):
    if name == "Source":  # the old name of Citation: ingest.sources.Source is where documents come from
        import warnings

        warnings.warn("ingest.Source is now ingest.Citation", DeprecationWarning, stacklevel=2)
        return __getattr__("Citation")
    if name not in _EXPORTS:
        raise AttributeError(f"module 'ingest' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


class _Package(types.ModuleType):
    def __setattr__(self, name: str, value: object) -> None:
        # `ingest.search` is the search function. Importing the package ingest/search/ (the CLI
        # does) would otherwise put the module in its place, as Python does with any submodule.
        if name == "search" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

# Where modules were before the package was grouped in folders (run machinery in runner/, search
# in search/, the command in cli/, pgvector beside its sink): a user's `from ingest.search.hybrid import
# search_mode` or `ingest.pgvector_search.PgvectorSearch` keeps working, as the same module.
_MOVED = {
    **{
        f"ingest.{name}": f"ingest.runner.{name}"
        for name in (
            "code_stamp",
            "embedding_step",
            "input_limits",
            "machine_faults",
            "parallel",
            "pipeline",
            "read_ahead",
            "run_lock",
            "run_report",
            "settings_stamp",
            "sqlite_files",
            "state",
            "stopping",
            "worker_pool",
        )
    },
    "ingest.bm25_memory": "ingest.search.bm25_memory",
    "ingest.evaluate": "ingest.search.evaluate",
    "ingest.fts_terms": "ingest.search.fts_terms",
    "ingest.hybrid": "ingest.search.hybrid",
    "ingest.principals": "ingest.search.principals",
    "ingest.search_api": "ingest.search.api",
    "ingest.search_filters": "ingest.search.filters",
    "ingest.vector_search": "ingest.search.vectors",
    "ingest.pgvector_filters": "ingest.sinks.pgvector_filters",
    "ingest.pgvector_search": "ingest.sinks.pgvector_search",
    **{
        f"ingest.cli_{name}": f"ingest.cli.{name}"
        for name in ("eval", "filters", "inspect", "pgvector", "plugins", "settings")
    },
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a module's old name as the module at its new place (one module object, two names)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        module = importlib.import_module(_MOVED[spec.name])
        self._own_spec = module.__spec__  # the import system sets the old name's spec on it next
        return module

    def exec_module(self, module):
        module.__spec__ = self._own_spec


sys.meta_path.append(_MovedModules())


if TYPE_CHECKING:
    from .blocks import Block, BlockMeta, Chunk, Citation, Document, Loaded, Mark
    from .chunker import ChunkOptions, chunk
    from .cleaners import build_chain, clean, clean_blocks
    from .config import Config, load_config
    from .errors import IngestError
    from .loaders import load_bytes, load_file
    from .runner.parallel import chunk_files
    from .runner.pipeline import RunSummary, run
    from .search.api import search
    from .search.bm25 import Hit
    from .search.filters import Filters
    from .search.principals import principals
