"""The storage tests' hand-cut documents (tests/storage/documents.py) cut where they say."""

from __future__ import annotations

from pathlib import Path

from tests.storage.documents import markdown_document, wiki_documents


def test_markdown_document_cuts_the_seed_article_at_its_sections(seeds: Path) -> None:
    doc, chunks = markdown_document(seeds / "paediatric-fever.md")
    source = (seeds / "paediatric-fever.md").read_text(encoding="utf-8")
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    assert all(source[c.start : c.end] == c.text for c in chunks)
    code = [c for c in chunks if c.kinds == ("code",)]
    assert len(code) == 1 and code[0].heading_path == ("Paediatric fever", "Recording a reading")
    assert [c.heading_path[-1] for c in chunks if c.kinds == ("table",)] == ["Antipyretic dosing"]


def test_wiki_documents_splits_the_corpus_into_its_articles(corpus: Path) -> None:
    docs = wiki_documents(corpus / "chunking_evaluation" / "corpora" / "wikitexts.md")
    assert len(docs) == 17
    doc, chunks = docs[0]
    assert doc.name == "Valkyria Chronicles III"
    assert chunks[2].heading_path == ("Valkyria Chronicles III",)
    assert chunks[3].heading_path == ("Valkyria Chronicles III", "Gameplay")
    assert len({d.id for d, _ in docs}) == 17
