"""Plain text (`loader.py`), and the decoding of text files of any encoding (`decoding.py`), which
Markdown and CSV use too."""
