"""Removes a document and everything only it supported, then re-describes what remains."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.graph.refresh import Mergers, refresh_entities, refresh_relations
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.runtime.errors import InputError


@dataclass(frozen=True)
class DeletionReport:
    """What a delete removed and what it re-described."""

    document_id: str
    chunks: int
    entities_deleted: int
    entities_refreshed: int
    relations_refreshed: int


# Rows per transaction when a document is taken apart: a 20 MB text's 400,000 relations in
# one transaction were more than Neo4j's transaction memory.
DELETE_BATCH = 2000
CHUNKS_PER_DELETE = 250  # a chunk takes its links to ~100 entities with it


async def delete_document(
    store: Store, document_id: str, merger: Mergers, embedder: EmbeddingCaller,
    from_chunk: int = 0,
) -> DeletionReport:
    """Delete DOC_ID, its chunks and provenance, orphaned entities and relations; with
    `from_chunk`, only its chunks from that position on (the document stays).

    It goes in transactions of DELETE_BATCH relations, then CHUNKS_PER_DELETE chunks, each of
    which can be repeated: a run stopped in between leaves the document in the graph, and
    deleting it again finishes the job.
    """
    rows = await asyncio.to_thread(
        store.read, "indexing/documents/document_footprint", id=document_id, from_chunk=from_chunk
    )
    if not rows:
        raise InputError(
            f"No document with id {document_id!r} in the graph; list ids with"
            " `graphrag-neo4j documents`."
        )
    footprint = rows[0]
    chunk_ids, entity_ids = footprint["chunk_ids"], footprint["entity_ids"]
    deleted = await asyncio.to_thread(_take_apart, store, footprint)
    if not from_chunk:
        await asyncio.to_thread(
            store.write, "indexing/deletion/delete_document_node", id=document_id
        )
    survivors = await asyncio.to_thread(
        store.read, "indexing/entities/existing_entities", ids=entity_ids
    )
    remaining = {row["id"] for row in survivors}
    relations = await asyncio.to_thread(
        store.read, "indexing/relations/existing_relations", ids=footprint["relation_ids"]
    )
    relation_ids = {row["id"] for row in relations}
    await refresh_entities(store, remaining, merger, embedder)
    await refresh_relations(store, relation_ids, merger, embedder)
    return DeletionReport(document_id, len(chunk_ids), deleted, len(remaining), len(relation_ids))


def _take_apart(store: Store, footprint: dict[str, Any]) -> int:
    """Detach the chunks' relation mentions, then delete the chunks and the entities only they
    mentioned; how many entities went."""
    store.write_rows("indexing/deletion/detach_chunk_mentions",
                     [{"id": rid} for rid in footprint["relation_ids"]],
                     batch_size=DELETE_BATCH, chunk_ids=footprint["chunk_ids"])
    deleted = 0
    chunk_rows = [{"id": cid} for cid in footprint["chunk_ids"]]
    for start in range(0, len(chunk_rows), CHUNKS_PER_DELETE):
        result = store.write("indexing/deletion/delete_chunks_and_orphans",
                             rows=chunk_rows[start : start + CHUNKS_PER_DELETE])
        deleted += result[0]["deleted"] if result else 0
    return deleted
