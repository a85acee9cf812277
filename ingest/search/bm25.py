"""Search the SQLite index: FTS5 bm25 with the heading path weighted above the body, and each hit
widened with its neighbouring chunks so an answer cut at a chunk border is read whole.
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from ..blocks import Chunk, is_card, is_figure
from ..errors import SinkError
from ..runner.sqlite_files import transaction
from ..sinks.chunk_rows import HEADING_SEPARATOR
from ..sinks.sqlite import CHUNK_COLUMNS, CHUNK_SELECT, chunk_from_row, connect_index, read_chunks
from .bm25_memory import WarmBm25
from .filters import Filters
from .fts_terms import CLAMPED_IDF, Term, TermCounts
from .principals import checked_readers
from .principals import principals as principals  # its import path before principals.py

if TYPE_CHECKING:
    import numpy as np

HEADING_WEIGHT = 4.0
"""bm25 weight of the heading path column against 1.0 for the body: a query term in a section's
title says more about the section than the same term in passing."""
_MAX_TERMS = 64
_WORTH_A_FIRST_PASS = 100
"""MaxScore's first pass pays for itself when the query's terms are held by more than this many
chunks per chunk asked for (bm25 costs some microseconds a chunk; a pass costs a scan)."""


class SearchError(SinkError):
    """A search could not be run against the index."""


@dataclass(frozen=True, slots=True)
class Hit:
    chunk: Chunk
    score: float
    """Higher is better: the negated FTS5 bm25 rank, a cosine, a fused score, or with `ranked_by` the
    reranker's logit."""
    context: str
    """The chunk's text widened with up to `window` neighbours of the same document on each side."""
    neighbours: tuple[int, ...]
    """The chunk_index values `context` was built from, in order (the hit's own included)."""
    citation: str
    """"name > heading > path (uri)"."""
    around: tuple[Chunk, ...] = field(default=(), repr=False, compare=False)
    """The chunks `context` was joined from (see `neighbours`), for a reader that shows each once."""
    ranked_by: str | None = None
    """The cross-encoder whose relevance logit `score` is (`ingest.search.rerank`); None: the first
    stage's score (bm25, cosine or fused)."""


def search(
    index: Path,
    query: str,
    k: int = 5,
    window: int = 1,
    readers: tuple[str, ...] | None = None,
    filters: Filters | None = None,
) -> list[Hit]:
    """The `k` best chunks for the free-text `query`; [] when it holds no searchable word.

    With `readers` (what one person matches: `principals`), only
    chunks of documents one of them may open, or that have no readers recorded (local files);
    `()` matches no one, so only the latter. With `filters`, only chunks they let through."""
    readers = checked_readers(readers)
    if k < 1 or window < 0:
        raise SearchError(f"k must be at least 1 and window at least 0 (got k={k}, window={window})", index)
    match = fts_query(query)
    if not match:
        return []
    conn = connect_index(Path(index), create=False)
    try:
        with transaction(conn, immediate=False):  # hits and their neighbours from one snapshot
            return [hit(conn, chunk, score, window) for chunk, score in ranked_bm25(conn, query, k, readers, filters)]
    except sqlite3.Error as exc:
        raise SearchError(f"search for {query!r} failed ({exc})", index) from exc
    finally:
        conn.close()


def ranked_bm25(
    conn: sqlite3.Connection,
    query: str,
    limit: int,
    readers: tuple[str, ...] | None = None,
    filters: Filters | None = None,
    counts: TermCounts | None = None,
) -> list[tuple[Chunk, float]]:
    """The `limit` best chunks by bm25 (highest score first), as (chunk, negated bm25 rank).

    Two savings, neither of which changes the answer beyond FTS5's 1e-6 floor: a term held by
    more than half of the chunks (FTS5 scores it 1e-6) is left out of the query (unless fewer
    than `limit` chunks hold the others: then the whole query is asked), and the ranking
    is asked only of the chunks holding its rarer terms (MaxScore, Turtle & Flood 1995): a cheap
    first ranking on the rarest terms alone gives a score the `limit`-th chunk must reach, and the
    commonest terms whose `Term.ceiling`s add up to less cannot lift a chunk that holds none of
    the others that far. With `filters`, the whole query is asked: FTS5 scores only the chunks
    they let through. `counts`: row counts kept between queries on the same connection; a
    `WarmBm25` (what a `VectorIndex` keeps) ranks in memory instead, from its second query on:
    FTS5's ranking of the whole query, scores and all."""
    phrases = query_phrases(query)
    if not phrases:
        return []
    if isinstance(counts, WarmBm25) and counts.ready():
        allowed = None if readers is None and not filters else allowed_seqs(conn, readers, filters)
        return _by_seq(conn, counts.top(phrases, limit, allowed))
    if filters:  # few chunks left to score: little to save, and a second pass to lose
        return _as_hits(_ranked_rows(conn, " OR ".join(phrases), limit, readers, filters, None))
    counts = counts or TermCounts(conn)
    total = counts.total()
    terms = counts.terms(phrases)
    kept = [t for t in terms if t.idf(total) != CLAMPED_IDF] or terms
    rarer = sorted(kept, key=lambda t: -1 if t.rows is None else t.rows)  # uncounted phrases first
    essential = kept
    if sum(t.rows or 0 for t in kept) > _WORTH_A_FIRST_PASS * limit:
        guess = _first_essential(rarer, limit)
        if len(guess) < len(kept):
            # Scored on the rare terms alone, a chunk scores at most its whole score, so the
            # `limit`-th of these is a floor under the `limit`-th of the whole query.
            rows = _ranked_rows(conn, " OR ".join(t.phrase for t in guess), limit, readers, None, None)
            essential = _proven_essential(rarer, total, -rows[-1][-1] if len(rows) == limit else 0.0)
    among = None if len(essential) == len(kept) else " OR ".join(t.phrase for t in essential)
    rows = _ranked_rows(conn, " OR ".join(t.phrase for t in kept), limit, readers, None, among)
    if len(rows) < limit and len(kept) < len(terms):  # the chunks holding only common terms come last
        rows = _ranked_rows(conn, " OR ".join(phrases), limit, readers, None, None)
    return _as_hits(rows)


def _as_hits(rows: list[tuple]) -> list[tuple[Chunk, float]]:
    return [(chunk_from_row(row), -row[-1]) for row in rows]


def _by_seq(conn: sqlite3.Connection, ranked: list[tuple[int, float]]) -> list[tuple[Chunk, float]]:
    """The chunks of ranked (chunks.seq, score) pairs, in that order (those still in the index)."""
    rows = conn.execute(
        CHUNK_SELECT.replace("SELECT ", "SELECT c.seq, ", 1) + " WHERE c.seq IN (SELECT value FROM json_each(?))",
        (json.dumps([seq for seq, _ in ranked]),),
    )
    found = {row[0]: chunk_from_row(row[1:]) for row in rows}
    return [(found[seq], score) for seq, score in ranked if seq in found]


def allowed_seqs(conn: sqlite3.Connection, readers: tuple[str, ...] | None, filters: Filters | None) -> np.ndarray:
    """chunks.seq of the chunks the readers may open and the filters let through."""
    import numpy as np

    where, params = (filters or Filters()).where(first=2)
    rows = conn.execute(
        f"SELECT c.seq FROM chunks AS c WHERE {readers_clause('?1')} AND {where} ORDER BY c.seq",
        (readers_json(readers), *params),
    )
    return np.fromiter((r[0] for r in rows), dtype=np.int64)


def _first_essential(rarer: list[Term], limit: int) -> list[Term]:
    """The rarest phrases, until they hold some ten times `limit` chunks: a first guess, cheap to
    rank, whose `limit`-th score tells how much of the query can be skipped."""
    picked: list[Term] = []
    held = 0
    for term in rarer:
        if picked and term.rows is not None and held >= 10 * limit:
            break
        picked.append(term)
        held += term.rows or 0
    return picked


def _proven_essential(rarer: list[Term], total: int, floor: float) -> list[Term]:
    """The phrases a chunk must hold to score above `floor`: all but the commonest ones whose
    ceilings add up to less than `floor` (with room for rounding)."""
    skipped, ceiling = 0, 0.0
    for term in reversed(rarer):
        top = term.ceiling(total)
        if top is None or (ceiling + top) * (1 + 1e-9) >= floor:
            break
        ceiling += top
        skipped += 1
    return rarer[: len(rarer) - skipped]


def _ranked_rows(
    conn: sqlite3.Connection,
    match: str,
    limit: int,
    readers: tuple[str, ...] | None,
    filters: Filters | None,
    among: str | None,
) -> list[tuple]:
    """Rows of the `limit` best chunks for `match`, scored on all of it; with `among`, only the
    chunks that also match `among`."""
    allowed = readers_json(readers)
    where, params = (filters or Filters()).where(first=6)
    among_clause = (
        "?5 IS NULL"
        if among is None
        else "+chunks_fts.rowid IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?5)"
    )
    sql = _RANKED.format(filters=where, among=among_clause)
    return conn.execute(sql, (match, HEADING_WEIGHT, limit, allowed, among, *params)).fetchall()


def readers_json(readers: tuple[str, ...] | None) -> str | None:
    """The readers as the JSON array `readers_clause` reads (None: no filter), checked on the way."""
    checked = checked_readers(readers)
    return None if checked is None else json.dumps(list(checked))


def readers_clause(param: str) -> str:
    """SQL true for a chunk `c` one of the readers in JSON array `param` may open (NULL: anyone)."""
    return f"""({param} IS NULL
       OR NOT EXISTS (SELECT 1 FROM readers AS r WHERE r.doc_id = c.doc_id)
       OR EXISTS (SELECT 1 FROM readers AS r WHERE r.doc_id = c.doc_id
                  AND r.reader IN (SELECT value FROM json_each({param}))))"""


_RANKED = f"""
SELECT {CHUNK_COLUMNS}, bm25(chunks_fts, ?2, 1.0) AS rank
FROM chunks_fts
JOIN chunks AS c ON c.seq = chunks_fts.rowid
JOIN documents AS d ON d.id = c.doc_id
WHERE chunks_fts MATCH ?1
  AND {readers_clause("?4")}
  AND {{among}}
  AND {{filters}}
ORDER BY rank, c.doc_id, c.chunk_index
LIMIT ?3
"""


def fts_query(query: str) -> str:
    """`query` as an FTS5 expression that cannot be a syntax error: its `query_phrases` OR-ed."""
    return " OR ".join(query_phrases(query))


def query_phrases(query: str) -> list[str]:
    """Each whitespace-separated term of `query` quoted as an FTS5 phrase (so AND, NOT, NEAR, *,
    :, parentheses are plain text), once each, at most `_MAX_TERMS`."""
    terms: list[str] = []
    for term in re.sub(r"[\x00-\x1f\x7f]", " ", query).split():  # SQLite strings end at NUL
        if not re.search(r"[^\W_]", term):  # nothing the tokenizer would index: "*", "--", "()"
            continue
        quoted = '"' + term.replace('"', '""') + '"'
        if quoted not in terms:
            terms.append(quoted)
    return terms[:_MAX_TERMS]


def index_stats(index: Path) -> dict[str, int]:
    """How many documents and chunks the index holds."""
    conn = connect_index(Path(index), create=False)
    try:
        documents = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
        chunks = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
    except sqlite3.Error as exc:
        raise SearchError(f"cannot count the index ({exc})", index) from exc
    finally:
        conn.close()
    return {"documents": documents, "chunks": chunks}


def hit(conn: sqlite3.Connection, chunk: Chunk, score: float, window: int) -> Hit:
    """A ranked chunk as a `Hit`: widened with `window` neighbours on each side, and cited."""
    around = read_chunks(conn, chunk.doc_id, chunk.chunk_index - window, chunk.chunk_index + window)
    return widened(chunk, score, around)


def widened(chunk: Chunk, score: float, around: list[Chunk]) -> Hit:
    """A ranked chunk as a `Hit`, its context the chunks `around` it (itself among them), cited.
    A document's card, a figure's chunk and the body are no context for each other: a card or a
    figure stands alone, and a body chunk's neighbours leave them out."""
    apart = is_card(chunk) or is_figure(chunk)
    around = [c for c in around if (c.id == chunk.id if apart else not (is_card(c) or is_figure(c)))] or [chunk]
    return Hit(
        chunk=chunk,
        score=score,
        context=join_context(around),
        neighbours=tuple(c.chunk_index for c in around),
        citation=citation(chunk),
        around=tuple(around),
    )


def join_context(chunks: list[Chunk]) -> str:
    """The texts of consecutive chunks joined by blank lines, each overlap printed once.

    A chunk with `overlap_tokens` starts with the previous chunk's tail; that prefix is dropped
    when it is found verbatim at the end of the previous text: its length comes from the source
    spans (`start`/`end`) where they agree with the texts, else from matching between breaks.
    Otherwise both texts are kept whole: repeating a sentence is better than losing one.
    """
    if not chunks:
        return ""
    parts = [chunks[0].text]
    for prev, chunk in zip(chunks, chunks[1:]):
        cut = _overlap_chars(prev, chunk) if chunk.overlap_tokens and chunk.chunk_index == prev.chunk_index + 1 else 0
        if cut:
            parts[-1] += chunk.text[cut:]
        else:
            parts.append(chunk.text)
    return "\n\n".join(parts)


def _overlap_chars(prev: Chunk, chunk: Chunk) -> int:
    """How many leading characters of `chunk.text` repeat the end of `prev.text`."""
    if prev.end is not None and chunk.start is not None and prev.end > chunk.start:
        size = prev.end - chunk.start  # exact where both texts are spans of the source text
        if size < len(chunk.text) and prev.text.endswith(chunk.text[:size]):
            return size
    return _shortest_border(prev.text, chunk.text)


def _shortest_border(prev: str, text: str) -> int:
    """Length of the shortest prefix of `text` that `prev` ends with, starting and ending at a
    break (space or punctuation, so scripts written without spaces qualify). Shortest, because in
    repetitive text a longer match could swallow new text; a shorter one can only repeat some."""
    for size in range(1, min(len(prev), len(text) - 1) + 1):
        if (
            text[size - 1] == prev[-1]
            and (_is_break(text[size]) or _is_break(text[size - 1]))
            and (size == len(prev) or _is_break(prev[-size - 1]))
            and prev.endswith(text[:size])
            and re.search(r"[^\W_]", text[:size])
        ):
            return size
    return 0


def _is_break(char: str) -> bool:
    return char.isspace() or unicodedata.category(char).startswith("P")


def citation(chunk: Chunk) -> str:
    """ "name > heading > path (uri)": the document name, then the headings under it."""
    path = list(chunk.heading_path)
    name = chunk.source.name
    if path and path[0].casefold() in {name.casefold(), PurePath(name).stem.casefold()}:
        path = path[1:]  # a title made from the file name says nothing new
    label = HEADING_SEPARATOR.join([name, *path]) if name else HEADING_SEPARATOR.join(path)
    return f"{label} ({chunk.source.uri})" if chunk.source.uri else label
