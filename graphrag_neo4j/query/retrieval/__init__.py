"""Candidate passages and entities (vector, fulltext, fused), naive search over them, and the
LangChain retriever over any method's retrieve-only mode."""
