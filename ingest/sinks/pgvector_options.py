"""Options of the PostgreSQL + pgvector sink (`sink: {pgvector: {...}}`), beside its code in
`pgvector.py`. Reading a config imports no database client: only a run or a search that uses the
sink does."""

from __future__ import annotations

import re

from pydantic import Field, field_validator, model_validator

from ..embedders import EmbedderConfig, options_of
from ..options import StrictOptions

_NAME = re.compile(r"[a-z_][a-z0-9_]{0,47}")
_PASSWORD_IN_URI = re.compile(r"^[a-z][a-z0-9+.-]*://[^/@:]*:[^/@]*@", re.IGNORECASE)
_PASSWORD_IN_CONNINFO = re.compile(r"(?:^|\s)password\s*=", re.IGNORECASE)


class PgvectorOptions(StrictOptions):
    dsn: str
    """Where the database is, as libpq takes it: `postgresql://ingest@db.internal:5432/search` or
    `host=db.internal dbname=search user=ingest`. Never the password: see `password_env`."""
    password_env: str = "PGPASSWORD"
    """The environment variable holding the password (none set: libpq's ~/.pgpass, or trust)."""
    table: str = "ingest"
    """Prefix of the three tables: `<table>_chunks`, `<table>_documents`, `<table>_meta`."""
    schema_name: str = "public"
    """The PostgreSQL schema the tables live in (created if missing)."""
    embedder: EmbedderConfig | None = None
    """The embedder whose vectors are stored, as the job's `embedder:` (which it defaults to; with
    neither, minilm). A table keeps the embedder it was made with: another needs another table."""
    text_search: str = "english"
    """The PostgreSQL text search configuration of the full-text column (stemming, stop words)."""
    hnsw_m: int = Field(16, ge=2, le=100)
    hnsw_ef_construction: int = Field(64, ge=4, le=1000)
    connect_timeout_s: float = Field(10, gt=0)
    retries: int = Field(3, ge=0, le=20)
    """A lost or refused connection is tried again this many times (0.5 s, 1 s, 2 s, ...) before the
    document fails; it is then tried again on the next run, as any machine fault."""

    @field_validator("dsn")
    @classmethod
    def _no_password(cls, value: str) -> str:
        if _PASSWORD_IN_URI.search(value) or _PASSWORD_IN_CONNINFO.search(value):
            raise ValueError(
                "holds a password; put it in the environment variable named by password_env "
                "(PGPASSWORD unless set) instead, so it is never in a file or a log"
            )
        return value

    @field_validator("table", "schema_name")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not _NAME.fullmatch(value):
            raise ValueError(
                f"{value!r} is not a plain table name: lower-case letters, digits and _, "
                "starting with a letter, at most 48 characters"
            )
        return value

    @model_validator(mode="after")
    def _embedder_options(self) -> PgvectorOptions:
        if self.embedder is not None:
            options_of(self.embedder)  # the embedder's own options, checked when the config loads
        return self
