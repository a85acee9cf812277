"""ingest/loaders/sheets/: the .xlsx and CSV loader (values, comments, memory, ground truth) and the
cleaners made for tables."""
