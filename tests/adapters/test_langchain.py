"""The LangChain adapters against langchain-core itself: the retriever over a real index (through
`invoke`, `batch`, `ainvoke` and an LCEL chain) and the loader against `ingest chunk`."""

from __future__ import annotations

import asyncio
import logging
import shutil
from pathlib import Path

import pytest
from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

import ingest
from ingest.adapters.langchain import IngestLoader, IngestRetriever
from ingest.errors import ConfigError, LoaderError, SinkError
from tests.adapters.chunk_lines import cites, expected_metadata, ingest_chunk, small_config
from tests.adapters.questions import QUESTIONS
from tests.paths import ROOT


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid", None])
@pytest.mark.parametrize(("question", "doc", "heading", "answer"), QUESTIONS)
def test_the_chunk_that_answers_comes_first(index: Path, mode, question, doc, heading, answer) -> None:
    docs = IngestRetriever(index=index, k=3, mode=mode).invoke(question)
    assert len(docs) == 3 and all(isinstance(d, Document) for d in docs)
    first = docs[0]
    assert first.metadata["doc_name"] == doc and first.metadata["heading"].endswith(heading)
    assert answer in first.page_content
    scores = [d.metadata["score"] for d in docs]
    assert scores == sorted(scores, reverse=True)


def test_metadata_is_the_hits_and_finds_its_chunk_again(index: Path) -> None:
    question = "certificate renewal alert retries"
    docs = IngestRetriever(index=index, k=4, mode="bm25").invoke(question)
    hits = ingest.search(index, question, k=4, mode="bm25", window=0)
    assert [d.id for d in docs] == [h.chunk.id for h in hits]
    for doc, hit in zip(docs, hits):
        assert doc.page_content == hit.chunk.text
        assert doc.metadata == {
            "chunk_id": hit.chunk.id,
            "doc_id": hit.chunk.doc_id,
            "chunk_index": hit.chunk.chunk_index,
            "doc_name": hit.chunk.source.name,
            "uri": hit.chunk.source.uri,
            "mime_type": hit.chunk.source.mime_type,
            "modified": hit.chunk.source.modified,
            "heading": " > ".join(hit.chunk.heading_path),
            "page_start": hit.chunk.page_start,
            "page_end": hit.chunk.page_end,
            "url": hit.chunk.url,
            "citation": hit.citation,
            "score": hit.score,
        }
    # The PDF's "Actions" section is on its second page, and the metadata says so.
    actions = next(d for d in docs if d.metadata["heading"].endswith("Actions"))
    assert (actions.metadata["page_start"], actions.metadata["mime_type"]) == (2, "application/pdf")
    # Metadata is flat (any vector store takes it) and its heading and document are filters again.
    assert all(isinstance(v, str | int | float | type(None)) for d in docs for v in d.metadata.values())
    again = IngestRetriever(
        index=index, k=5, filters={"heading": actions.metadata["heading"], "docs": actions.metadata["doc_id"]}
    ).invoke(question)
    assert [d.id for d in again] == [actions.id]


def test_the_window_joins_the_neighbours_into_the_text(index: Path) -> None:
    [alone] = IngestRetriever(index=index, k=1, mode="bm25").invoke("Hartford depot")
    [wide] = IngestRetriever(index=index, k=1, mode="bm25", window=1).invoke("Hartford depot")
    assert alone.id == wide.id and "Hartford" in alone.page_content
    assert wide.page_content.startswith(alone.page_content) and "Customers may return" in wide.page_content


def test_a_reranker_reorders_as_ingest_search_does(index: Path, cross_encoder: Path) -> None:
    question = "when are certificates renewed before expiry"
    docs = IngestRetriever(index=index, k=3, mode="bm25", rerank=cross_encoder).invoke(question)
    hits = ingest.search(index, question, k=3, mode="bm25", window=0, rerank=cross_encoder)
    assert [(d.id, d.metadata["score"]) for d in docs] == [(h.chunk.id, h.score) for h in hits]
    assert docs[0].metadata["heading"].endswith("Actions")  # holds every word of the question
    with pytest.raises(ConfigError, match="rerank.top: Input should be greater than or equal to 1"):
        IngestRetriever(index=index, rerank={"model": cross_encoder, "top": 0})
    with pytest.raises(ConfigError, match="rerank.model .*nowhere: is not a folder"):
        IngestRetriever(index=index, rerank=cross_encoder.parent / "nowhere")


def test_filters_narrow_the_documents(index: Path) -> None:
    question = "certificate retries alert"
    pdf = IngestRetriever(index=index, filters=ingest.Filters(mime_types="application/pdf")).invoke(question)
    assert pdf and {d.metadata["doc_name"] for d in pdf} == {"incident-review.pdf"}
    recent = IngestRetriever(index=index, k=10, mode="bm25", filters={"modified_after": "2025-01-01"})
    names = {d.metadata["doc_name"] for d in recent.invoke("delivery orders fever export")}
    assert names == {"release-notes.txt", "paediatric-fever.md", "delivery.md"}
    # By meaning (the default here: the index holds vectors) the nearest of a document's chunks
    # come back even when none holds a query word; by words, none.
    planning = IngestRetriever(index=index, filters={"docs": "planning"}).invoke(question)
    assert planning and {d.metadata["doc_name"] for d in planning} == {"planning.xlsx"}
    assert IngestRetriever(index=index, mode="bm25", filters={"docs": "planning"}).invoke(question) == []


def test_a_field_changed_after_construction_counts(index: Path) -> None:
    retriever = IngestRetriever(index=index, k=1, mode="bm25")
    assert len(retriever.invoke("delivery")) == 1
    retriever.k = 3
    assert len(retriever.invoke("delivery")) == 3


def test_batch_and_async_answer_as_invoke(index: Path) -> None:
    retriever = IngestRetriever(index=index, k=2, mode="hybrid")
    questions = [q for q, *_ in QUESTIONS]
    one_by_one = [retriever.invoke(q) for q in questions]
    assert retriever.batch(questions) == one_by_one

    async def both() -> list[list[Document]]:
        return list(await asyncio.gather(*(retriever.ainvoke(q) for q in questions)))

    assert asyncio.run(both()) == one_by_one


def test_an_lcel_chain_puts_the_answer_and_its_citation_in_the_prompt(index: Path) -> None:
    retriever = IngestRetriever(index=index, k=2, mode="bm25")

    def cited(docs: list[Document]) -> str:
        return "\n\n".join(f"[{d.metadata['citation']}]\n{d.page_content}" for d in docs)

    prompt = ChatPromptTemplate.from_template("Answer from the context.\n{context}\n\nQuestion: {question}")
    chain = {"context": retriever | RunnableLambda(cited), "question": RunnablePassthrough()} | prompt
    [message] = chain.invoke("How many days ahead must flights be booked?").to_messages()
    first = message.content.split("\n\n[")[0]
    assert "[travel-policy.docx > Travel policy > Booking (file://" in first and "at least 14 days ahead" in first
    assert message.content.endswith("Question: How many days ahead must flights be booked?")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "fuzzy"}, "mode: unknown search mode 'fuzzy'; choose one of bm25, vector, hybrid"),
        ({"k": 0}, "k: expected a whole number of results, at least 1, got 0"),
        ({"window": -1}, "window: expected a whole number of chunks, at least 0, got -1"),
        ({"filters": {"doc": "a.md"}}, "filters: unknown filter 'doc'"),
        ({"filters": {"modified_after": "last week"}}, "filters.modified_after: 'last week' is not a date"),
        ({"readers": "ann@example.com"}, "readers: expected a tuple of readers"),
    ],
)
def test_a_bad_setting_fails_where_the_retriever_is_made(index: Path, kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        IngestRetriever(index=index, **kwargs)
    assert message in str(caught.value)


def test_a_missing_index_says_to_run_first(tmp_path: Path) -> None:
    retriever = IngestRetriever(index=tmp_path / "none.sqlite")  # may be made before the first run
    with pytest.raises(SinkError, match=r"none\.sqlite: no index here; run `ingest run` first"):
        retriever.invoke("delivery")


def test_the_loader_gives_what_ingest_chunk_prints() -> None:
    lines = ingest_chunk("examples")
    docs = IngestLoader(ROOT / "examples").load()
    assert len(docs) == len(lines) > 10
    assert {d.metadata["mime_type"] for d in docs} >= {"application/pdf", "text/markdown", "text/plain"}
    for doc, line in zip(docs, lines):
        assert (doc.id, doc.page_content) == (line["id"], line["text"])
        assert {k: v for k, v in doc.metadata.items() if k != "citation"} == expected_metadata(line)
        assert cites(doc.metadata["citation"], line)


def test_the_loader_takes_a_config_and_a_list_of_files(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    files = [ROOT / "examples" / "paediatric-fever.md", ROOT / "examples" / "incident-review.pdf"]
    lines = ingest_chunk("--config", config, *files)
    docs = IngestLoader(files, config=config).load()
    assert [(d.id, d.page_content) for d in docs] == [(c["id"], c["text"]) for c in lines]
    assert len(docs) > 2 * len(IngestLoader(files).load())  # the config's 40 characters, not 512 tokens
    options = ingest.ChunkOptions(max_tokens=40, min_tokens=0, overlap_tokens=0, tokenizer="chars")
    assert [d.id for d in IngestLoader(files, options=options).load()] == [d.id for d in docs]


def test_the_loader_is_lazy_and_names_what_it_cannot_read(tmp_path: Path, caplog) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(ROOT / "examples" / "paediatric-fever.md", folder / "a-fever.md")
    (folder / "b-broken.pdf").write_bytes(b"%PDF-1.7 this is not a PDF")
    (folder / "c-picture.gif").write_bytes(b"GIF89a")
    loading = IngestLoader(folder).lazy_load()
    with caplog.at_level(logging.WARNING, logger="ingest.adapters"):
        first = next(loading)  # the folder is walked first: the .gif is named as skipped
    assert first.metadata["doc_name"] == "a-fever.md"
    assert any("skipped" in r.message and "c-picture.gif" in r.message for r in caplog.records)
    with pytest.raises(LoaderError, match=r"b-broken\.pdf"):
        list(loading)


def test_the_loader_refuses_what_is_not_there(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.md: no such file or folder"):
        IngestLoader(tmp_path / "nowhere.md")
    with pytest.raises(ConfigError, match="paths: no file or folder given"):
        IngestLoader([])
    (tmp_path / "only.gif").write_bytes(b"GIF89a")
    with pytest.raises(ConfigError, match="no file a loader reads is there"):
        IngestLoader(tmp_path).load()
