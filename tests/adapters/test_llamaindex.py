"""The LlamaIndex adapters against llama-index-core itself: the retriever over a real index
(through `retrieve`, `aretrieve` and a query engine whose model only echoes its prompt) and the
reader against `ingest chunk`, alone and as a SimpleDirectoryReader's file extractor."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from llama_index.core import SimpleDirectoryReader
from llama_index.core.llms import MockLLM
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.postprocessor import SimilarityPostprocessor
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import Document, MetadataMode, NodeWithScore, TextNode

import ingest
from ingest.adapters.llamaindex import IngestReader, IngestRetriever
from ingest.errors import ConfigError, SinkError
from tests.adapters.chunk_lines import cites, expected_metadata, ingest_chunk, small_config
from tests.adapters.questions import QUESTIONS
from tests.paths import ROOT


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid", None])
@pytest.mark.parametrize(("question", "doc", "heading", "answer"), QUESTIONS)
def test_the_chunk_that_answers_comes_first(index: Path, mode, question, doc, heading, answer) -> None:
    found = IngestRetriever(index, k=3, mode=mode).retrieve(question)
    assert len(found) == 3 and all(isinstance(n, NodeWithScore) and isinstance(n.node, TextNode) for n in found)
    first = found[0].node
    assert first.metadata["doc_name"] == doc and first.metadata["heading"].endswith(heading)
    assert answer in first.get_content()
    assert [n.score for n in found] == sorted((n.score for n in found), reverse=True)


def test_nodes_carry_the_hits_metadata_place_and_document(index: Path) -> None:
    question = "certificate renewal alert retries"
    found = IngestRetriever(index, k=4, mode="bm25").retrieve(question)
    hits = ingest.search(index, question, k=4, mode="bm25", window=0)
    assert [n.node.node_id for n in found] == [h.chunk.id for h in hits]
    for scored, hit in zip(found, hits):
        node = scored.node
        assert scored.score == node.metadata["score"] == hit.score
        assert node.get_content() == hit.chunk.text
        assert node.ref_doc_id == hit.chunk.doc_id  # the document, for a docstore's delete by document
        assert (node.start_char_idx, node.end_char_idx) == (hit.chunk.start, hit.chunk.end)
        assert node.metadata["citation"] == hit.citation
        assert node.metadata["heading"] == " > ".join(hit.chunk.heading_path)
        assert node.metadata["page_start"] == hit.chunk.page_start
    actions = next(n.node for n in found if n.node.metadata["heading"].endswith("Actions"))
    # The model is shown what the chunk is and where to cite it; ids, uris and scores stay out.
    shown = actions.get_content(metadata_mode=MetadataMode.LLM)
    assert shown.startswith("doc_name: incident-review.pdf\nheading: Incident review: storage outage > Actions\n")
    assert "page_start: 2\npage_end: 2\n" in shown
    assert not any(key in shown for key in ("chunk_id", "score", "file://", "mime_type"))
    embedded = actions.get_content(metadata_mode=MetadataMode.EMBED)
    assert embedded.startswith("doc_name: incident-review.pdf\nheading: Incident review: storage outage > Actions\n\n")
    again = IngestRetriever(index, filters={"heading": actions.metadata["heading"]}).retrieve(question)
    assert [n.node.node_id for n in again] == [actions.node_id]


def test_filters_and_async(index: Path) -> None:
    retriever = IngestRetriever(index, k=5, mode="hybrid", filters={"mime_types": ["application/pdf"]})
    found = retriever.retrieve("certificate retries alert")
    assert found and {n.node.metadata["doc_name"] for n in found} == {"incident-review.pdf"}
    assert [n.node.node_id for n in asyncio.run(retriever.aretrieve("certificate retries alert"))] == [
        n.node.node_id for n in found
    ]
    before = IngestRetriever(index, k=10, mode="bm25", filters={"modified_before": "2024-06-01"})
    names = {n.node.metadata["doc_name"] for n in before.retrieve("flights certificate storage booking")}
    assert names == {"travel-policy.docx", "incident-review.pdf"}


def test_a_reranker_reorders_as_ingest_search_does(index: Path, cross_encoder: Path) -> None:
    question = "when are certificates renewed before expiry"
    found = IngestRetriever(index, k=3, mode="hybrid", rerank=str(cross_encoder)).retrieve(question)
    hits = ingest.search(index, question, k=3, mode="hybrid", window=0, rerank=cross_encoder)
    assert [(n.node.node_id, n.score) for n in found] == [(h.chunk.id, h.score) for h in hits]
    assert found[0].node.metadata["heading"].endswith("Actions")


def test_a_query_engine_puts_what_passes_its_cutoff_in_the_prompt(index: Path) -> None:
    # MockLLM answers with the prompt it is given, so the response is what a model would read.
    retriever = IngestRetriever(index, k=3, mode="vector")
    engine = RetrieverQueryEngine.from_args(
        retriever,
        llm=MockLLM(),
        response_mode="compact",
        node_postprocessors=[SimilarityPostprocessor(similarity_cutoff=0.3)],
    )
    response = engine.query("When is ibuprofen avoided?")
    everything = retriever.retrieve("When is ibuprofen avoided?")
    kept = [n for n in everything if n.score >= 0.3]
    assert 0 < len(kept) < len(everything)  # the cutoff, on the retriever's cosines, drops some
    assert [n.node.node_id for n in response.source_nodes] == [n.node.node_id for n in kept]
    prompt = str(response)
    assert "heading: Paediatric fever > Antipyretic dosing > Contraindications\n\nIbuprofen is avoided" in prompt
    assert prompt.rstrip().endswith("Query: When is ibuprofen avoided?\nAnswer:")
    assert "chunk_id" not in prompt


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "fuzzy"}, "mode: unknown search mode 'fuzzy'"),
        ({"k": 0}, "k: expected a whole number of results, at least 1, got 0"),
        ({"filters": ["a.md"]}, "filters: expected Filters or a dict of its fields, got list"),
        ({"readers": ("nobody",)}, "readers: 'nobody' is not a reader"),
    ],
)
def test_a_bad_setting_fails_where_the_retriever_is_made(index: Path, kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        IngestRetriever(index, **kwargs)
    assert message in str(caught.value)


def test_a_missing_index_says_to_run_first(tmp_path: Path) -> None:
    with pytest.raises(SinkError, match="no index here; run `ingest run` first"):
        IngestRetriever(tmp_path / "none.sqlite").retrieve("delivery")


def test_the_reader_gives_what_ingest_chunk_prints() -> None:
    lines = ingest_chunk("examples")
    documents = IngestReader().load_data(ROOT / "examples")
    assert len(documents) == len(lines) > 10 and all(isinstance(d, Document) for d in documents)
    for document, line in zip(documents, lines):
        assert (document.doc_id, document.text) == (line["id"], line["text"])
        assert {k: v for k, v in document.metadata.items() if k != "citation"} == expected_metadata(line)
        assert cites(document.metadata["citation"], line)
    lazy = IngestReader().lazy_load_data([ROOT / "examples" / "release-notes.txt"])
    assert [d.doc_id for d in lazy] == [c["id"] for c in lines if c["source"]["name"] == "release-notes.txt"]


def test_the_reader_takes_a_config(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    file = ROOT / "examples" / "incident-review.pdf"
    lines = ingest_chunk("--config", config, file)
    documents = IngestReader(config=config).load_data(file)
    assert [(d.doc_id, d.text) for d in documents] == [(c["id"], c["text"]) for c in lines]
    assert len(documents) > 2 * len(IngestReader().load_data(file))


def test_the_reader_as_a_simple_directory_readers_extractor() -> None:
    # An application's own SimpleDirectoryReader, with ingest reading its Markdown and PDFs.
    reader = SimpleDirectoryReader(
        str(ROOT / "examples"),
        recursive=True,
        required_exts=[".md", ".pdf"],
        file_extractor={".md": IngestReader(), ".pdf": IngestReader()},
    )
    documents = reader.load_data()
    lines = ingest_chunk("examples/handbook", "examples/incident-review.pdf", "examples/paediatric-fever.md")
    assert [d.doc_id for d in documents] == [c["id"] for c in lines]
    for document, line in zip(documents, lines):
        assert document.metadata["heading"] == " > ".join(line["heading_path"])
        assert document.metadata["file_name"] == line["source"]["name"]  # its own metadata joins ingest's
    # Its default splitter leaves ingest's chunks whole (each under its 1,024 tokens).
    nodes = SentenceSplitter().get_nodes_from_documents(documents)
    assert [n.get_content() for n in nodes] == [c["text"] for c in lines]


def test_the_reader_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.md: no such file or folder"):
        IngestReader().load_data(tmp_path / "nowhere.md")
    with pytest.raises(ConfigError, match="fs: reads local files only"):
        IngestReader().load_data(ROOT / "examples" / "paediatric-fever.md", fs=object())


def test_nothing_is_fetched_from_the_network(index: Path) -> None:
    # A fresh interpreter whose sockets refuse to connect: the frameworks import, llama-index's
    # splitter reads its NLTK data and tokenizer (from its wheel), and both retrievers answer.
    code = f"""
import socket
tried = []
def refuse(*address, **_):
    tried.append(address[-1] if len(address) == 2 else address[0])
    raise OSError("network is off in this test")
socket.socket.connect = refuse
socket.getaddrinfo = refuse  # a name looked up is a download tried, whether or not it resolves
from ingest.adapters.langchain import IngestRetriever as LangChainRetriever
from ingest.adapters.llamaindex import IngestReader, IngestRetriever
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.utils import globals_helper
documents = IngestReader().load_data({str(ROOT / "examples")!r})
nodes = SentenceSplitter(chunk_size=100, chunk_overlap=0).get_nodes_from_documents(documents)
assert len(nodes) > len(documents) and "the" in globals_helper.stopwords
assert IngestRetriever({str(index)!r}, mode="hybrid").retrieve("flights booked")
assert LangChainRetriever(index={str(index)!r}, mode="hybrid").invoke("flights booked")
print("tried", tried)
"""
    env = {k: v for k, v in os.environ.items() if k != "NLTK_DATA"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "tried []"
