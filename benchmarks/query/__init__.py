"""Benchmarks of the query methods: retrieval latency and recall, DRIFT, text to Cypher."""
