"""What FTS5's bm25 will make of a query's terms, read before ranking, so a search can skip the
work that cannot change its answer.

FTS5 ranks by scoring every chunk that holds any query term, so a term held by most chunks costs
the most and says the least. bm25 gives a term in more than half of the chunks an idf of 1e-6
(FTS5 clamps a negative idf), and no term can add more than `(K1 + 1) * idf` to a chunk's score
(term frequency saturates): `ceiling`. The counts come from an `fts5vocab` table, and a query's
words are cut into FTS5's own tokens (porter-stemmed) by an FTS5 table of the index's tokenizer,
both in the connection's temp schema: nothing is written to the index.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass

from ..sinks.sqlite import FTS_TOKENIZE

K1 = 1.2
"""FTS5's bm25 k1 (fts5_aux.c); its b is 0.75, which keeps the length term positive."""
CLAMPED_IDF = 1e-6
"""The idf FTS5 gives a term held by at least half of the rows."""


@dataclass(frozen=True, slots=True)
class Term:
    phrase: str
    """The quoted FTS5 phrase, as the query holds it."""
    rows: int | None
    """How many chunks hold it; None for a phrase of several tokens (`10-K`, `company's`),
    which no vocabulary counts (at most the rarest of its tokens' rows)."""

    def idf(self, total: int) -> float | None:
        """The idf FTS5's bm25 gives this phrase among `total` rows; None if not counted."""
        if self.rows is None:
            return None
        idf = math.log((total - self.rows + 0.5) / (self.rows + 0.5))
        return idf if idf > 0 else CLAMPED_IDF

    def ceiling(self, total: int) -> float | None:
        """The most this phrase can add to any chunk's bm25 score; None if not counted."""
        idf = self.idf(total)
        return None if idf is None else (K1 + 1) * idf


class TermCounts:
    """Row counts of terms in one open index, remembered until the index changes.

    Counting a term reads its whole posting list, so a `VectorIndex` kept open between queries
    keeps one of these and a frequent word is counted once, not per query."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._version: int | None = None
        self._rows: dict[str, int] = {}
        self._total = 0
        self._tokens: dict[str, tuple[str, ...]] = {}  # a phrase's tokens do not change with the index
        conn.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.ingest_query USING fts5(term, tokenize={FTS_TOKENIZE!r})"
        )
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.ingest_query_tokens USING fts5vocab(temp, ingest_query, 'instance')"
        )
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.ingest_vocab USING fts5vocab(main, chunks_fts, 'row')")

    def total(self) -> int:
        """The rows FTS5's bm25 counts (its own count: the first varint of its averages record)."""
        self._check()
        return self._total

    def terms(self, phrases: list[str]) -> list[Term]:
        """Each quoted phrase with its row count."""
        self._check()
        self._tokenize([p for p in dict.fromkeys(phrases) if p not in self._tokens])
        found = []
        for phrase in phrases:
            mine = self._tokens[phrase]
            found.append(Term(phrase, self._count(mine[0]) if len(mine) == 1 else None))
        return found

    def _check(self) -> None:
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version:
            self._rows.clear()
            row = self.conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
            self._total = _varint(row[0]) if row and row[0] else 0
            self._version = version

    def _tokenize(self, phrases: list[str]) -> None:
        if not phrases:
            return
        conn = self.conn
        conn.execute("DELETE FROM temp.ingest_query")
        conn.executemany(
            "INSERT INTO temp.ingest_query (rowid, term) VALUES (?, ?)",
            [(i, p[1:-1].replace('""', '"')) for i, p in enumerate(phrases)],
        )
        found: dict[int, list[str]] = {}
        for doc, term in conn.execute("SELECT doc, term FROM temp.ingest_query_tokens ORDER BY doc, offset"):
            found.setdefault(doc, []).append(term)
        self._tokens.update((p, tuple(found.get(i, ()))) for i, p in enumerate(phrases))

    def _count(self, token: str) -> int:
        if token not in self._rows:
            row = self.conn.execute("SELECT doc FROM temp.ingest_vocab WHERE term = ?", (token,)).fetchone()
            self._rows[token] = row[0] if row else 0
        return self._rows[token]


def _varint(data: bytes) -> int:
    """SQLite's varint (big-endian groups of 7 bits, the ninth byte whole), as FTS5 writes it."""
    value = 0
    for i, byte in enumerate(data[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value
    return value
