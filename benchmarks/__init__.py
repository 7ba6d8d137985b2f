"""Benchmarks: each module runs on its own (`python -m benchmarks.ROOM.NAME` or by path)."""
