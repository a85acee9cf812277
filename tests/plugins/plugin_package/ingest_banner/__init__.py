"""An example ingest plugin: a cleaner and a loader."""
