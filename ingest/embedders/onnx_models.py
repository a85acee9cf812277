"""What the ONNX networks ingest runs share (the minilm embedder, the cross-encoder reranker): a
session on this machine's CPU, tokenized texts in batches of like length, a weights file's digest."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any


def cpu_session(weights: Path, threads: int) -> Any:
    """An onnxruntime `InferenceSession` on the CPU: `threads` intra-op threads (0: one per core),
    one inter-op thread, and errors only in the log (a run's log is ours)."""
    import onnxruntime

    settings = onnxruntime.SessionOptions()
    settings.intra_op_num_threads = threads
    settings.inter_op_num_threads = 1
    settings.log_severity_level = 3
    return onnxruntime.InferenceSession(str(weights), settings, providers=["CPUExecutionProvider"])


def length_batches(encodings: Sequence[Any], batch_size: int) -> Iterator[tuple[Any, int]]:
    """(row numbers, longest length) per batch of `batch_size` encodings taken shortest first, so
    that a batch, padded to its longest, holds little padding."""
    import numpy as np

    order = np.argsort([len(e.ids) for e in encodings], kind="stable")
    for start in range(0, len(order), batch_size):
        rows = order[start : start + batch_size]
        yield rows, max(len(encodings[i].ids) for i in rows)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
