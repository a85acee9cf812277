"""ingest/chunker/: sentences, token counts, packing rules and properties, chunk ids."""
