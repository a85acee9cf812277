"""The SQLite and JSONL sinks, and the chunk <-> JSON mapping they share, on real documents."""

from __future__ import annotations

import dataclasses
import datetime
import json
import sqlite3
from pathlib import Path

import pytest

from ingest.blocks import Chunk, Citation, Document
from ingest.chunk_json import chunk_from_dict, chunk_to_dict
from ingest.errors import SinkError
from ingest.runner.state import StateStore
from ingest.sinks import JsonlSink, Sink, SqliteSink
from tests.storage.documents import make_chunk, markdown_document, wiki_documents


@pytest.fixture()
def fever(seeds: Path) -> tuple[Document, list[Chunk]]:
    return markdown_document(seeds / "paediatric-fever.md", doc_id="seeds/paediatric-fever.md")


@pytest.fixture(scope="module")
def articles(corpus: Path) -> list[tuple[Document, list[Chunk]]]:
    return wiki_documents(corpus / "chunking_evaluation" / "corpora" / "wikitexts.md")


def edited(doc: Document, chunks: list[Chunk]) -> tuple[Document, list[Chunk]]:
    """Version 2: the table is gone and the first paragraph lost its last sentence."""
    doc2 = dataclasses.replace(doc, version="v2", modified="2024-06-01T08:00:00Z")
    texts = [(c.text, c.heading_path, c.kinds) for c in chunks if c.kinds != ("table",)]
    first = texts[0][0]
    texts[0] = (first[: first.rindex("Above six")].rstrip(), *texts[0][1:])
    return doc2, [make_chunk(doc2, i, t, p, kinds=k) for i, (t, p, k) in enumerate(texts)]


def stored(index: Path, doc_id: str) -> list[tuple]:
    with sqlite3.connect(index) as conn:
        return conn.execute(
            "SELECT chunk_index, text, heading FROM chunks WHERE doc_id = ? ORDER BY chunk_index", (doc_id,)
        ).fetchall()


def fts_doc_ids(index: Path, word: str) -> list[str]:
    with sqlite3.connect(index) as conn:
        rows = conn.execute(
            "SELECT c.doc_id FROM chunks_fts JOIN chunks c ON c.seq = chunks_fts.rowid WHERE chunks_fts MATCH ?",
            (word,),
        )
        return sorted({r[0] for r in rows})


def fts_is_consistent(index: Path) -> bool:
    with sqlite3.connect(index) as conn:
        conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")  # raises if out of sync
    return True


# --- chunk_json -------------------------------------------------------------------------------


def test_chunk_dict_round_trips_every_field(fever) -> None:
    doc, chunks = fever
    chunk = dataclasses.replace(
        chunks[3], page_start=2, page_end=3, overlap_tokens=4, meta={"sheet": "Doses", "rows": [1, 2]}
    )
    d = json.loads(json.dumps(chunk_to_dict(chunk)))
    assert d["heading_path"] == ["Paediatric fever", "Antipyretic dosing"]
    assert d["embed_text"] == "Antipyretic dosing\n\n" + chunk.text
    assert d["source"] == {"uri": doc.uri, "name": "paediatric-fever.md", "mime_type": "text/markdown",
                           "modified": "2024-05-01T10:00:00Z", "version": "v1"}  # fmt: skip
    assert chunk_from_dict(d) == chunk
    assert [chunk_from_dict(chunk_to_dict(c)) for c in chunks] == chunks


def test_chunk_from_dict_names_the_missing_field(fever) -> None:
    d = chunk_to_dict(fever[1][0])
    del d["heading_path"]
    with pytest.raises(SinkError, match="heading_path") as err:
        chunk_from_dict(d)
    assert err.value.subject == fever[1][0].id


# --- SqliteSink -------------------------------------------------------------------------------


def test_sqlite_sink_stores_chunks_and_creates_its_folder(tmp_path: Path, fever) -> None:
    doc, chunks = fever
    index = tmp_path / "deep" / "er" / "index.db"
    with SqliteSink(index) as sink:
        assert isinstance(sink, Sink)
        sink.write(doc, chunks)
    rows = stored(index, doc.id)
    assert [r[1] for r in rows] == [c.text for c in chunks]
    assert rows[5][2] == "Paediatric fever > Antipyretic dosing > Contraindications"
    with sqlite3.connect(index) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT version, chunk_count, title FROM documents").fetchall() == [
            ("v1", len(chunks), "paediatric-fever")
        ]
    assert fts_doc_ids(index, "chickenpox") == [doc.id]


def test_sqlite_sink_replaces_a_changed_document(tmp_path: Path, fever, articles) -> None:
    doc, chunks = fever
    doc2, chunks2 = edited(doc, chunks)
    index = tmp_path / "index.db"
    with SqliteSink(index) as sink:
        sink.write(*articles[0])
        sink.write(doc, chunks)
        sink.write(doc2, chunks2)
    assert [r[1] for r in stored(index, doc.id)] == [c.text for c in chunks2]
    assert len(stored(index, articles[0][0].id)) == len(articles[0][1])
    # Words only in the old version are gone from the full-text index too.
    assert fts_doc_ids(index, "Paracetamol") == [doc.id]  # still in a paragraph
    assert fts_doc_ids(index, "thermometer") == []  # the removed sentence
    assert fts_doc_ids(index, "Ibuprofen") == [doc.id]
    assert fts_is_consistent(index)
    with sqlite3.connect(index) as conn:
        assert conn.execute("SELECT version, chunk_count FROM documents WHERE id = ?", (doc.id,)).fetchone() == (
            "v2",
            len(chunks2),
        )


def test_sqlite_sink_deletes_one_document(tmp_path: Path, articles) -> None:
    index = tmp_path / "index.db"
    with SqliteSink(index) as sink:
        for doc, chunks in articles[:3]:
            sink.write(doc, chunks)
        sink.delete(articles[1][0].id)
        sink.delete("never/was/here")
    assert stored(index, articles[1][0].id) == []
    assert len(stored(index, articles[2][0].id)) == len(articles[2][1])
    assert fts_doc_ids(index, "Arsenal") == []  # the deleted article's subject
    assert fts_doc_ids(index, "Valkyria") == [articles[0][0].id]
    assert fts_is_consistent(index)
    with sqlite3.connect(index) as conn:
        assert [r[0] for r in conn.execute("SELECT id FROM documents ORDER BY id")] == sorted(
            [articles[0][0].id, articles[2][0].id]
        )


def test_a_failed_write_keeps_the_previous_chunks(tmp_path: Path, fever) -> None:
    doc, chunks = fever
    doc2, chunks2 = edited(doc, chunks)
    # The sixth chunk cannot be stored: its meta holds a datetime, which JSON cannot hold. The
    # five before it were already inserted when it fails.
    bad = list(chunks2)
    bad[5] = dataclasses.replace(bad[5], meta={"reviewed": datetime.date(2024, 6, 1)})
    index = tmp_path / "index.db"
    with SqliteSink(index) as sink:
        sink.write(doc, chunks)
        before = stored(index, doc.id)
        with pytest.raises(SinkError, match="not JSON data") as err:
            sink.write(doc2, bad)
        assert err.value.subject == doc.uri
        assert stored(index, doc.id) == before
        # A duplicate chunk_index fails inside SQLite, after the delete: still all or nothing.
        dup = list(chunks2)
        dup[4] = dataclasses.replace(dup[4], chunk_index=1)
        with pytest.raises(SinkError, match="same id or chunk_index"):
            sink.write(doc2, dup)
        assert stored(index, doc.id) == before
        # The sink is still usable after a failure.
        sink.write(doc2, chunks2)
    assert len(stored(index, doc.id)) == len(chunks2)
    with sqlite3.connect(index) as conn:
        assert conn.execute("SELECT version FROM documents").fetchone() == ("v2",)
    assert fts_is_consistent(index)


def test_sqlite_sink_refuses_chunks_of_another_document(tmp_path: Path, fever, articles) -> None:
    doc, chunks = fever
    with SqliteSink(tmp_path / "index.db") as sink:
        with pytest.raises(SinkError, match="belongs to document"):
            sink.write(doc, [*chunks, articles[0][1][0]])
        other = dataclasses.replace(chunks[0], source=Citation.of(dataclasses.replace(doc, version="v0")))
        with pytest.raises(SinkError, match="pass the Document the chunks were made from"):
            sink.write(doc, [other])


def test_sqlite_sink_refuses_files_that_are_not_its_index(tmp_path: Path, seeds: Path) -> None:
    foreign = tmp_path / "app.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE users (id INTEGER)")
    with pytest.raises(SinkError, match="not an ingest index") as err:
        SqliteSink(foreign)
    assert str(foreign) in str(err.value)

    newer = tmp_path / "newer.db"
    SqliteSink(newer).close()
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(SinkError, match="newer ingest") as err:
        SqliteSink(newer)
    assert str(newer) in str(err.value)

    state = tmp_path / "state.db"
    StateStore(state).close()
    with pytest.raises(SinkError, match="state database"):
        SqliteSink(state)

    text = tmp_path / "notes.db"
    text.write_bytes((seeds / "paediatric-fever.md").read_bytes())
    with pytest.raises(SinkError) as err:
        SqliteSink(text)
    assert str(text) in str(err.value)


def test_sqlite_index_survives_reopening(tmp_path: Path, fever) -> None:
    doc, chunks = fever
    index = tmp_path / "index.db"
    with SqliteSink(index) as sink:
        sink.write(doc, chunks)
    with SqliteSink(index) as sink:
        sink.write(*edited(doc, chunks))
    assert len(stored(index, doc.id)) == len(chunks) - 1
    sink.close()  # closing twice is harmless
    with pytest.raises(SinkError, match="closed"):
        sink.write(doc, chunks)


# --- JsonlSink --------------------------------------------------------------------------------


def read_jsonl(path: Path) -> list[Chunk]:
    return [chunk_from_dict(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()]


def test_jsonl_sink_writes_one_file_per_document(tmp_path: Path, seeds: Path, corpus: Path) -> None:
    # Two documents with the same file name in different folders must not overwrite each other.
    a = markdown_document(corpus / "docling" / "md" / "sources" / "mixed.md")
    b = markdown_document(corpus / "unstructured" / "example-docs" / "simple-table.md")
    b_same_name = dataclasses.replace(b[0], name="mixed.md")
    b = (b_same_name, [dataclasses.replace(c, source=Citation.of(b_same_name)) for c in b[1]])
    out = tmp_path / "dump"
    with JsonlSink(out) as sink:
        sink.write(*a)
        sink.write(*b)
    files = sorted(out.iterdir())
    assert len(files) == 2
    assert all(f.name.startswith("mixed-md.") and f.suffix == ".jsonl" for f in files)
    by_doc = {read_jsonl(f)[0].doc_id: read_jsonl(f) for f in files}
    assert by_doc == {a[0].id: a[1], b[0].id: b[1]}


def test_jsonl_sink_replaces_renames_and_deletes(tmp_path: Path, fever, articles) -> None:
    doc, chunks = fever
    out = tmp_path / "dump"
    sink = JsonlSink(out)
    sink.write(doc, chunks)
    sink.write(*articles[0])
    doc2, chunks2 = edited(doc, chunks)
    renamed = dataclasses.replace(doc2, name="Fever in children.md")
    chunks2 = [dataclasses.replace(c, source=Citation.of(renamed)) for c in chunks2]
    sink.write(renamed, chunks2)
    assert sorted(f.name.split(".")[0] for f in out.iterdir()) == ["fever-in-children-md", "valkyria-chronicles-iii"]
    assert read_jsonl(sink.path_for(renamed)) == chunks2
    sink.delete(doc.id)
    sink.delete("never/was/here")
    assert [f.name.split(".")[0] for f in out.iterdir()] == ["valkyria-chronicles-iii"]
    sink.close()


def test_jsonl_failed_write_keeps_the_previous_file(tmp_path: Path, fever) -> None:
    doc, chunks = fever
    sink = JsonlSink(tmp_path)
    sink.write(doc, chunks)
    before = sink.path_for(doc).read_bytes()
    bad = [*chunks[:-1], dataclasses.replace(chunks[-1], meta={"seen": {1, 2}})]
    with pytest.raises(SinkError, match="not JSON data"):
        sink.write(doc, bad)
    assert sink.path_for(doc).read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [sink.path_for(doc).name]  # no temp file left
