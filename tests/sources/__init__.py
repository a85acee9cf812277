"""ingest/sources/local.py and globs.py: the local folder source and the gitignore-style globs (local
and Drive)."""
