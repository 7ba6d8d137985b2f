"""Hops search: the multi-way entity + relation retrieval of "Graph RAG with Milvus"."""
