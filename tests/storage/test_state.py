"""The state store, fed with the fingerprints and hashes of real corpus files."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from ingest.errors import StateError
from ingest.runner.state import DocState, StateStore
from ingest.sinks import SqliteSink


def facts(path: Path) -> dict[str, str]:
    st = path.stat()
    return {
        "fingerprint": f"{st.st_size}:{st.st_mtime_ns}",
        "content_hash": hashlib.sha256(path.read_bytes()).hexdigest(),
        "name": path.name,
        "uri": path.as_uri(),
    }


@pytest.fixture()
def docs(corpus: Path) -> list[Path]:
    return sorted((corpus / "docling" / "md" / "sources").glob("*.md"))[:3]


def test_record_ok_then_read_back(tmp_path: Path, docs: list[Path]) -> None:
    with StateStore(tmp_path / "state" / "state.db") as state:
        for i, path in enumerate(docs):
            f = facts(path)
            state.record_ok("local", str(path), version=f["content_hash"], chunk_count=i + 2, **f)
        state.record_ok(
            "drive", "1AbC", version="17", content_hash="x", fingerprint="17", chunk_count=1, name="n", uri="u"
        )
        got = state.get("local", str(docs[1]))
        assert isinstance(got, DocState)
        assert (got.status, got.last_error, got.chunk_count, got.failed) == ("ok", "", 3, False)
        assert got.content_hash == facts(docs[1])["content_hash"] == got.version
        assert got.fingerprint == facts(docs[1])["fingerprint"]
        assert sorted(state.known("local")) == sorted(str(p) for p in docs)
        assert list(state.known("drive")) == ["1AbC"]
        assert state.get("drive", str(docs[0])) is None
        assert state.known("nowhere") == {}


def test_a_failure_keeps_the_last_good_version(tmp_path: Path, docs: list[Path]) -> None:
    path = docs[0]
    f = facts(path)
    with StateStore(tmp_path / "state.db") as state:
        state.record_ok("local", str(path), version="v1", chunk_count=4, **f)
        state.record_failure(
            "local",
            str(path),
            error="LoaderError: truncated table",
            fingerprint="999:1",
            name="renamed.md",
            uri=f["uri"],
        )
        got = state.get("local", str(path))
        assert got.status == "failed" and got.failed
        assert got.last_error == "LoaderError: truncated table"
        # What the sink still holds is remembered: the last good version, hash and chunk count.
        assert (got.version, got.content_hash, got.chunk_count) == ("v1", f["content_hash"], 4)
        assert (got.fingerprint, got.name) == ("999:1", "renamed.md")
        # A later success clears the error.
        state.record_ok("local", str(path), version="v2", chunk_count=5, **f)
        assert state.get("local", str(path)).last_error == ""

        # A document that never succeeded is failed with nothing stored.
        state.record_failure(
            "local", str(docs[1]), error="boom", **{k: facts(docs[1])[k] for k in ("fingerprint", "name", "uri")}
        )
        never = state.get("local", str(docs[1]))
        assert (never.status, never.version, never.content_hash, never.chunk_count) == ("failed", "", "", 0)


def test_state_persists_and_forgets(tmp_path: Path, docs: list[Path]) -> None:
    db = tmp_path / "state.db"
    with StateStore(db) as state:
        for path in docs:
            state.record_ok("local", str(path), version="v", chunk_count=1, **facts(path))
        state.set_cursor("drive", "page-token-41")
        state.set_cursor("local", None)
    with StateStore(db) as state:
        assert state.get_cursor("drive") == "page-token-41"
        assert state.get_cursor("local") is None
        assert state.get_cursor("never") is None
        state.set_cursor("drive", "page-token-42")
        state.forget("local", str(docs[0]))
        state.forget("local", "not/there")
    # Every call committed: a plain reader sees it without the store's help.
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT cursor FROM cursors WHERE source = 'drive'").fetchone() == ("page-token-42",)
    with StateStore(db) as state:
        assert sorted(state.known("local")) == sorted(str(p) for p in docs[1:])
    with pytest.raises(StateError, match="closed"):
        state.get_cursor("drive")


def test_state_refuses_other_schemas_and_files(tmp_path: Path) -> None:
    db = tmp_path / "state.db"
    StateStore(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 7")
    with pytest.raises(StateError, match="newer ingest") as err:
        StateStore(db)
    assert str(db) in str(err.value)

    index = tmp_path / "index.db"
    SqliteSink(index).close()
    with pytest.raises(StateError, match="is it the index") as err:
        StateStore(index)
    assert str(index) in str(err.value)

    foreign = tmp_path / "app.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(StateError, match="not an ingest state database"):
        StateStore(foreign)
