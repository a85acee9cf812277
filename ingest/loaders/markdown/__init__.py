"""Markdown: `loader.py` turns parser events into blocks with source offsets; the events come from
markdown-it-pyrs's syntax tree (`tree.py`) where it is installed, else markdown-it-py's tokens
(`tokens.py`); HTML tables inside Markdown are read by `html_table.py`."""
