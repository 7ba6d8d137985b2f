"""Read-only look-ups of the graph for agents and clients: entities, neighbourhoods, reports."""

from __future__ import annotations

import asyncio
from typing import Any

from graphrag_neo4j.database.lucene import content_query
from graphrag_neo4j.query.base import Services
from graphrag_neo4j.query.retrieval.candidates import ann_candidates
from graphrag_neo4j.runtime.errors import InputError

DESCRIPTION_CHARS = 300
TEXT_CHARS = 400
MAX_SKIP = 10_000_000  # the furthest a page of documents may start (HTTP and MCP alike)


async def search_entities(services: Services, text: str, limit: int = 10) -> list[dict[str, Any]]:
    """Entities matching `text`: by name (fulltext) first, then by description (vectors)."""
    if not text.strip():
        raise InputError("The search text is empty: give a name or a few words.")
    store = services.store
    found: dict[str, dict[str, Any]] = {}
    query = content_query(text)
    if query:
        rows = await asyncio.to_thread(store.read, "api/search_entities_by_name", query=query,
                                       limit=limit, description_chars=DESCRIPTION_CHARS)
        found.update((row["id"], {**row, "matched": "name"}) for row in rows)
    vector = await services.embedder.embed_query(text)
    rows = await asyncio.to_thread(
        store.read, "api/search_entities_by_description", embedding=vector, limit=limit,
        candidates=ann_candidates(limit), description_chars=DESCRIPTION_CHARS,
    )
    for row in rows:
        found.setdefault(row["id"], {**row, "matched": "description"})
    return list(found.values())[:limit]


async def entity_neighbourhood(
    services: Services, entity_id: str, limit: int = 25
) -> dict[str, Any]:
    """An entity with its strongest relations, the chunks mentioning it and its communities."""
    rows = await asyncio.to_thread(services.store.read, "api/entity_neighbourhood",
                                   id=entity_id, limit=limit, text_chars=TEXT_CHARS)
    if not rows:
        raise InputError(f"No entity with id {entity_id!r}; find ids with search_entities.")
    return dict(rows[0])


async def community_report(
    services: Services, community_id: str, limit: int = 25
) -> dict[str, Any]:
    """A community's report with its parent, children and best-connected members."""
    rows = await asyncio.to_thread(services.store.read, "api/community_report",
                                   id=community_id, limit=limit)
    if not rows:
        raise InputError(
            f"No community with id {community_id!r}; entity_neighbourhood lists an entity's"
            " communities."
        )
    return dict(rows[0])


async def list_documents(services: Services, limit: int = 50, skip: int = 0) -> list[Any]:
    """Indexed documents with ids, titles, chunk counts and whether indexing finished."""
    if not 0 <= skip <= MAX_SKIP:  # Neo4j takes 64-bit integers only: 10**30 overflowed
        raise InputError(f"Invalid skip {skip:,}: give a number of documents from 0 to"
                         f" {MAX_SKIP:,}.")
    return await asyncio.to_thread(services.store.read, "indexing/documents/list_documents",
                                   limit=limit, skip=skip)
