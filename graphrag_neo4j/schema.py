"""Applies the graph model's constraints and indexes, sized for the configured embedder."""

from __future__ import annotations

from rich.console import Console

from graphrag_neo4j.settings import Settings
from graphrag_neo4j.store import Store


def embedder_dimension(settings: Settings, console: Console | None = None) -> int:
    """The vector size of the configured embedder, found by embedding one probe text."""
    from graphrag_neo4j.providers import resolve_embeddings

    resolved = resolve_embeddings(settings)
    if console is not None:
        console.print(f"Embedder: {resolved.description}")
    return len(resolved.model.embed_query("dimension probe"))


def ensure_schema(store: Store, settings: Settings, console: Console | None = None) -> int:
    """Create every constraint and index (idempotent) and return the vector dimension."""
    dimensions = embedder_dimension(settings, console)
    store.apply_schema(dimensions)
    return dimensions
