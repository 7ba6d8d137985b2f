"""Rewrites of model-written Cypher that need no LLM call, each a module, run from one list."""
