"""ingest/loaders/pdf/: the PDF loader (layouts, tables, furniture, ground truth) and the PDF
benchmarks' scoring; pages.py draws the generated PDFs."""
