"""bm25 search skips the terms that cannot change its answer (terms held by most chunks, MaxScore
over the rarer ones) and still ranks as FTS5 ranking the whole query does, on real articles."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from ingest.search.bm25 import query_phrases, ranked_bm25
from ingest.search.filters import Filters
from ingest.search.fts_terms import CLAMPED_IDF, TermCounts
from ingest.sinks import SqliteSink
from ingest.sinks.sqlite import connect_index
from tests.storage.documents import articles_index, markdown_document, wiki_documents

WHOLE_QUERY = """
SELECT c.id, bm25(chunks_fts, 4.0, 1.0) AS rank
FROM chunks_fts JOIN chunks AS c ON c.seq = chunks_fts.rowid
WHERE chunks_fts MATCH ?1 AND (?3 IS NULL OR c.doc_id = ?3)
ORDER BY rank, c.doc_id, c.chunk_index
LIMIT ?2
"""
"""FTS5 ranking every term of the query, as a search did before it skipped any: the reference."""


@pytest.fixture(scope="module")
def articles(corpus: Path):
    return wiki_documents(corpus / "chunking_evaluation" / "corpora" / "wikitexts.md")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, articles, seeds: Path) -> Path:
    return articles_index(tmp_path_factory.mktemp("pruning") / "index.db", articles, seeds)


@pytest.fixture
def conn(index: Path):
    conn = connect_index(index, create=False)
    yield conn
    conn.close()


def whole_query(conn: sqlite3.Connection, query: str, limit: int, doc: str | None = None) -> list[tuple[str, float]]:
    match = " OR ".join(query_phrases(query))
    return [(cid, -rank) for cid, rank in conn.execute(WHOLE_QUERY, (match, limit, doc))]


def questions(articles) -> list[str]:
    """Long questions (a sentence of an article, common words and all) and search-box keywords
    (its three longest words)."""
    found = []
    for _, chunks in articles[:12]:
        sentence = max(re.split(r"(?<=[.!?])\s+", chunks[len(chunks) // 2].text), key=len)
        found += [sentence, " ".join(sorted(sentence.split(), key=len)[-3:])]
    return found


def assert_same_ranking(ours: list[tuple[str, float]], theirs: list[tuple[str, float]]) -> None:
    """The same scores, position by position, and the same chunks wherever a score is not tied
    (within the 1e-6 a common term adds) with a neighbour's."""
    assert len(ours) == len(theirs)
    for i, ((mine, score), (other, expected)) in enumerate(zip(ours, theirs)):
        assert score == pytest.approx(expected, abs=1e-4), (i, mine, other)
        near = [s for j, (_, s) in enumerate(theirs) if j != i and abs(s - expected) < 1e-4]
        if not near:
            assert mine == other, i


def test_the_ranking_is_the_whole_querys_for_questions_and_keywords(conn, articles) -> None:
    asked = questions(articles)
    assert len(asked) >= 20
    sent: list[str] = []
    conn.set_trace_callback(sent.append)
    for query in asked:
        for limit in (3, 10, 100):
            ours = [(c.id, s) for c, s in ranked_bm25(conn, query, limit)]
            assert_same_ranking(ours, whole_query(conn, query, limit))
    conn.set_trace_callback(None)
    # The ranking restricted to chunks holding the rarer terms (MaxScore) answered several of them.
    assert sum("+chunks_fts.rowid IN" in s for s in sent) >= 3


def test_a_document_filter_ranks_as_the_whole_query_within_the_document(conn, articles) -> None:
    doc = articles[3][0]
    for query in questions(articles)[:8]:
        ours = [(c.id, s) for c, s in ranked_bm25(conn, query, 10, filters=Filters(docs=(doc.id,)))]
        assert_same_ranking(ours, whole_query(conn, query, 10, doc.id))


def test_words_held_by_most_chunks_are_not_asked_of_fts5(conn) -> None:
    counts = TermCounts(conn)
    common = [t for t in counts.terms(query_phrases("the of and")) if t.idf(counts.total()) == CLAMPED_IDF]
    assert {t.phrase for t in common} >= {'"the"', '"of"'}
    sent: list[str] = []
    conn.set_trace_callback(sent.append)
    hits = ranked_bm25(conn, "the history of the printing press", 5, counts=counts)
    conn.set_trace_callback(None)
    ranked = [s for s in sent if "bm25(chunks_fts" in s]
    assert hits and ranked and all('"the"' not in s and '"of"' not in s for s in ranked)
    assert_same_ranking([(c.id, s) for c, s in hits], whole_query(conn, "the history of the printing press", 5))


def test_a_query_of_common_words_only_still_finds_chunks(conn) -> None:
    ours = [(c.id, s) for c, s in ranked_bm25(conn, "the of and", 10)]
    assert len(ours) == 10
    assert_same_ranking(ours, whole_query(conn, "the of and", 10))


def test_chunks_holding_only_common_words_follow_when_too_few_hold_the_rest(conn, articles) -> None:
    rare = next(w for w in articles[0][1][0].text.split() if len(w) > 9 and w.isalpha())
    query = f"{rare} the"
    ours = [(c.id, s) for c, s in ranked_bm25(conn, query, 40)]
    theirs = whole_query(conn, query, 40)
    assert len(theirs) == 40 and any(s < 1e-3 for _, s in theirs)  # the tail holds "the" alone
    assert_same_ranking(ours, theirs)


def test_term_counts_are_fts5s_own_and_follow_a_write(tmp_path: Path, index: Path, seeds: Path) -> None:
    copy = tmp_path / "index.db"
    src = sqlite3.connect(index)
    src.backup(dst := sqlite3.connect(copy))
    src.close()
    dst.close()
    conn = connect_index(copy, create=False)
    counts = TermCounts(conn)
    chunks = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
    assert counts.total() == chunks
    fever = counts.terms(['"fever"', '"fevers"', '"paediatric-fever"'])
    held = conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'fever'").fetchone()[0]
    assert fever[0].rows == fever[1].rows == held > 0  # porter-stemmed, as FTS5 matches
    assert fever[2].rows is None  # two tokens: a phrase no vocabulary counts
    with SqliteSink(copy) as sink:
        doc, more = markdown_document(seeds / "paediatric-fever.md", doc_id="another-fever")
        sink.write(doc, more)
    assert counts.total() == chunks + len(more)
    assert counts.terms(['"fever"'])[0].rows > held
    conn.close()
