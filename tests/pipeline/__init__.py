"""ingest/runner/pipeline.py: a run end to end on a local folder (changes, renames, deletions, unreadable
files, workers, sinks)."""
