"""Benchmarks of growth: corpus size, a Ray cluster, peak memory, HTTP serving."""
