"""Benchmarks of this engine beside other GraphRAG implementations, run through the same stub."""
