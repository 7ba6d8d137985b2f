"""Indexing: load, chunk, extract, resolve, write, delete."""
