"""ingest: documents in, clean structure-preserving chunks out.

The typed API the CLI is a thin layer over:

    from ingest import load_file, clean_blocks, chunk, ChunkOptions
    loaded = load_file("handbook.md")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=512), clean_blocks(loaded)))

    from ingest import load_config, run
    summary = run(*load_config("configs/local.yaml"))
"""

from __future__ import annotations

__version__ = "0.1.0"

from .blocks import Block, Chunk, Document, Loaded, Mark, Source  # noqa: E402
from .chunker import ChunkOptions, chunk  # noqa: E402
from .cleaners import Step, build_chain, clean  # noqa: E402
from .errors import IngestError  # noqa: E402
from .config import Config, load_config  # noqa: E402
from .loaders import load_bytes, load_file  # noqa: E402
from .pipeline import RunSummary, run  # noqa: E402


def clean_blocks(loaded: Loaded, steps: tuple[Step, ...] | None = None) -> list[Block]:
    """The loaded document's blocks through the cleaner chain (the defaults when `steps` is None)."""
    blocks, _report = clean(loaded.blocks, loaded.document, build_chain([]) if steps is None else steps)
    return list(blocks)


__all__ = [
    "Block", "Chunk", "ChunkOptions", "Config", "Document", "IngestError", "Loaded", "Mark", "Source",
    "build_chain", "chunk", "clean", "clean_blocks", "load_bytes", "load_config", "load_file", "run", "RunSummary",
]
