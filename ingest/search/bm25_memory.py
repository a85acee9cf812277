"""FTS5's bm25 computed in numpy from FTS5's own postings, kept in memory between queries.

FTS5 ranks by calling bm25() on every chunk that holds a query term, some microseconds a chunk,
so a 30-word question costs the same thousands of calls on every search. A term's share of a
chunk's score depends on the index alone (its idf, its weighted count in the chunk, the chunk's
length), not on the rest of the query: read once, from an `fts5vocab` instance table (the
index's own tokens, porter-stemmed as FTS5 cut them), it is kept per term as (chunk, share)
arrays, and a query adds up the shares of its phrases. The arithmetic is fts5_aux.c's, in its
order, in doubles, so the scores are FTS5's bit for bit and the ranking the same: every term
counts, the common ones too; nothing is skipped or approximated.

Reading costs more than FTS5 scoring once (a word in every chunk: some 0.2 s per 10^5 chunks),
so the first `cold_queries` queries are left to FTS5 as a one-off search asks it (common words
left out, MaxScore: the same ranking but for the order of chunks within 2e-5 of each other): a
one-off `ingest search` reads nothing, and an index kept open ranks in memory from then on.

The postings stay valid while the index does not change: any commit to it (the sink replacing or
deleting a document) changes `PRAGMA data_version`, and everything read is dropped and read again
as queries need it. Memory: 12 bytes a (term, chunk) pair read, plus 24 bytes a chunk.
"""

from __future__ import annotations

import math
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .fts_terms import CLAMPED_IDF, K1, TermCounts

if TYPE_CHECKING:
    import numpy as np

B = 0.75
"""FTS5's bm25 b (fts5_aux.c)."""
MAX_POSTINGS = 40_000_000
"""(term, chunk) pairs kept at most (~480 MB); the terms least recently asked go first."""


@dataclass(frozen=True, slots=True)
class _Rows:
    seqs: np.ndarray
    """The FTS5 rowids (chunks.seq), ascending: a chunk's place here indexes the arrays below."""
    norm: np.ndarray
    """k1 * (1 - b + b * D / avgdl) of each row: bm25's length part, as fts5_aux.c computes it."""
    order: np.ndarray
    """Each row's place in (doc_id, chunk_index) order: how FTS5's ranking breaks ties."""
    total: int
    """FTS5's row count (its averages record), the N of idf."""


@dataclass(frozen=True, slots=True, eq=False)
class _Postings:
    rows: np.ndarray
    """int32 places (in `_Rows.seqs`) of the chunks holding the phrase, ascending."""
    shares: np.ndarray
    """float64: what the phrase adds to each of those chunks' bm25 score."""
    ceiling: float
    """The most it adds to any chunk: (k1 + 1) * idf."""

    def shares_of(self, places: np.ndarray) -> np.ndarray:
        """Its share of each chunk at `places` (sorted), 0.0 where it is not held."""
        import numpy as np

        if not len(self.rows):
            return np.zeros(len(places))
        at = np.minimum(np.searchsorted(self.rows, places), len(self.rows) - 1)
        return np.where(self.rows[at] == places, self.shares[at], 0.0)


class WarmBm25(TermCounts):
    """`TermCounts` that also keeps, for the open index, every asked term's postings and each
    chunk's length, and ranks a query in memory exactly as FTS5's bm25(chunks_fts, weight, 1.0)."""

    def __init__(
        self, conn: sqlite3.Connection, heading_weight: float, max_postings: int = MAX_POSTINGS, cold_queries: int = 1
    ) -> None:
        super().__init__(conn)
        self.heading_weight = heading_weight
        self.max_postings = max_postings
        self.cold_queries = cold_queries
        self._rows_info: _Rows | None = None
        self._postings: OrderedDict[tuple[str, ...], _Postings] = OrderedDict()
        self._held = 0
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.ingest_instances USING fts5vocab(main, chunks_fts, 'instance')"
        )

    def ready(self) -> bool:
        """Whether this query is to be ranked here (False for the first `cold_queries` asked)."""
        if self.cold_queries > 0:
            self.cold_queries -= 1
            return False
        return True

    @property
    def held(self) -> int:
        """(term, chunk) pairs held now."""
        return self._held

    def memory_bytes(self) -> int:
        """Bytes of numpy arrays held now (postings and per-chunk arrays)."""
        rows = self._rows_info
        held = sum(p.rows.nbytes + p.shares.nbytes for p in self._postings.values())
        return held + (0 if rows is None else rows.seqs.nbytes + rows.norm.nbytes + rows.order.nbytes)

    def top(self, phrases: list[str], limit: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """(chunks.seq, bm25 score) of the `limit` best chunks holding any of `phrases`, best
        first, ties by document and chunk index; with `allowed` (chunks.seq values), only those."""
        import numpy as np

        self._check()
        rows = self._lengths()
        if not len(rows.seqs) or limit < 1:
            return []
        found = [self._phrase(self._tokens_of(p), rows) for p in dict.fromkeys(phrases)]
        found = [p for p in found if len(p.rows)]
        if not found:
            return []
        mask = None if allowed is None else np.isin(rows.seqs, allowed, assume_unique=True)
        common = [p for p in found if p.ceiling == (K1 + 1.0) * CLAMPED_IDF]
        if common and len(common) < len(found):
            pruned = self._among_rarer(found, common, rows, limit, mask)
            if pruned is not None:
                return pruned
        # bincount adds each chunk's shares in the order given: the phrases' order, as bm25 does.
        scores = _summed(found, len(rows.seqs), mask)
        held = np.flatnonzero(scores > 0)  # every share is positive: a chunk holding a phrase scores > 0
        if len(held) > limit:
            kth = np.partition(scores[held], len(held) - limit)[len(held) - limit]
            held = held[scores[held] >= kth]  # the ties at the cut are all kept, then ordered
        best = held[np.lexsort((rows.order[held], -scores[held]))][:limit]
        return [(int(rows.seqs[i]), float(scores[i])) for i in best]

    def _among_rarer(
        self, found: list[_Postings], common: list[_Postings], rows: _Rows, limit: int, mask: np.ndarray | None
    ) -> list[tuple[int, float]] | None:
        """The top `limit` without adding up the common phrases' long postings for every chunk
        (MaxScore, in memory): ranked on the rarer phrases alone, the `limit`-th score less all
        the common phrases' ceilings is a floor no chunk below it can climb over, so only the
        chunks above it are scored on every phrase, in the phrases' order (the same sums, to the
        bit). None when too few chunks hold a rarer phrase to set a floor above 0."""
        import numpy as np

        rarer = [p for p in found if all(p is not c for c in common)]
        partial = _summed(rarer, len(rows.seqs), mask)
        held = np.flatnonzero(partial > 0)
        if len(held) < limit:
            return None
        kth = np.partition(partial[held], len(held) - limit)[len(held) - limit]
        floor = kth - sum(p.ceiling for p in common) - 1e-9 * kth  # with room for rounding
        if floor <= 0:
            return None
        near = held[partial[held] >= floor]
        scores = np.zeros(len(near))
        for p in found:
            scores += p.shares_of(near)  # x + 0.0 is x: absent phrases change nothing, as in bm25
        best = np.lexsort((rows.order[near], -scores))[:limit]
        return [(int(rows.seqs[near[i]]), float(scores[i])) for i in best]

    def _check(self) -> None:
        version = self._version
        super()._check()
        if self._version != version:
            self._rows_info = None
            self._postings.clear()
            self._held = 0

    def _tokens_of(self, phrase: str) -> tuple[str, ...]:
        if phrase not in self._tokens:
            self._tokenize([phrase])
        return self._tokens[phrase]

    def _lengths(self) -> _Rows:
        import numpy as np

        if self._rows_info is None:
            conn = self.conn
            # One row of text each, parsed by numpy: 10^6 Python rows would cost seconds.
            ids, sizes = conn.execute(
                "SELECT group_concat(id), group_concat(hex(sz), '') FROM chunks_fts_docsize"  # a rowid table: by id
            ).fetchone()
            seqs = _ints(ids)
            counts = _varints(bytes.fromhex(sizes or ""))
            if np.any(seqs[1:] <= seqs[:-1]):
                raise sqlite3.DatabaseError("chunks_fts_docsize did not come in rowid order")
            lengths = counts.reshape(len(seqs), -1).sum(axis=1) if len(seqs) else counts
            averages = conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
            total, tokens = _averages(averages[0] if averages else b"")
            avgdl = tokens / total if total else 1.0
            # fts5_aux.c: k1 * (1 - b + b * D / avgdl), in that order.
            norm = K1 * ((1 - B) + (B * lengths) / avgdl)
            (ordered,) = conn.execute(
                "SELECT group_concat(seq) FROM (SELECT seq FROM chunks ORDER BY doc_id, chunk_index)"
            ).fetchone()
            ordered = _ints(ordered)
            order = np.zeros(len(seqs), dtype=np.int64)
            places = np.searchsorted(seqs, ordered)
            known = (places < len(seqs)) & (seqs[np.minimum(places, len(seqs) - 1)] == ordered)
            order[places[known]] = np.arange(len(ordered))[known]
            self._rows_info = _Rows(seqs, norm, order, total)
        return self._rows_info

    def _phrase(self, tokens: tuple[str, ...], rows: _Rows) -> _Postings:
        """A phrase's postings: read on first use, then kept (most recently used last)."""
        import numpy as np

        found = self._postings.get(tokens)
        if found is not None:
            self._postings.move_to_end(tokens)
            return found
        if not tokens:  # nothing the tokenizer keeps: FTS5 matches no row
            docs, freqs = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        elif len(tokens) == 1:
            docs, freqs = self._counted(tokens[0])
        else:
            docs, freqs = self._phrase_counted(tokens)
        places = np.searchsorted(rows.seqs, docs).astype(np.int32)
        hits = len(docs)  # the rows holding the phrase: FTS5's nHit
        idf = math.log((rows.total - hits + 0.5) / (hits + 0.5))
        idf = idf if idf > 0 else CLAMPED_IDF
        # fts5_aux.c: idf * ((f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)))
        shares = idf * ((freqs * (K1 + 1.0)) / (freqs + rows.norm[places]))
        found = _Postings(places, shares, (K1 + 1.0) * idf)
        self._postings[tokens] = found
        self._held += len(places)
        while self._held > self.max_postings and len(self._postings) > 1:
            _, old = self._postings.popitem(last=False)
            self._held -= len(old.rows)
        return found

    def _counted(self, token: str) -> tuple[np.ndarray, np.ndarray]:
        """(rowid, weighted count) of each row holding `token`: heading instances weigh
        `heading_weight`, body ones 1, as bm25's column weights do."""
        import numpy as np

        # One text of every instance's row (a heading's as -1 - row): a GROUP BY would sort them all.
        (found,) = self.conn.execute(
            "SELECT group_concat(CASE WHEN col = 'heading' THEN -1 - doc ELSE doc END) FROM temp.ingest_instances "
            "WHERE term = ?",
            (token,),
        ).fetchone()
        signed = _ints(found)
        if not len(signed):
            return signed, np.zeros(0, dtype=np.float64)
        docs = np.where(signed < 0, -1 - signed, signed)
        if np.any(docs[1:] < docs[:-1]):  # fts5vocab gives them by row; should that change
            by_row = np.argsort(docs, kind="stable")
            docs, signed = docs[by_row], signed[by_row]
        starts = np.flatnonzero(np.r_[True, docs[1:] != docs[:-1]])
        weights = np.where(signed < 0, self.heading_weight, 1.0)
        return docs[starts], np.add.reduceat(weights, starts)

    def _phrase_counted(self, tokens: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """(rowid, weighted count) of each row holding the tokens one after another in a column."""
        import numpy as np

        starts: set[tuple[int, str, int]] | None = None
        for i, token in enumerate(tokens):
            at = {
                (doc, col, offset - i)
                for doc, col, offset in self.conn.execute(
                    "SELECT doc, col, offset FROM temp.ingest_instances WHERE term = ?", (token,)
                )
            }
            starts = at if starts is None else starts & at
            if not starts:
                return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        freq: dict[int, float] = {}
        for doc, col, _ in starts or ():
            freq[doc] = freq.get(doc, 0.0) + (self.heading_weight if col == "heading" else 1.0)
        docs = np.array(sorted(freq), dtype=np.int64)
        return docs, np.array([freq[d] for d in docs.tolist()], dtype=np.float64)


def _ints(text: str | None) -> np.ndarray:
    """The integers of a comma-separated list (SQLite's group_concat)."""
    import numpy as np

    return np.fromstring(text, dtype=np.int64, sep=",") if text else np.zeros(0, dtype=np.int64)


def _varints(data: bytes) -> np.ndarray:
    """The values of a run of varints (big-endian groups of 7 bits, the high bit set on all but
    the last byte), as float64: FTS5's docsize records, back to back. Token counts stay far below
    2^53, so the sums are exact."""
    import numpy as np

    raw = np.frombuffer(data, dtype=np.uint8)
    last = raw < 0x80
    which: np.ndarray = np.cumsum(last) - last.astype(np.int64)  # each byte's varint
    ends = np.flatnonzero(last)
    places = ends[which] - np.arange(len(raw))  # groups of 7 bits after this byte in its varint
    return np.bincount(which, weights=(raw & 0x7F) * np.power(128.0, places), minlength=len(ends))


def _averages(data: bytes) -> tuple[int, int]:
    """FTS5's averages record: (rows, tokens in all columns)."""
    values, value = [], 0
    for byte in data:
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            values.append(value)
            value = 0
    return (values[0], sum(values[1:])) if values else (0, 0)


def _summed(postings: list[_Postings], size: int, mask: np.ndarray | None) -> np.ndarray:
    """Each chunk's bm25 over `postings`, 0 where `mask` is False."""
    import numpy as np

    scores = np.bincount(
        np.concatenate([p.rows for p in postings]),
        weights=np.concatenate([p.shares for p in postings]),
        minlength=size,
    )
    if mask is not None:
        scores[~mask] = 0.0
    return scores
