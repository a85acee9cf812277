"""Word-processor documents: .docx (`docx*.py`) and Google Docs (`gdoc*.py`), read into the same
outline of headings, lists and tables (`outline.py`), with list numbers (`numbers.py`) and marked
spans (`spans.py`) shared. Neither format's loader imports the other's modules."""
