"""PDF: `loader.py` reads pages with PyMuPDF into lines (`lines.py`), finds what sits in the page
bands (`margins.py`), columns, figures and tables, joins lines into paragraphs, ranks headings by
font and layout, and rejoins what a page break cut (`rejoin.py`). Every rule reads the page's own
evidence: geometry, fonts, repetition across pages, the file's outline."""
