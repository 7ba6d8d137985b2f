"""The formats the indexer reads (`registry`), their readers, and where pages and sections start."""
