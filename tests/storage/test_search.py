"""Search over the SQLite index built from real articles: ranking, neighbour windows, safe queries."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from ingest.blocks import Chunk, Document
from ingest.errors import IngestError, SinkError
from ingest.search.bm25 import Hit, SearchError, citation, index_stats, join_context, search
from tests.storage.documents import articles_index, make_chunk, markdown_document, wiki_documents


@pytest.fixture(scope="module")
def articles(corpus: Path) -> list[tuple[Document, list[Chunk]]]:
    return wiki_documents(corpus / "chunking_evaluation" / "corpora" / "wikitexts.md")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, articles, seeds: Path) -> Path:
    return articles_index(tmp_path_factory.mktemp("search") / "index.db", articles, seeds)


def by_heading(articles, doc_name: str, heading: str) -> list[Chunk]:
    doc, chunks = next(a for a in articles if a[0].name == doc_name)
    return [c for c in chunks if c.heading_path[-1] == heading]


def test_a_term_in_the_heading_outranks_the_same_term_in_a_body(index: Path, articles) -> None:
    # "Gameplay" is the title of one section of the Valkyria article, and a word in the body of
    # its Reception section. Two of the Gameplay section's three paragraphs never say "gameplay".
    heading_only = [
        c for c in by_heading(articles, "Valkyria Chronicles III", "Gameplay") if "gameplay" not in c.text.lower()
    ]
    in_body = next(c for c in by_heading(articles, "Valkyria Chronicles III", "Reception") if "gameplay" in c.text)
    assert len(heading_only) == 2

    # Unweighted, bm25 prefers the body mention: the weighting is what turns the order round.
    with sqlite3.connect(index) as conn:
        unweighted = [
            r[0]
            for r in conn.execute(
                "SELECT c.id FROM chunks_fts JOIN chunks c ON c.seq = chunks_fts.rowid "
                "WHERE chunks_fts MATCH 'gameplay' ORDER BY bm25(chunks_fts, 1.0, 1.0)"
            )
        ]
    assert all(unweighted.index(in_body.id) < unweighted.index(c.id) for c in heading_only)

    hits = search(index, "gameplay", k=10)
    ids = [h.chunk.id for h in hits]
    assert hits[0].chunk in heading_only
    assert ids.index(in_body.id) > 0
    # FTS5 weights multiply term frequency, which bm25 saturates, and it normalises by the whole
    # row's length: the long heading-only paragraph (1,215 characters) may still trail the body
    # mention. The short one (485 characters) must lead it.
    short = min(heading_only, key=lambda c: len(c.text))
    assert ids.index(short.id) < ids.index(in_body.id)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.score > 0 for h in hits)


def test_a_hit_is_widened_with_its_own_documents_neighbours_in_order(index: Path, articles) -> None:
    [hit] = search(index, "Gameplay", k=1, window=2)
    assert hit.chunk.heading_path[-1] == "Gameplay"
    doc_chunks = next(chunks for doc, chunks in articles if doc.id == hit.chunk.doc_id)
    i = hit.chunk.chunk_index
    assert hit.neighbours == (i - 2, i - 1, i, i + 1, i + 2)
    assert hit.context == "\n\n".join(c.text for c in doc_chunks[i - 2 : i + 3])
    assert hit.citation == "Valkyria Chronicles III > Gameplay (https://en.wikipedia.org/wiki/Valkyria_Chronicles_III)"

    [solo] = search(index, "Gameplay", k=1, window=0)
    assert solo.neighbours == (i,) and solo.context == hit.chunk.text


def test_the_window_stops_at_the_ends_of_a_document(index: Path, articles) -> None:
    # Every article's chunk indexes start at 0, so a window that crossed documents would find
    # index 0..2 chunks of other articles too.
    first = articles[0][1][0]  # "Senjō no Valkyria 3 ..." opens the corpus
    hits = search(index, "Senjō Valkyria Chronicles Japanese", k=3, window=3)
    hit = next(h for h in hits if h.chunk.id == first.id)
    assert hit.neighbours == (0, 1, 2, 3)
    assert hit.context.startswith(first.text)
    assert hit.context == "\n\n".join(c.text for c in articles[0][1][:4])

    doc, chunks = next(a for a in articles if a[0].name == "Plain maskray")
    last = chunks[-1]
    [tail] = [h for h in search(index, last.text, k=3, window=2) if h.chunk.id == last.id]
    assert tail.neighbours == (last.chunk_index - 2, last.chunk_index - 1, last.chunk_index)


def test_overlap_is_printed_once_in_the_context(seeds: Path) -> None:
    doc, chunks = markdown_document(seeds / "paediatric-fever.md")
    first = chunks[1].text  # "Parents frequently ask ... It is not. Fever is a response, ..."
    tail = first[first.index("Fever is a response") :]
    second = make_chunk(doc, 2, tail + " " + chunks[2].text, chunks[2].heading_path, overlap_tokens=12)
    context = join_context([chunks[1], second])
    assert context == first + " " + chunks[2].text
    assert context.count("Fever is a response") == 1
    # Without the overlap marker, or when the prefix is not the previous tail, nothing is cut.
    plain = dataclasses.replace(second, overlap_tokens=0)
    assert join_context([chunks[1], plain]) == first + "\n\n" + plain.text
    unrelated = make_chunk(doc, 2, chunks[2].text, chunks[2].heading_path, overlap_tokens=12)
    assert join_context([chunks[1], unrelated]) == first + "\n\n" + chunks[2].text


@pytest.mark.parametrize(
    "query",
    [
        'fever "',
        '"unbalanced quote',
        "fever AND",
        "NOT fever",
        "fever OR",
        "fever NEAR(dose",
        "NEAR(fever dose, 3)",
        "dos*",
        "*",
        "text: fever",
        "heading:Gameplay",
        "(fever",
        "fever)",
        "^fever",
        "-fever +dose",
        "{heading text}: fever",
        "fever'; DROP TABLE chunks; --",
        "\x00fever",
    ],
)
def test_free_text_queries_never_reach_fts5_as_syntax(index: Path, query: str) -> None:
    hits = search(index, query, k=3)
    assert all(isinstance(h, Hit) for h in hits)
    if "fever" in query.lower():
        assert hits, "a query that names a word in the index finds it"


def test_queries_without_words_find_nothing(index: Path) -> None:
    assert search(index, "") == []
    assert search(index, " * ( ) -- : ") == []


def test_operators_are_searched_as_words(index: Path) -> None:
    # "NOT" quoted is the word "not": it must not exclude the fever article.
    hits = search(index, "NOT thermometer", k=20)
    assert any("thermometer" in h.chunk.text for h in hits)


def test_bad_arguments_and_missing_index_say_what_to_do(tmp_path: Path, index: Path) -> None:
    missing = tmp_path / "nowhere" / "index.db"
    with pytest.raises(SinkError, match="ingest run") as err:
        search(missing, "fever")
    assert str(missing) in str(err.value)
    assert not missing.parent.exists()  # searching never creates an index
    with pytest.raises(SearchError):
        search(index, "fever", k=0)
    assert issubclass(SearchError, IngestError)
    empty = tmp_path / "empty.db"
    empty.touch()
    with pytest.raises(SinkError, match="ingest run"):
        search(empty, "fever")


def test_index_stats_counts_documents_and_chunks(index: Path, articles) -> None:
    stats = index_stats(index)
    assert stats == {"documents": len(articles) + 1, "chunks": sum(len(c) for _, c in articles) + 8}


def test_citation_names_the_file_then_the_headings(index: Path) -> None:
    hit = search(index, "chickenpox", k=1)[0]
    assert hit.citation == (
        f"paediatric-fever.md > Paediatric fever > Antipyretic dosing > Contraindications ({hit.chunk.source.uri})"
    )
    assert hit.chunk.source.uri.startswith("file:///") and hit.chunk.source.uri.endswith("paediatric-fever.md")
    # A title the loader made from the file name is not repeated.
    titled = dataclasses.replace(hit.chunk, heading_path=("paediatric-fever", "Contraindications"))
    assert citation(titled) == f"paediatric-fever.md > Contraindications ({hit.chunk.source.uri})"


def test_context_of_real_overlapping_chunks_is_the_source_span(corpus: Path) -> None:
    # The chunker's overlap on a real speech: each chunk's text is its span of the source, so two
    # neighbours joined without the repeated tail must be exactly the source from one to the other.
    from ingest.chunker import ChunkOptions, chunk
    from ingest.loaders import load_bytes

    path = corpus / "chunking_evaluation" / "corpora" / "state_of_the_union.md"
    doc = Document(id=str(path), uri=path.as_uri(), name=path.name, mime_type="text/markdown")
    loaded = load_bytes(path.read_bytes(), doc)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=120, min_tokens=20, overlap_tokens=30)))
    pairs = [(a, b) for a, b in zip(chunks, chunks[1:]) if b.overlap_tokens and b.start < a.end]
    assert len(pairs) > 20
    exact_without_spans = 0
    for a, b in pairs:
        source = loaded.text[a.start : b.end]
        assert join_context([a, b]) == source
        # Without spans (formats with no source text) the overlap is found by matching: never a
        # loss, at worst a repeat (this speech says "That's what America does." twice in a row).
        a0, b0 = (dataclasses.replace(x, start=None, end=None) for x in (a, b))
        context = join_context([a0, b0])
        assert context.startswith(a.text) and context.endswith(loaded.text[a.end : b.end])
        exact_without_spans += context == source
    assert exact_without_spans >= 0.9 * len(pairs)
    a, b, c = chunks[pairs[0][0].chunk_index : pairs[0][0].chunk_index + 3]
    assert join_context([a, b, c]).count(b.text[: a.end - b.start]) == 1


def test_the_title_leaves_every_chunks_indexed_text_but_its_name_still_finds_the_document(tmp_path: Path) -> None:
    # A real Markdown file through the real loader, chunker and SQLite index. The title is the
    # root of every chunk's heading path; "Zanzibar" is in the title and nowhere in the body.
    from ingest import chunk, load_file
    from ingest.sinks import SqliteSink

    md = tmp_path / "timetable.md"
    md.write_text(
        "# Zanzibar Ferry Timetable\n\n"
        "## Fares\n\nAdults pay twelve dollars a crossing; children under five travel free.\n\n"
        "## Departures\n\nBoats leave the harbour at nine in the morning and at four in the afternoon.\n"
    )
    other = tmp_path / "canteen.md"
    other.write_text("# Canteen Menu\n\n## Lunch\n\nSoup of the day, bread and a fruit, served from noon.\n")
    loaded = {p.name: (load_file(p), list(chunk(load_file(p)))) for p in (md, other)}
    doc, chunks = loaded["timetable.md"][0].document, loaded["timetable.md"][1]
    body = [c for c in chunks if c.heading_path[1:]]
    assert {c.heading_path for c in body} == {
        ("Zanzibar Ferry Timetable", "Fares"),
        ("Zanzibar Ferry Timetable", "Departures"),
    }
    # What is embedded (and what rag_eval's BM25 reads) holds the headings under the title only.
    assert all("Zanzibar" not in c.embed_text for c in chunks)
    assert {c.embed_text.partition("\n\n")[0] for c in body} == {"Fares", "Departures"}

    index = tmp_path / "index.db"
    with SqliteSink(index) as sink:
        for loaded_doc, doc_chunks in loaded.values():
            sink.write(loaded_doc.document, doc_chunks)
    hits = search(index, "Zanzibar", k=10)
    # The name finds the document (its heading column holds the whole path) and nothing else.
    assert hits and {h.chunk.doc_id for h in hits} == {doc.id}
    assert {h.chunk.heading_path[-1] for h in hits} >= {"Fares", "Departures"}
    # The path shown with a hit is whole: the file name, the title, then the section.
    fares = next(h for h in hits if h.chunk.heading_path[-1] == "Fares")
    assert fares.chunk.heading_path == ("Zanzibar Ferry Timetable", "Fares")
    assert citation(fares.chunk).startswith("timetable.md > Zanzibar Ferry Timetable > Fares")
