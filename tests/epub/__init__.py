"""ingest/loaders/epub/: EPUB books, chapters in spine order."""
