"""ingest/sinks/ and ingest/runner/state.py: the SQLite index, JSONL, pgvector (a real PostgreSQL from
pg_server.py, fixtures in conftest.py) and the state store; documents.py cuts real documents into
chunks by hand."""
