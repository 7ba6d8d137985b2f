"""Benchmarks of the models and their call path: offline throughput, embedders, hosted latency."""
