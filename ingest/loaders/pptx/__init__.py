"""PowerPoint (.pptx) and Google Slides exported as .pptx: a section per slide, read with python-pptx
(placeholders, tables, groups, notes), the package XML where python-pptx stops (inherited bullets,
Google's slide ids)."""
