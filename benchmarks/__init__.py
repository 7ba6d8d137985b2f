"""Benchmarks: each module runs on its own (`python -m benchmarks.NAME` or by path)."""
