"""ingest/loaders/word/: the .docx and Google Docs loaders (comments, notes, tracked changes, lists,
suggestions)."""
