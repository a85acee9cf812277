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
import sys
import types
from typing import TYPE_CHECKING

__version__ = "0.1.0"  # the one place the version is declared (pyproject.toml reads it)

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
    "RunSummary": "pipeline",
    "run": "pipeline",
    "chunk_files": "parallel",
    "search": "search_api",
    "Filters": "search_filters",
    "Hit": "search",
    "principals": "principals",
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
        # `ingest.search` is the search function. Importing the module ingest/search.py (the CLI
        # does) would otherwise put the module in its place, as Python does with any submodule.
        if name == "search" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


if TYPE_CHECKING:
    from .blocks import Block, BlockMeta, Chunk, Citation, Document, Loaded, Mark
    from .chunker import ChunkOptions, chunk
    from .cleaners import build_chain, clean, clean_blocks
    from .config import Config, load_config
    from .errors import IngestError
    from .loaders import load_bytes, load_file
    from .parallel import chunk_files
    from .pipeline import RunSummary, run
    from .principals import principals
    from .search import Hit
    from .search_api import search
    from .search_filters import Filters
