"""ingest/loaders/pptx/: the .pptx loader (Google Slides exports too), its options and bad files."""
