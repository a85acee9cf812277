"""bm25 ranked in memory (`WarmBm25`, what a `VectorIndex` keeps for hybrid search) gives FTS5's
own ranking of the whole query, scores bit for bit, on generated indexes and real articles, with
readers and filters, and follows the index when the sink replaces or deletes a document."""

from __future__ import annotations

import random
import re
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.blocks import Chunk, Citation, Document
from ingest.search.bm25 import HEADING_WEIGHT, query_phrases, ranked_bm25
from ingest.search.bm25_memory import WarmBm25
from ingest.search.filters import Filters
from ingest.search.hybrid import search_mode
from ingest.search.vectors import VectorIndex
from ingest.sinks import SqliteSink
from ingest.sinks.sqlite import connect_index
from tests.storage.documents import articles_index, wiki_documents

WHOLE_QUERY = """
SELECT c.id, bm25(chunks_fts, ?3, 1.0) AS rank
FROM chunks_fts JOIN chunks AS c ON c.seq = chunks_fts.rowid
WHERE chunks_fts MATCH ?1 AND (?4 IS NULL OR c.doc_id = ?4)
  AND (?5 IS NULL OR EXISTS (SELECT 1 FROM readers AS r WHERE r.doc_id = c.doc_id AND r.reader = ?5)
       OR NOT EXISTS (SELECT 1 FROM readers AS r WHERE r.doc_id = c.doc_id))
ORDER BY rank, c.doc_id, c.chunk_index
LIMIT ?2
"""
"""FTS5 ranking every term of the query over every chunk holding one: the reference."""

# Common words (held by most chunks: FTS5 clamps their idf), stems that porter folds together,
# diacritics that unicode61 folds, and words the tokenizer cuts in two ("10-K", "U.S.").
COMMON = ["the", "of", "and"]
WORDS = [
    *"revenue revenues cash flow flows flowing statement lease leases café cafe naïve naive".split(),
    *"10-K U.S. company's 2023 2024 $5.2 net income tax taxes operating segment fever dose".split(),
    *"ibuprofen paracetamol child children risk asset assets ratio margin EBITDA bond".split(),
]


def whole_query(
    conn: sqlite3.Connection, query: str, limit: int, doc: str | None = None, reader: str | None = None
) -> list[tuple[str, float]]:
    match = " OR ".join(query_phrases(query))
    if not match:  # nothing searchable ("*"): FTS5 would call it a syntax error; a search finds nothing
        return []
    return [(cid, -rank) for cid, rank in conn.execute(WHOLE_QUERY, (match, limit, HEADING_WEIGHT, doc, reader))]


def warm_ranking(
    conn: sqlite3.Connection,
    warm: WarmBm25,
    query: str,
    limit: int,
    filters: Filters | None = None,
    readers: tuple[str, ...] | None = None,
) -> list[tuple[str, float]]:
    return [(c.id, s) for c, s in ranked_bm25(conn, query, limit, readers, filters, warm)]


def document(doc_id: str, texts: list[tuple[tuple[str, ...], str]], readers: tuple[str, ...] | None = None):
    doc = Document(
        id=doc_id,
        uri=f"test://{doc_id}",
        name=f"{doc_id}.md",
        mime_type="text/markdown",
        title=doc_id,
        readers=readers,
    )
    chunks = [
        Chunk(
            id=f"{doc_id}-{i}",
            doc_id=doc_id,
            chunk_index=i,
            text=text,
            heading_path=path,
            kinds=("paragraph",),
            token_count=len(text.split()),
            overlap_tokens=0,
            source=Citation.of(doc),
        )
        for i, (path, text) in enumerate(texts)
    ]
    return doc, chunks


def generated(rng: random.Random, docs: int, chunks: int) -> list[tuple[Document, list[Chunk]]]:
    """Documents of chunks drawn from `WORDS` (Zipf-like: the first words most often), each chunk
    with common words in most of them, under headings of the same words."""
    weights = [1 / (i + 1) for i in range(len(WORDS))]
    found = []
    for d in range(docs):
        texts = []
        for _ in range(rng.randint(1, chunks)):
            words = rng.choices(WORDS, weights, k=rng.randint(1, 30))
            words += rng.sample(COMMON, rng.randint(0, 3)) if rng.random() < 0.8 else []
            rng.shuffle(words)
            heading = (f"Doc {d}", " ".join(rng.choices(WORDS, k=rng.randint(1, 3))))
            texts.append((heading, " ".join(words)))
        readers = rng.choice([None, ("user:ann@example.com",), ("user:bob@example.com",)])
        found.append(document(f"doc{d}", texts, readers))
    return found


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    docs=st.integers(1, 6),
    chunks=st.integers(1, 40),
    query=st.lists(st.sampled_from([*WORDS, *COMMON, "absent", "AND", "*", "café's"]), min_size=1, max_size=30),
    limit=st.sampled_from([1, 3, 10, 100]),
)
def test_generated_indexes_rank_as_fts5_ranks_the_whole_query(seed, docs, chunks, query, limit) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index.db"
        with SqliteSink(index) as sink:
            for doc, cs in generated(random.Random(seed), docs, chunks):
                sink.write(doc, cs)
        conn = connect_index(index, create=False)
        try:
            warm = WarmBm25(conn, HEADING_WEIGHT, cold_queries=0)
            text = " ".join(query)
            assert warm_ranking(conn, warm, text, limit) == whole_query(conn, text, limit)
            assert warm_ranking(conn, warm, text, limit, Filters(docs=("doc0",))) == whole_query(
                conn, text, limit, "doc0"
            )
            ann = ("user:ann@example.com",)
            assert warm_ranking(conn, warm, text, limit, readers=ann) == whole_query(conn, text, limit, None, ann[0])
        finally:
            conn.close()


@pytest.fixture(scope="module")
def articles(corpus: Path):
    return wiki_documents(corpus / "chunking_evaluation" / "corpora" / "wikitexts.md")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, articles, seeds: Path) -> Path:
    return articles_index(tmp_path_factory.mktemp("warm") / "index.db", articles, seeds)


def questions(articles) -> list[str]:
    """A long sentence of each of 15 articles (common words and all), and its three longest words."""
    found = []
    for _, chunks in articles[:15]:
        sentence = max(re.split(r"(?<=[.!?])\s+", chunks[len(chunks) // 2].text), key=len)
        found += [sentence, " ".join(sorted(sentence.split(), key=len)[-3:])]
    return found


def test_real_articles_rank_as_fts5_ranks_the_whole_query(index: Path, articles) -> None:
    conn = connect_index(index, create=False)
    warm = WarmBm25(conn, HEADING_WEIGHT, cold_queries=0)
    asked = questions(articles)
    assert len(asked) == 30
    assert sum(len(whole_query(conn, q, 100)) == 100 for q in asked) >= 10  # long lists, not only short ones
    for query in asked:
        for limit in (1, 10, 100):
            theirs = whole_query(conn, query, limit)
            assert theirs
            assert warm_ranking(conn, warm, query, limit) == theirs, (query, limit)
    conn.close()


def test_evicted_postings_are_read_again_with_the_same_ranking(index: Path, articles) -> None:
    conn = connect_index(index, create=False)
    warm = WarmBm25(conn, HEADING_WEIGHT, max_postings=500, cold_queries=0)
    for query in questions(articles)[:10]:
        assert warm_ranking(conn, warm, query, 20) == whole_query(conn, query, 20)
        biggest = max(t.rows or 0 for t in warm.terms(query_phrases(query)))
        assert 0 < warm.held <= max(500, biggest)  # the cap holds; the last term read is kept whole
    conn.close()


def test_the_ranking_follows_the_sink_replacing_and_deleting_documents(tmp_path: Path) -> None:
    index = tmp_path / "index.db"
    rng = random.Random(7)
    docs = generated(rng, 5, 30)
    with SqliteSink(index) as sink:
        for doc, cs in docs:
            sink.write(doc, cs)
    conn = connect_index(index, create=False)
    warm = WarmBm25(conn, HEADING_WEIGHT, cold_queries=0)
    query = "the ibuprofen dose for children revenue"
    before = warm_ranking(conn, warm, query, 100)
    assert before == whole_query(conn, query, 100)
    assert any(cid.startswith("doc1-") for cid, _ in before)
    assert warm.memory_bytes() > 0
    with SqliteSink(index) as sink:  # another connection, as a run beside a search service
        sink.write(*document("doc1", [(("Dosing",), "ibuprofen ibuprofen dose children zebra")]))
        sink.delete("doc2")
        sink.write(*document("doc9", [(("New",), "the zebra revenue revenue ibuprofen")]))
    after = warm_ranking(conn, warm, query + " zebra", 100)
    assert after == whole_query(conn, query + " zebra", 100)
    ids = {cid for cid, _ in after}
    assert "doc1-0" in ids and "doc9-0" in ids
    assert not any(cid.startswith("doc2-") or re.fullmatch(r"doc1-[1-9]\d*", cid) for cid in ids)
    conn.close()


def test_hybrid_search_with_a_vector_index_ranks_bm25_in_memory(index: Path, articles) -> None:
    """A `VectorIndex` kept open ranks its bm25 half without asking FTS5's bm25() from its second
    query on, and that half is FTS5's ranking."""
    with VectorIndex(index) as vectors:
        assert isinstance(vectors.terms, WarmBm25)
        sent: list[str] = []
        vectors.conn.set_trace_callback(sent.append)
        first, second = questions(articles)[4:6]
        words = [(c.id, s) for c, s in ranked_bm25(vectors.conn, first, 50, None, None, vectors.terms)]
        assert [s for s in sent if "bm25(" in s]  # the first query: FTS5 ranks it, nothing is read
        assert vectors.terms.held == 0
        reference = whole_query(vectors.conn, first, 50)  # a one-off search's ranking: common words' 1e-6 left out
        assert [s for _, s in words] == pytest.approx([s for _, s in reference], abs=1e-4)
        for query in (first, second):
            sent.clear()
            words = [(c.id, s) for c, s in ranked_bm25(vectors.conn, query, 50, None, None, vectors.terms)]
            assert sent and not [s for s in sent if "bm25(" in s]
            assert words == whole_query(vectors.conn, query, 50)
        vectors.conn.set_trace_callback(None)
        assert vectors.terms.held > 0


def test_hybrid_search_mode_answers_from_the_warm_ranking(index: Path, articles) -> None:
    # The articles index has no vectors: hybrid fuses bm25 with an empty vector list, so its order
    # is bm25's, which must be the whole query's.
    with VectorIndex(index, embedder=_NoVectors()) as vectors:
        for query in questions(articles)[:4]:
            hits = search_mode(index, query, "hybrid", k=10, window=0, vectors=vectors)
            assert [h.chunk.id for h in hits] == [cid for cid, _ in whole_query(vectors.conn, query, 10)]
        assert vectors.terms.held > 0


class _NoVectors:
    name = "none"
    dimensions = 4

    def embed(self, texts):
        import numpy as np

        return np.ones((len(texts), 4), dtype=np.float32) / 2


def test_long_questions_are_scored_on_every_word_only_near_the_top(index: Path, articles, monkeypatch) -> None:
    """MaxScore in memory: with common words in the query, only the chunks near the top by the
    rarer words are scored on all of them, and the ranking is still the whole query's."""
    answered: list[int] = []
    among = WarmBm25._among_rarer

    def spy(self, *args):
        found = among(self, *args)
        answered.append(-1 if found is None else len(found))
        return found

    monkeypatch.setattr(WarmBm25, "_among_rarer", spy)
    conn = connect_index(index, create=False)
    warm = WarmBm25(conn, HEADING_WEIGHT, cold_queries=0)
    for query in questions(articles)[::2]:  # the long sentences: "the", "of" and "and" among their words
        for limit in (5, 100):
            assert warm_ranking(conn, warm, query, limit) == whole_query(conn, query, limit)
    conn.close()
    assert sum(n > 0 for n in answered) >= 10
