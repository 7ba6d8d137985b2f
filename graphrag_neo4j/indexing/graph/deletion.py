"""Removes a document and everything only it supported, then re-describes what remains."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from graphrag_neo4j.errors import InputError
from graphrag_neo4j.indexing.graph.refresh import refresh_entities, refresh_relations
from graphrag_neo4j.indexing.graph.summaries import DescriptionMerger
from graphrag_neo4j.llm.embedding_calls import EmbeddingCaller
from graphrag_neo4j.store import Store


@dataclass(frozen=True)
class DeletionReport:
    """What a delete removed and what it re-described."""

    document_id: str
    chunks: int
    entities_deleted: int
    entities_refreshed: int
    relations_refreshed: int


async def delete_document(
    store: Store, document_id: str, merger: DescriptionMerger, embedder: EmbeddingCaller
) -> DeletionReport:
    """Delete DOC_ID, its chunks and provenance, orphaned entities and relations, in one go."""
    rows = await asyncio.to_thread(store.read, "indexing/document_footprint", id=document_id)
    if not rows:
        raise InputError(
            f"No document with id {document_id!r} in the graph; list ids with"
            " `graphrag-neo4j documents`."
        )
    footprint = rows[0]
    chunk_ids, entity_ids = footprint["chunk_ids"], footprint["entity_ids"]
    detach = [{"id": rid, "chunk_ids": chunk_ids} for rid in footprint["relation_ids"]]
    steps: list[tuple[str, dict[str, Any]]] = [
        ("indexing/detach_relation_mentions", {"rows": detach}),
        ("indexing/delete_document_chunks", {"id": document_id}),
        ("indexing/delete_orphan_entities", {"entity_ids": entity_ids}),
    ]
    results = await asyncio.to_thread(store.write_together, steps)
    deleted = results[2][0]["deleted"] if results[2] else 0
    survivors = await asyncio.to_thread(store.read, "indexing/existing_entities", ids=entity_ids)
    remaining = {row["id"] for row in survivors}
    relations = await asyncio.to_thread(
        store.read, "indexing/existing_relations", ids=footprint["relation_ids"]
    )
    relation_ids = {row["id"] for row in relations}
    await refresh_entities(store, remaining, merger, embedder)
    await refresh_relations(store, relation_ids, merger, embedder)
    return DeletionReport(document_id, len(chunk_ids), deleted, len(remaining), len(relation_ids))
