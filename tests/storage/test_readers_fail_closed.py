"""Search for a person fails closed: a value of `--as`/`--groups` or of `readers` that is not what
one caller matches is refused before anything is searched, on SQLite and on PostgreSQL, and no
search mode ever returns a chunk of a document none of the caller's principals may open."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ingest
from ingest.blocks import Document
from ingest.cli.main import cli
from ingest.embedders import EmbedderConfig, embed_chunks, load
from ingest.errors import ConfigError
from ingest.search.filters import Filters
from ingest.search.hybrid import search_mode
from ingest.search.principals import checked_readers, principals
from ingest.search.vectors import VectorIndex
from ingest.sinks.sqlite import SqliteSink
from tests.storage.documents import make_chunk

BAD_AS = ["", " ", "a,b@x", "nobody", "a@b@c", "@x.org", "ann@", "ann @x.org", "ann@x.org,bo@x.org", "ann@x..org"]
BAD_GROUPS = [",", "eng@x.org,", " ", "eng"]
WORDS = "quarterly budget review of the harbour project"
SPEC = {"name": "wordllama", "dimensions": 64}

# Who may open each document: None is a local file (no readers: anyone), () a Drive file whose
# permissions could not be read (no one, under --as).
DOCS: dict[str, tuple[str, ...] | None] = {
    "open": None,
    "ann-only": ("user:ann@example.com",),
    "eng": ("group:eng@example.com",),
    "domain": ("domain:example.com",),
    "link": ("anyone",),
    "unreadable": (),
}


def document(name: str, readers: tuple[str, ...] | None) -> Document:
    return Document(
        id=name,
        uri=f"https://drive.test/{name}",
        name=f"{name}.md",
        mime_type="text/markdown" if name != "eng" else "text/plain",
        modified="2024-05-01T10:00:00Z",
        version="v1",
        title=name,
        readers=readers,
    )


def chunks_of(doc: Document, count: int = 3):
    # Each document's own marker word in every chunk: a leak shows as a marker in the output.
    return [make_chunk(doc, i, f"{WORDS} part {i} marker{doc.id.replace('-', '')}", (doc.title,)) for i in range(count)]


def write_index(path: Path, docs: dict[str, tuple[str, ...] | None], embedder) -> Path:
    with SqliteSink(path) as sink:
        sink.record_embedder(embedder.name, SPEC)
        for name, readers in docs.items():
            doc = document(name, readers)
            chunks = chunks_of(doc)
            sink.write(doc, chunks, embed_chunks(embedder, chunks))
    return path


def may_open(readers: tuple[str, ...] | None, caller: tuple[str, ...]) -> bool:
    return readers is None or bool(set(readers) & set(caller))


@pytest.fixture(scope="module")
def embedder():
    return load(EmbedderConfig(**SPEC))


@pytest.fixture(scope="module")
def index(tmp_path_factory, embedder) -> Path:
    return write_index(tmp_path_factory.mktemp("readers") / "index.sqlite", DOCS, embedder)


def markers(output: str) -> set[str]:
    return {name for name in DOCS if f"marker{name.replace('-', '')}" in output}


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid"])
@pytest.mark.parametrize("value", BAD_AS)
def test_an_as_that_is_not_one_address_is_a_usage_error_and_searches_nothing(index, mode, value):
    out = CliRunner().invoke(cli, ["search", WORDS, "--index", str(index), "--mode", mode, "--json", "--as", value])
    assert out.exit_code == 2, out.output
    assert markers(out.output) == set() and "rank" not in out.output
    assert f"{value!r} is not one e-mail address" in out.output and out.output.count("\n") == 1


@pytest.mark.parametrize("value", BAD_GROUPS)
def test_every_group_must_be_one_address(index, value):
    out = CliRunner().invoke(
        cli, ["search", WORDS, "--index", str(index), "--json", "--as", "ann@example.com", "--groups", value]
    )
    assert out.exit_code == 2, out.output
    assert markers(out.output) == set() and "--groups" in out.output


def test_a_good_as_shows_what_that_person_may_open(index):
    out = CliRunner().invoke(
        cli, ["search", WORDS, "--index", str(index), "-k", "50", "--json", "--as", "Bo@Example.com"]
    )
    assert out.exit_code == 0, out.output
    assert {json.loads(line)["chunk"]["doc_id"] for line in out.output.splitlines()} == {"open", "domain", "link"}
    everyone = CliRunner().invoke(cli, ["search", WORDS, "--index", str(index), "-k", "50", "--json"])
    assert markers(everyone.output) == set(DOCS)  # no --as: an administrator's search, everything


@pytest.mark.parametrize(
    ("email", "groups"),
    [("", ()), (" ", ()), ("a,b@x", ()), ("nobody", ()), ("ann@x.org", ("",)), ("ann@x.org", ("a,b@x",))],
)
def test_principals_refuse_what_is_not_one_address(email, groups):
    with pytest.raises(ConfigError, match="is not one e-mail address"):
        principals(email, groups)


def test_principals_are_case_folded_and_include_the_domain():
    assert principals("Ann@Example.COM", ["Eng@Example.com"]) == (
        "user:ann@example.com",
        "group:eng@example.com",
        "anyone",
        "domain:example.com",
    )


@pytest.mark.parametrize("readers", ["user:ann@example.com", ("",), ("ann@example.com",), ("user:",), (None,), [1]])
def test_readers_that_are_not_principals_are_refused(index, readers):
    with pytest.raises(ConfigError, match="readers"):
        ingest.search(index, WORDS, readers=readers)
    with pytest.raises(ConfigError, match="readers"):
        checked_readers(readers)


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid"])
def test_no_principal_sees_only_documents_without_readers_and_none_sees_all(index, mode):
    nobody = {h.chunk.doc_id for h in ingest.search(index, WORDS, k=50, mode=mode, readers=())}
    assert nobody == {"open"}
    admin = {h.chunk.doc_id for h in ingest.search(index, WORDS, k=50, mode=mode, readers=None)}
    assert admin == set(DOCS)


CALLERS = st.tuples(
    st.sampled_from(["ann@example.com", "bo@example.com", "cy@elsewhere.org", "Ann@EXAMPLE.com"]),
    st.lists(st.sampled_from(["eng@example.com", "ops@elsewhere.org"]), max_size=2, unique=True),
)
READERS = st.one_of(
    st.none(),
    st.lists(
        st.sampled_from(
            [
                "user:ann@example.com",
                "user:bo@example.com",
                "group:eng@example.com",
                "group:ops@elsewhere.org",
                "domain:example.com",
                "domain:elsewhere.org",
                "anyone",
            ]
        ),
        max_size=3,
        unique=True,
    ).map(tuple),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    docs=st.lists(READERS, min_size=1, max_size=6),
    callers=st.lists(CALLERS, min_size=1, max_size=3),
    window=st.integers(0, 2),
    narrowed=st.booleans(),
)
def test_no_search_mode_returns_a_chunk_a_caller_may_not_open(
    tmp_path_factory, embedder, docs, callers, window, narrowed
):
    named = {f"d{i}": readers for i, readers in enumerate(docs)}
    index = write_index(tmp_path_factory.mktemp("prop") / "index.sqlite", named, embedder)
    filters = Filters(mime_types="text/markdown") if narrowed else None
    vectors = VectorIndex(index)  # kept open: its second query ranks bm25 in memory (another path)
    try:
        for email, groups in callers:
            caller = principals(email, groups)
            allowed = {name for name, readers in named.items() if may_open(readers, caller)}
            for mode in ("bm25", "vector", "hybrid"):
                for query in (WORDS, "harbour marker review"):
                    for hits in (
                        search_mode(index, query, mode, k=50, window=window, readers=caller, filters=filters),
                        search_mode(index, query, mode, k=50, window=window, readers=caller, vectors=vectors),
                    ):
                        shown = {h.chunk.doc_id for h in hits}
                        assert shown <= allowed, (mode, caller)
                        for h in hits:  # the window's neighbours are the hit's own document's
                            forbidden = {n for n in named if n not in allowed}
                            assert not any(f"marker{n}" in h.context for n in forbidden)
                    if not filters:
                        assert shown == allowed  # narrowing, not emptying: every allowed document is found
    finally:
        vectors.close()


# PostgreSQL: the same refusals through `--config` (the job's pgvector sink), and readers=() there.


@pytest.fixture
def pg_job(tmp_path, pg, embedder):
    from ingest.sinks.pgvector import PgvectorSink
    from ingest.sinks.pgvector_options import PgvectorOptions

    options = pg.options(embedder=SPEC)
    with PgvectorSink(PgvectorOptions(**options), embedder) as sink:
        for name, readers in DOCS.items():
            doc = document(name, readers)
            sink.write(doc, chunks_of(doc))
    cfg = tmp_path / "job.yaml"
    cfg.write_text(
        json.dumps(
            {
                "source": {"local": {"path": str(tmp_path)}},
                "sink": {"pgvector": options},
                "state": str(tmp_path / "state.sqlite"),
                "embedder": SPEC,
            }
        ),
        encoding="utf-8",
    )
    return cfg, PgvectorOptions(**options)


@pytest.mark.parametrize("args", [["--as", v] for v in BAD_AS[:5]] + [["--as", "ann@example.com", "--groups", ","]])
def test_pgvector_search_refuses_a_bad_as_too(pg_job, args):
    cfg, _ = pg_job
    out = CliRunner().invoke(cli, ["search", WORDS, "--config", str(cfg), "--json", "-k", "50", *args])
    assert out.exit_code == 2, out.output
    assert markers(out.output) == set() and "rank" not in out.output


def test_pgvector_search_as_a_person_and_as_no_one(pg_job, embedder):
    from ingest.sinks.pgvector_search import search_pgvector

    cfg, options = pg_job
    out = CliRunner().invoke(
        cli, ["search", WORDS, "--config", str(cfg), "--json", "-k", "50", "--as", "ann@example.com"]
    )
    assert out.exit_code == 0, out.output
    assert markers(out.output) == {"open", "ann-only", "domain", "link"}
    for mode in ("keyword", "vector", "hybrid"):
        nobody = search_pgvector(options, embedder, WORDS, k=50, mode=mode, readers=())
        assert {h.chunk.doc_id for h in nobody} == {"open"}, mode
        with pytest.raises(ConfigError, match="readers"):
            search_pgvector(options, embedder, WORDS, k=50, mode=mode, readers=("",))


def test_the_api_refuses_a_bare_string_or_unknown_reader_before_opening_anything(tmp_path):
    missing = tmp_path / "no-index.sqlite"
    with pytest.raises(ConfigError, match="readers"):
        ingest.search(missing, WORDS, readers=("user:ann@example.com", "group:eng@example.com,ops@x.org"))
    assert not missing.exists()


@pytest.mark.parametrize("value", ["kate@example.com\x00.evil.org", "\u212aate@example.com", "stra\u00dfe@example.com"])
def test_an_address_outside_printable_ascii_is_refused(value):
    with pytest.raises(ConfigError, match="is not one e-mail address"):
        principals(value)
