"""Search: ingest/search*.py, hybrid.py, vector_search.py, embedders/, `ingest eval` and the retrieval
benchmarks' scoring; fake_openai.py, counting_embedder.py and examples_index.py are its helpers."""
