"""ingest inside the frameworks applications already use: each module is one framework's
retriever over an ingest index and its loader of files as ingest's chunks, and imports that
framework, which comes with its extra:

    pip install 'ingest[langchain]'   # ingest.adapters.langchain: IngestRetriever, IngestLoader
    pip install 'ingest[llamaindex]'  # ingest.adapters.llamaindex: IngestRetriever, IngestReader

What they share, without a framework: the metadata each chunk carries (metadata.py), the search
they run (index_query.py) and the chunks of files as `ingest chunk` makes them (file_chunks.py).
"""
