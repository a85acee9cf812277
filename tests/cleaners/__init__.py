"""ingest/cleaners/: the chain (built-ins, options, plugins by module:attr) and what each cleaner
removes and keeps."""
