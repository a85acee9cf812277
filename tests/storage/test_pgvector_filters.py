"""Metadata filters on the pgvector sink: the bundled examples run into a real PostgreSQL + pgvector
(tests/storage/pg_server.py) and into the SQLite index, and every filter lets through the same chunks in
both, in every search mode, from the CLI too."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.embedders import EmbedderConfig, load
from ingest.search.filters import Filters
from ingest.sinks.pgvector_options import PgvectorOptions
from ingest.sinks.pgvector_search import MODES, search_pgvector
from tests.retrieval.examples_index import build

CASES = [
    Filters(docs="handbook/delivery.md"),
    Filters(docs=("delivery", "planning.xlsx")),  # a name without its extension, a name
    Filters(docs="deliver"),  # no part of a name
    Filters(paths="handbook/"),
    Filters(paths="p"),
    Filters(paths="handbook_/"),  # `_` is a character, not a wildcard
    Filters(heading="Delivery"),
    Filters(heading="Operations Manual > delivery > Returns"),  # with the title, any letter case
    Filters(heading="Returns"),  # not a prefix from the first or second entry
    Filters(mime_types="Application/PDF"),
    Filters(mime_types=("text/markdown", "text/plain")),
    Filters(modified_after="2025-01-01"),
    Filters(modified_before="2024-03-03T09:00:00Z"),
    Filters(modified_after="2024-03-03T09:00:00Z", modified_before="2025-01-10"),
    Filters(modified_after="2025-07-01T00:00:00+02:00"),
    Filters(mime_types="text/markdown", modified_after="2025-07-01", heading="Delivery > Returns"),
    Filters(docs="x' OR 1=1 --", paths="%", heading='") OR 1=1 --', mime_types="*"),
    Filters(exclude_kinds="card"),  # the documents' cards left out (#29)
    Filters(exclude_kinds=("card", "table"), mime_types=("application/pdf", "text/markdown")),
    Filters(exclude_kinds="') OR 1=1 --"),
]


@pytest.fixture(scope="module")
def both(tmp_path_factory, pg_database):
    """The examples in a SQLite index and in a pgvector schema of this module's own."""
    import psycopg

    from tests.storage.pg_server import PgPlace

    where = tmp_path_factory.mktemp("pgfilters")
    index = build(where)
    place = PgPlace(pg_database, "t_pgvector_filters")
    cfg = where / "pg.yaml"
    cfg.write_text(
        json.dumps(
            {
                "source": {"local": {"path": str(where / "docs")}},
                "sink": {"pgvector": place.options()},
                "state": str(where / "pg.state.sqlite"),
            }
        ),
        encoding="utf-8",
    )
    done = subprocess.run([sys.executable, "-m", "ingest", "run", str(cfg), "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    yield index, place, cfg
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{place.schema}" CASCADE')


def passing(index: Path, filters: Filters) -> set[tuple[str, tuple[str, ...]]]:
    """What the SQLite index's own filter (tests/test_search_filters.py) lets through."""
    clause, params = filters.where(1)
    conn = sqlite3.connect(index)
    try:
        rows = conn.execute(
            f"SELECT c.doc_id, c.heading_path, c.kinds FROM chunks AS c WHERE {clause}", params
        ).fetchall()
    finally:
        conn.close()
    return {(doc, tuple(json.loads(path)), tuple(json.loads(kinds))) for doc, path, kinds in rows}


def found(place, filters: Filters, mode: str, query: str = "delivery returns fever travel budget release") -> set:
    embedder = load(EmbedderConfig())
    hits = search_pgvector(
        PgvectorOptions(**place.options()), embedder, query, k=1000, window=0, mode=mode, filters=filters
    )
    return {(h.chunk.doc_id, h.chunk.heading_path, h.chunk.kinds) for h in hits}


def test_every_filter_passes_what_it_passes_in_the_sqlite_index(both):
    index, place, _ = both
    everything = found(place, Filters(), "vector")
    assert everything == passing(index, Filters()) and len({doc for doc, *_ in everything}) == 6
    cards = {hit for hit in everything if hit[2] == ("card",)}
    assert cards and passing(index, Filters(exclude_kinds="card")) == everything - cards
    sizes = set()
    for filters in CASES:
        # Vector search ranks every chunk that passes: the filtered set itself, however narrow.
        assert found(place, filters, "vector") == passing(index, filters), filters
        sizes.add(len(passing(index, filters)))
    assert 0 in sizes and len(sizes) > 5  # the cases tell documents apart, and some pass nothing


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_answers_only_from_what_passes(both, mode):
    index, place, _ = both
    for filters in CASES:
        hits = found(place, filters, mode)
        assert hits <= passing(index, filters), (mode, filters)
    recent = Filters(modified_after="2025-07-01")
    assert {doc for doc, *_ in found(place, recent, mode)} == {"handbook/delivery.md"}


def test_the_cli_filters_a_pgvector_job(both):
    _, _, cfg = both
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "search", "fever dose", "--config", str(cfg), "--json", "-k", "20"]
        + ["--type", "text/markdown", "--modified-after", "2025-07-01"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    names = {json.loads(line)["chunk"]["source"]["name"] for line in proc.stdout.splitlines()}
    assert names == {"delivery.md"}
