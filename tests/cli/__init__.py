"""The command line as a user runs it: commands, `--every`, `ingest inspect` (and its HTML in a
browser), and the README's commands."""
