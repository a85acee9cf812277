"""The tests, by subject in folders mirroring ingest/ (see CONTRIBUTING.md, Tests). Helpers every
folder may use: paths.py (ROOT, SHARED, CORPUS, SEEDS, FIXTURES), local_job.py (a local-folder job:
config, run, `python -m ingest`)."""
