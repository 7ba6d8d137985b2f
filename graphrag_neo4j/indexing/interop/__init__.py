"""Microsoft GraphRAG interop: import its parquet output, export ours in its shape."""
