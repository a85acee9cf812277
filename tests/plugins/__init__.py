"""Third-party plugins: a real package (plugin_package/) installed and listed, and `ingest plugins`."""
