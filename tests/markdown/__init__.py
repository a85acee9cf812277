"""ingest/loaders/markdown/ and ingest/table_text.py: the Markdown loader, its two parsers, golden
chunk files (golden/)."""
