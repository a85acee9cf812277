"""The pgvector sink against a real PostgreSQL + pgvector server (tests/storage/pg_server.py), with the real
default embedder (minilm) and real documents from the corpus: a sync, an edit, a delete, a
crash mid-write, a server that goes away, and search."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import psycopg
import pytest

from ingest.blocks import Document
from ingest.chunker import ChunkOptions, chunk
from ingest.cleaners import clean_blocks
from ingest.config import parse_config
from ingest.embedders import EmbedderConfig, load
from ingest.errors import ConfigError, SinkError, SinkUnreachable
from ingest.loaders import load_file
from ingest.runner.machine_faults import machine_fault
from ingest.runner.pipeline import run
from ingest.search.bm25 import SearchError, principals
from ingest.search.bm25 import search as search_sqlite
from ingest.sinks.pgvector import PgvectorSink
from ingest.sinks.pgvector_options import PgvectorOptions
from ingest.sinks.pgvector_search import search_pgvector
from tests.paths import ROOT
from tests.storage.pg_server import PgPlace, free_port

EDIT = "The quarterly zebra audit of the loading dock is due on the first Friday."
FILES = (  # real documents of each kind the sink must store: Markdown, PDF, Word, Excel
    "docling/md/sources/mixed.md",
    "docling/md/sources/nested.md",
    "docling/md/sources/ending_with_table.md",
    "docling/pdf/sources/multi_page.pdf",
    "python_docx/blk-paras-and-tables.docx",
    "unstructured/example-docs/stanley-cups.xlsx",
)


@pytest.fixture(scope="module")
def embedder():
    return load(EmbedderConfig())


class Counting:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.dimensions, self.texts = inner, inner.name, inner.dimensions, []

    def embed(self, texts):
        self.texts.extend(texts)
        return self.inner.embed(texts)


def folder(tmp_path: Path, corpus: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in FILES:
        shutil.copyfile(corpus / name, docs / Path(name).name)
    return docs


def job(tmp_path: Path, docs: Path, sink: dict, name: str = "pg") -> dict:
    return {
        "source": {"local": {"path": str(docs)}},
        "sink": sink,
        "state": str(tmp_path / f"{name}.state.sqlite"),
        "workers": 1,
        "chunker": {"max_tokens": 200, "min_tokens": 16, "overlap_tokens": 0},
    }


def stored_rows(pg: PgPlace) -> set[tuple]:
    with psycopg.connect(pg.dsn) as conn:
        return {
            (doc, i, text, tuple(path), ps, pe, url, name, mime)
            for doc, i, text, path, ps, pe, url, name, mime in conn.execute(
                f"SELECT c.doc_id, c.chunk_index, c.text, c.heading_path, c.page_start, c.page_end, "
                f"c.url, d.name, d.mime_type FROM {pg.table('ingest_chunks')} c "
                f"JOIN {pg.table('ingest_documents')} d ON d.id = c.doc_id"
            )
        }


def sqlite_rows(index: Path) -> set[tuple]:
    import sqlite3

    conn = sqlite3.connect(index)
    try:
        return {
            (doc, i, text, tuple(json.loads(path)), ps, pe, url, name, mime)
            for doc, i, text, path, ps, pe, url, name, mime in conn.execute(
                "SELECT c.doc_id, c.chunk_index, c.text, c.heading_path, c.page_start, c.page_end, "
                "c.url, d.name, d.mime_type FROM chunks c JOIN documents d ON d.id = c.doc_id"
            )
        }
    finally:
        conn.close()


def test_a_sync_stores_what_the_sqlite_index_stores_and_follows_an_edit_and_a_delete(tmp_path, corpus, pg, embedder):
    docs = folder(tmp_path, corpus)
    pg_job = job(tmp_path, docs, {"pgvector": pg.options()})
    sqlite_job = job(tmp_path, docs, {"sqlite": str(tmp_path / "index.sqlite")}, name="sqlite")

    first = run(*parse_config(pg_job))
    run(*parse_config(sqlite_job))
    assert (first.seen, first.changed, first.failed) == (len(FILES), len(FILES), 0)
    rows = stored_rows(pg)
    assert rows == sqlite_rows(tmp_path / "index.sqlite")  # the same chunks, citations and pages as the SQLite index
    assert {r[8] for r in rows} >= {"text/markdown", "application/pdf"} and any(r[4] for r in rows)
    with psycopg.connect(pg.dsn) as conn:
        norms = [row[0] for row in conn.execute(f"SELECT vector_norm(embedding) FROM {pg.table('ingest_chunks')}")]
        indexes = " ".join(
            row[0]
            for row in conn.execute(
                "SELECT indexdef FROM pg_indexes WHERE schemaname = %s AND tablename = 'ingest_chunks'", (pg.schema,)
            )
        )
    assert len(norms) == first.chunks_written and np.allclose(norms, 1.0, atol=1e-4)
    assert "USING hnsw (embedding vector_ip_ops)" in indexes and "USING gin (tsv)" in indexes

    edited = docs / "nested.md"
    edited.write_text(edited.read_text(encoding="utf-8") + f"\n\n## Audits\n\n{EDIT}\n", encoding="utf-8")
    (docs / "stanley-cups.xlsx").unlink()
    second = run(*parse_config(pg_job))
    run(*parse_config(sqlite_job))
    assert (second.changed, second.deleted, second.unchanged, second.failed) == (1, 1, len(FILES) - 2, 0)
    rows = stored_rows(pg)
    assert rows == sqlite_rows(tmp_path / "index.sqlite")
    assert not any(r[7] == "stanley-cups.xlsx" for r in rows)

    options = PgvectorOptions(**pg.options())
    for mode in ("keyword", "hybrid", "vector"):
        hits = search_pgvector(options, embedder, "when is the zebra audit of the loading dock due", k=3, mode=mode)
        assert hits[0].chunk.source.name == "nested.md" and EDIT in hits[0].context, mode
        assert hits[0].citation.startswith("nested.md > ") and "Audits" in hits[0].citation
    # The keyword ranking agrees with the SQLite index's BM25 on the best chunk for a plain query,
    # and the hit is widened with the same neighbours into the same context.
    pg_hit = search_pgvector(options, embedder, "zebra audit", k=1, window=2, mode="keyword")[0]
    sqlite_hit = search_sqlite(tmp_path / "index.sqlite", "zebra audit", k=1, window=2)[0]
    assert (pg_hit.chunk, pg_hit.neighbours, pg_hit.context) == (
        sqlite_hit.chunk,
        sqlite_hit.neighbours,
        sqlite_hit.context,
    )
    assert len(pg_hit.neighbours) > 1

    third = run(*parse_config(pg_job))
    assert (third.changed, third.unchanged) == (0, len(FILES) - 1) and stored_rows(pg) == rows


def test_an_edit_embeds_only_the_chunks_whose_text_changed(corpus, pg, embedder):
    loaded = load_file(corpus / "docling/md/sources/mixed.md")
    before = list(chunk(loaded, ChunkOptions(max_tokens=40, min_tokens=4, overlap_tokens=0), clean_blocks(loaded)))
    counting = Counting(embedder)
    with PgvectorSink(PgvectorOptions(**pg.options()), counting) as sink:
        sink.write(loaded.document, before)
        assert len(counting.texts) == len({c.embed_text for c in before}) > 2
        # The same document with its second chunk's text changed and a new last chunk.
        from dataclasses import replace

        after = [
            *before[:1],
            replace(before[1], id="changed", text=before[1].text + " Now with a zebra."),
            *before[2:],
            replace(before[-1], id="added", chunk_index=len(before), text="A new closing paragraph."),
        ]
        counting.texts.clear()
        sink.write(loaded.document, after)
        assert sorted(counting.texts) == sorted({c.embed_text for c in after} - {c.embed_text for c in before})
    with psycopg.connect(pg.dsn) as conn:
        vectors = dict(conn.execute(f"SELECT id, embedding::real[] FROM {pg.table('ingest_chunks')}").fetchall())
    fresh = embedder.embed([c.embed_text for c in after])
    for c, vector in zip(after, fresh):  # reused or new, every stored vector is its own text's
        assert np.allclose(vectors[c.id], vector, atol=1e-5)


CRASH = textwrap.dedent("""
    import os, signal, sys
    from ingest.embedders import EmbedderConfig, load
    from ingest.loaders import load_file
    from ingest.chunker import ChunkOptions, chunk
    from ingest.cleaners import clean_blocks
    from ingest.sinks import pgvector
    from ingest.sinks.pgvector_options import PgvectorOptions

    def crash(conn, tables, rows):  # once the old chunks are deleted in the open transaction: die
        left = conn.execute(f"SELECT count(*) FROM {tables.label} WHERE doc_id = %s", (loaded.document.id,)).fetchone()
        assert left == (0,) and conn.info.transaction_status == conn.info.transaction_status.INTRANS
        os.kill(os.getpid(), signal.SIGKILL)

    loaded = load_file(sys.argv[2])
    chunks = list(chunk(loaded, blocks=clean_blocks(loaded)))
    pgvector.insert_chunks = crash
    with pgvector.PgvectorSink(PgvectorOptions(dsn=sys.argv[1], schema_name=sys.argv[3]), load(EmbedderConfig())) as sink:
        sink.write(loaded.document, chunks[:1])
""")


def test_a_crash_in_the_middle_of_a_write_leaves_the_old_chunks(tmp_path, corpus, pg, embedder):
    path = tmp_path / "mixed.md"
    shutil.copyfile(corpus / "docling/md/sources/mixed.md", path)
    loaded = load_file(path)
    chunks = list(chunk(loaded, blocks=clean_blocks(loaded)))
    with PgvectorSink(PgvectorOptions(**pg.options()), embedder) as sink:
        sink.write(loaded.document, chunks)
    before = stored_rows(pg)
    script = tmp_path / "crash.py"
    script.write_text(CRASH, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), pg.dsn, str(path), pg.schema], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == -9, done.stderr
    assert stored_rows(pg) == before and len(before) == len(chunks)


def hnsw_indexes(pg: PgPlace) -> list[str]:
    with psycopg.connect(pg.dsn) as conn:
        return [
            row[0]
            for row in conn.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = %s AND indexdef LIKE '%%USING hnsw%%'",
                (pg.schema,),
            )
        ]


def test_the_hnsw_index_is_built_when_a_first_load_ends_or_else_at_the_next_open(corpus, pg, embedder):
    options = PgvectorOptions(**pg.options())
    loaded = load_file(corpus / "docling/md/sources/nested.md")
    chunks = list(chunk(loaded, blocks=clean_blocks(loaded)))
    first = PgvectorSink(options, embedder)
    first.write(loaded.document, chunks)
    assert hnsw_indexes(pg) == []  # a first load grows no graph row by row
    hits = search_pgvector(options, embedder, chunks[0].text, k=1, mode="vector")  # exact meanwhile
    assert hits[0].chunk.id == chunks[0].id
    # The run ends without closing the sink (killed): the next open builds the index.
    PgvectorSink(options, embedder).close()
    assert hnsw_indexes(pg) == ["ingest_chunks_hnsw"]
    first.close()


def test_vector_and_hybrid_search_read_the_hnsw_index(corpus, pg, embedder):
    from ingest.sinks.pgvector import Tables
    from ingest.sinks.pgvector_search import _QUERIES, _sql

    options = PgvectorOptions(**pg.options())
    loaded = load_file(corpus / "docling/md/sources/nested.md")
    with PgvectorSink(options, embedder) as sink:
        sink.write(loaded.document, list(chunk(loaded, blocks=clean_blocks(loaded))))
    params = {
        "query": "nested list",
        "k": 5,
        "config": "english",
        "readers": None,
        "n": 50,
        "vector": embedder.embed(["nested list"])[0],
    }
    with psycopg.connect(pg.dsn) as conn:
        from pgvector.psycopg import register_vector

        register_vector(conn)
        conn.execute("SET enable_seqscan = off")  # a table this small would be scanned; can the index serve the order?
        for mode in ("vector", "hybrid"):
            plan = "\n".join(row[0] for row in conn.execute(_sql("EXPLAIN " + _QUERIES[mode], Tables(options)), params))
            assert "Index Scan using ingest_chunks_hnsw" in plan, (mode, plan)


def test_a_chunk_that_cannot_be_stored_keeps_the_previous_chunks(corpus, pg, embedder):
    from dataclasses import replace

    loaded = load_file(corpus / "docling/md/sources/nested.md")
    chunks = list(chunk(loaded, blocks=clean_blocks(loaded)))
    with PgvectorSink(PgvectorOptions(**pg.options()), embedder) as sink:
        sink.write(loaded.document, chunks)
        before = stored_rows(pg)
        with pytest.raises(SinkError, match="not JSON data.*previous chunks are kept"):
            sink.write(loaded.document, [replace(chunks[0], meta={"when": object()})])
        assert stored_rows(pg) == before


def _refuse_connections(admin_dsn: str, database: str, refuse: bool) -> None:
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS {"false" if refuse else "true"}')
        if refuse:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (database,))


@pytest.fixture
def own_database(postgres, request) -> PgPlace:
    """A database of its own, for a test that refuses connections to it."""
    return PgPlace(postgres.create_database("own_" + request.node.name[5:40].lower()), "public")


def test_a_server_lost_mid_run_fails_the_rest_as_machine_faults_tried_again_next_run(
    tmp_path, corpus, postgres, own_database
):
    pg = own_database
    docs = folder(tmp_path, corpus)
    database = pg.dsn.rsplit("/", 1)[1]
    raw = job(tmp_path, docs, {"pgvector": pg.options(retries=1)})
    results = []

    def lose_server_after_first(result) -> None:
        results.append(result)
        if len(results) == 1:
            _refuse_connections(postgres.admin_dsn, database, refuse=True)

    try:
        first = run(*parse_config(raw), on_result=lose_server_after_first)
    finally:
        _refuse_connections(postgres.admin_dsn, database, refuse=False)
    written = results[0]
    assert written.status == "changed" and first.changed == 1 and first.failed == len(FILES) - 1
    for failure in first.failures:
        assert failure.retry and "[the database server cannot be reached]" in failure.error
        assert "tried 2 times" in failure.error and "what was stored stays" in failure.error
    assert {r[7] for r in stored_rows(pg)} == {written.name}  # what was written stays

    second = run(*parse_config(raw))
    assert (second.changed, second.unchanged, second.failed) == (len(FILES) - 1, 1, 0)
    assert {r[7] for r in stored_rows(pg)} == set(os.listdir(docs))


def test_a_server_that_is_down_fails_the_run_saying_so_and_never_shows_the_password(tmp_path, corpus):
    docs = folder(tmp_path, corpus)
    port = free_port()  # nothing listens there
    cfg = tmp_path / "job.yaml"
    cfg.write_text(
        json.dumps(
            job(tmp_path, docs, {"pgvector": {"dsn": f"postgresql://ingest@127.0.0.1:{port}/search", "retries": 1}})
        ),
        encoding="utf-8",
    )
    environ = {**os.environ, "PGPASSWORD": "s3cret-never-logged"}
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(cfg)], capture_output=True, text=True, env=environ, timeout=120
    )
    out = done.stdout + done.stderr
    assert done.returncode != 0
    assert f"postgresql://127.0.0.1:{port}/search (public.ingest_chunks)" in out
    assert "could not open the index" in out and "Connection refused" in out and "tried 2 times" in out
    assert "s3cret-never-logged" not in out


def test_readers_limit_what_a_search_returns(corpus, pg, embedder):
    from dataclasses import replace

    options = PgvectorOptions(**pg.options())
    with PgvectorSink(options, embedder) as sink:
        for name, readers in (
            ("mixed.md", ("user:ana@example.com",)),
            ("nested.md", ("domain:example.com",)),
            ("blocks.md", ()),
            ("duck.md", None),
        ):
            loaded = load_file(corpus / "docling/md/sources" / name)
            document = replace(loaded.document, readers=readers)
            sink.write(document, [replace(c, source=c.source) for c in chunk(replace(loaded, document=document))])
    seen = {}
    for who in ("ana@example.com", "bo@example.com", "cy@elsewhere.org"):
        hits = search_pgvector(
            options, embedder, "list item heading text", k=50, mode="hybrid", readers=principals(who)
        )
        seen[who] = {h.chunk.source.name for h in hits}
    everyone = {h.chunk.source.name for h in search_pgvector(options, embedder, "list item heading text", k=50)}
    assert everyone == {"mixed.md", "nested.md", "blocks.md", "duck.md"}
    assert seen == {
        "ana@example.com": {"mixed.md", "nested.md", "duck.md"},
        "bo@example.com": {"nested.md", "duck.md"},
        "cy@elsewhere.org": {"duck.md"},
    }  # blocks.md: readers unknown, shown to no one


def test_a_table_keeps_the_embedder_it_was_made_with(pg, embedder):
    PgvectorSink(PgvectorOptions(**pg.options()), embedder).close()
    smaller = load(EmbedderConfig(name="wordllama", dimensions=64))
    with pytest.raises(SinkError, match=f"made with embedder '{embedder.name}'.*another `table` prefix"):
        PgvectorSink(PgvectorOptions(**pg.options()), smaller)
    PgvectorSink(PgvectorOptions(**pg.options(table="small")), smaller).close()  # another prefix is another index


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dsn": "postgresql://ingest:hunter2@db/search"}, "dsn: .*holds a password.*password_env"),
        ({"dsn": "host=db password=hunter2"}, "dsn: .*holds a password"),
        ({"dsn": "postgresql://db/search", "table": "Chunks; DROP"}, "table: .*not a plain table name"),
        ({"dsn": "postgresql://db/search", "hnsw_m": 1}, "hnsw_m: .*greater than or equal to 2"),
        ({"dsn": "postgresql://db/search", "tabel": "x"}, "sink.pgvector: unknown option 'tabel'"),
        (
            {"dsn": "postgresql://db/search", "embedder": {"name": "wordllama", "dimensions": 100}},
            "embedder.dimensions",
        ),
    ],
)
def test_bad_options_are_refused_when_the_config_loads(tmp_path, options, message):
    with pytest.raises(ConfigError, match=message) as caught:
        parse_config({"source": {"local": {"path": str(tmp_path)}}, "sink": {"pgvector": options}})
    assert "hunter2" not in str(caught.value)


def test_ingest_search_answers_from_a_pgvector_job(tmp_path, corpus, pg):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in FILES[:3]:
        shutil.copyfile(corpus / name, docs / Path(name).name)
    (docs / "audits.md").write_text(f"# Audits\n\n{EDIT}\n", encoding="utf-8")
    cfg = tmp_path / "job.yaml"
    cfg.write_text(
        json.dumps(
            {**job(tmp_path, docs, {"pgvector": pg.options()}), "embedder": {"name": "wordllama", "dimensions": 128}}
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(cfg)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    with psycopg.connect(pg.dsn) as conn:  # the job's embedder: is the one the sink stores
        assert conn.execute(f"SELECT vector_dims(embedding) FROM {pg.table('ingest_chunks')} LIMIT 1").fetchone() == (
            128,
        )
    for mode in ("bm25", "vector", "hybrid"):
        found = subprocess.run(
            [
                sys.executable,
                "-m",
                "ingest",
                "search",
                "zebra audit loading dock",
                "--config",
                str(cfg),
                "--mode",
                mode,
                "--json",
                "-k",
                "2",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert found.returncode == 0, found.stderr
        first = json.loads(found.stdout.splitlines()[0])
        assert first["chunk"]["source"]["name"] == "audits.md" and EDIT in first["context"], mode
    with psycopg.connect(pg.dsn) as conn:  # the spec a search needs to open that embedder again
        spec = conn.execute(f"SELECT value FROM {pg.table('ingest_meta')} WHERE key = 'embedder_spec'").fetchone()
    assert json.loads(spec[0]) == {"name": "wordllama", "dimensions": 128}
    sqlite_job = tmp_path / "sqlite.yaml"
    sqlite_job.write_text(json.dumps(job(tmp_path, docs, {"sqlite": str(tmp_path / "index.sqlite")})), encoding="utf-8")
    wrong = subprocess.run(
        [sys.executable, "-m", "ingest", "search", "zebra", "--config", str(sqlite_job)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode != 0 and "--config searches a job whose sink is pgvector" in wrong.stderr


def test_a_search_before_any_run_says_to_run_first(pg, embedder):
    with pytest.raises(SearchError, match=r"no index here; run `ingest run` with this sink first") as caught:
        search_pgvector(PgvectorOptions(**pg.options()), embedder, "anything")
    assert f"({pg.schema}.ingest_chunks)" in str(caught.value)


def test_a_sink_that_cannot_reach_its_server_is_a_machine_fault(own_database, postgres, embedder):
    pg = own_database
    database = pg.dsn.rsplit("/", 1)[1]
    sink = PgvectorSink(PgvectorOptions(**pg.options(retries=0)), embedder)
    try:
        _refuse_connections(postgres.admin_dsn, database, refuse=True)
        with pytest.raises(SinkUnreachable) as caught:
            sink.stored()
        assert machine_fault(caught.value) == "the database server cannot be reached"
        assert "does not allow connections" in str(caught.value) or "terminat" in str(caught.value)
    finally:
        _refuse_connections(postgres.admin_dsn, database, refuse=False)
    assert sink.stored() == {}  # the next call connects again
    sink.close()
    document = Document(id="x", uri="file:///x", name="x", mime_type="text/plain")
    with pytest.raises(SinkError, match="closed"):
        sink.write(document, [])


def test_the_example_config_runs_and_searches(tmp_path, pg):
    root = ROOT
    shutil.copytree(root / "examples", tmp_path / "examples")
    shutil.copytree(root / "configs", tmp_path / "configs")
    environ = {**os.environ, "PG_DSN": pg.dsn}
    cfg = tmp_path / "configs" / "pgvector.yaml"  # in this test's own schema rather than public
    cfg.write_text(
        cfg.read_text(encoding="utf-8").replace("table: ingest ", f"table: ingest\n    schema_name: {pg.schema} "),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "ingest", "run", "configs/pgvector.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    found = subprocess.run(
        [
            sys.executable,
            "-m",
            "ingest",
            "search",
            "ibuprofen dose",
            "--config",
            "configs/pgvector.yaml",
            "--json",
            "-k",
            "1",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )
    assert found.returncode == 0, found.stderr
    assert "ibuprofen" in json.loads(found.stdout)["context"].lower()
