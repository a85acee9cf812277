"""The `ingest` command (`main`), its commands in `main`, and the pieces they share: the filter
flags, settings from a config or a folder, `inspect`, `eval`, `plugins` and the pgvector search."""

from .main import (
    BAD_INPUT,
    CLUSTER_LOST,
    LOCKED,
    RUN_FAILED,
    SOME_FAILED,
    SOURCE_UNREACHABLE,
    cli,
    exit_code,
    main,
    summary_code,
)

__all__ = [
    "BAD_INPUT",
    "CLUSTER_LOST",
    "LOCKED",
    "RUN_FAILED",
    "SOME_FAILED",
    "SOURCE_UNREACHABLE",
    "cli",
    "exit_code",
    "main",
    "summary_code",
]
