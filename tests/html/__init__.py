"""ingest/loaders/html/: web pages and HTML exports (structure, chrome as furniture, encodings)."""
