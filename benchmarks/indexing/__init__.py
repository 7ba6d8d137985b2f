"""Benchmarks of building the graph: extraction, ingest, resolution, communities, delete."""
