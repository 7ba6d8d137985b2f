"""The on-disk caches behind the call paths: one SQLite file per process, a key-value store."""
