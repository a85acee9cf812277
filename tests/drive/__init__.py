"""ingest/sources/drive*.py: the Drive source against the fake Google server in fake_google/ (its
fixture: server.py; shared helpers: helpers.py)."""
