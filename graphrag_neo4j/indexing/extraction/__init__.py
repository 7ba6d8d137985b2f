"""Extraction methods behind one protocol and one registry: llm, fast (spaCy), triplets."""
