"""One search over an ingest index with its settings checked when a retriever is made, not at
its first question: a misspelt mode or filter fails where the application is configured."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..search.api import as_filters, search
from ..search.bm25 import Hit
from ..search.filters import Filters
from ..search.hybrid import MODES, default_mode
from ..search.principals import checked_readers
from ..search.rerank import RerankOptions, open_cross_encoder, rerank_options


@dataclass(frozen=True, slots=True)
class IndexQuery:
    """`ingest.search`'s arguments but the query. The index itself is opened per question, so a
    retriever may be made before `ingest run` has built it (the question then says so)."""

    index: Path
    k: int = 5
    mode: str | None = None
    """bm25, vector or hybrid; None: as `ingest search`, hybrid where the index holds vectors."""
    filters: Filters | None = None
    readers: tuple[str, ...] | None = None
    window: int = 0
    """Neighbouring chunks of the same document joined to each hit's text, each side."""
    rerank: RerankOptions | None = None
    """A cross-encoder reordering the first hits (`ingest.search`'s `rerank`); the hits' score is then its logit."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", Path(self.index))
        if self.mode is not None and self.mode not in MODES:
            raise ConfigError(f"unknown search mode {self.mode!r}; choose one of {', '.join(MODES)}", subject="mode")
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise ConfigError(f"expected a whole number of results, at least 1, got {self.k!r}", subject="k")
        if isinstance(self.window, bool) or not isinstance(self.window, int) or self.window < 0:
            raise ConfigError(f"expected a whole number of chunks, at least 0, got {self.window!r}", subject="window")

    @classmethod
    def of(
        cls,
        index: str | Path,
        *,
        k: int = 5,
        mode: str | None = None,
        filters: Filters | Mapping[str, Any] | None = None,
        readers: Any = None,
        window: int = 0,
        rerank: Any = None,
    ) -> IndexQuery:
        """The query with `filters` given as a `Filters` or a dict of its fields, `rerank` as a
        model folder or a dict of `RerankOptions`' fields, and `readers` checked as
        `ingest.search` checks them (a `ConfigError` names the bad argument)."""
        options = None if rerank is None else rerank_options(rerank)
        if options is not None:
            open_cross_encoder(options)  # a bad model folder fails here; the opened model is kept for the queries
        return cls(Path(index), k, mode, as_filters(filters), checked_readers(readers), window, options)

    def hits(self, question: str) -> list[Hit]:
        """The `k` best chunks for `question`, best first."""
        mode = self.mode or default_mode(self.index)
        return search(
            self.index,
            question,
            k=self.k,
            filters=self.filters,
            mode=mode,
            readers=self.readers,
            window=self.window,
            rerank=self.rerank,
        )
