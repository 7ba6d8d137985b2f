"""Turns resolved mentions into batched, idempotent Neo4j writes of the graph model."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict
from functools import lru_cache
from typing import Any

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.graph.type_labels import TypeLabels
from graphrag_neo4j.indexing.records import (
    Chunk,
    ChunkExtraction,
    Document,
    normalize_name,
    relation_id,
)
from graphrag_neo4j.indexing.resolution.decisions import Resolution
from graphrag_neo4j.indexing.resolution.grouping import MergeRecord, mention_key

Rows = list[dict[str, Any]]
Progress = Callable[[int], None] | None
# A batch names the same entities and predicates over and over; normalising is the hot spot
# of building its rows, so repeated names and edge ids are remembered (bounded).
_CACHE_SIZE = 1 << 16
_name_key = lru_cache(maxsize=_CACHE_SIZE)(normalize_name)
_relation_id = lru_cache(maxsize=_CACHE_SIZE)(relation_id)


def write_documents_and_chunks(
    store: Store,
    documents: Sequence[Document],
    chunks: Sequence[Chunk],
    embeddings: Sequence[Sequence[float]],
    on_batch: Progress,
    method: Mapping[str, Any],
    languages: Mapping[str, str] | None = None,
    preceding: Sequence[Chunk] = (),
) -> None:
    """Documents (with what `method`, the extraction method's `document_record`, says of how
    their graph is extracted, and the language detected, by document id), their chunks with
    embeddings, and the NEXT_CHUNK chain (from the `preceding` chunks, written by the batch
    before, when a document continues here)."""
    languages = languages or {}
    rows = [{**_document_row(d, languages.get(d.id)), **method} for d in documents]
    store.write_rows("indexing/documents/merge_documents", rows)
    rows = [_chunk_row(chunk, vector) for chunk, vector in zip(chunks, embeddings, strict=True)]
    store.write_rows("indexing/documents/merge_chunks", rows, on_batch=on_batch)
    store.write_rows("indexing/documents/link_next_chunks", next_chunk_rows([*preceding, *chunks]))


def write_chunk_places(store: Store, chunks: Sequence[Chunk]) -> None:
    """Give chunks already in the graph their span, pages and section (same ids: same text)."""
    store.write_rows("indexing/documents/set_chunk_places", [_chunk_row(chunk) for chunk in chunks])


def _chunk_row(chunk: Chunk, vector: Sequence[float] | None = None) -> dict[str, Any]:
    """A chunk's properties: its span, pages and section (null when its format has none)."""
    row = {key: value for key, value in asdict(chunk).items() if key != "pages"}
    first, last = chunk.pages or (None, None)
    row.update(page_start=first, page_end=last, section=chunk.section or None)
    if vector is not None:
        row["embedding"] = list(vector)
    return row


def _document_row(document: Document, language: str | None) -> dict[str, Any]:
    return {
        "language": language,
        "id": document.id,
        "title": document.title,
        "source": document.source,
        "content_hash": document.content_hash,
    }


def next_chunk_rows(chunks: Iterable[Chunk]) -> Rows:
    """Links between consecutive chunks of each document."""
    by_document: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in chunks:
        by_document[chunk.document_id].append(chunk)
    rows: Rows = []
    for members in by_document.values():
        ordered = sorted(members, key=lambda c: c.chunk_index)
        rows.extend(
            {"from_id": a.id, "to_id": b.id} for a, b in itertools.pairwise(ordered)
        )
    return rows


def entity_mention_rows(extractions: Iterable[ChunkExtraction], resolution: Resolution) -> Rows:
    """One HAS_ENTITY row per (chunk, entity), merging same-entity mentions of a chunk."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for extraction in extractions:
        for mention in extraction.entities:
            entity = resolution.entity_of(mention_key(mention))
            row = rows.setdefault(
                (extraction.chunk_id, entity.id),
                {
                    "chunk_id": extraction.chunk_id,
                    "entity_id": entity.id,
                    "name": entity.name,
                    "name_key": entity.name_key,
                    "type": entity.type,
                    "surface_type": mention.type,
                    "descriptions": [],
                    "surface_names": [],
                },
            )
            if mention.description and mention.description not in row["descriptions"]:
                row["descriptions"].append(mention.description)
            if mention.name not in row["surface_names"]:
                row["surface_names"].append(mention.name)
    return [
        {
            **{k: v for k, v in row.items() if k != "descriptions"},
            "description": " ".join(row["descriptions"]),
        }
        for row in rows.values()
    ]


def relation_mention_rows(extractions: Iterable[ChunkExtraction], resolution: Resolution) -> Rows:
    """One RELATED provenance row per (relation, chunk); self-loops after merging are dropped."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for extraction in extractions:
        types = {_name_key(m.name): m.type for m in extraction.entities}
        for relation in extraction.relations:
            source = resolution.entity_of(_key(relation.subject, types))
            target = resolution.entity_of(_key(relation.object, types))
            if source.id == target.id:
                continue
            rel_id = _relation_id(source.id, relation.predicate, target.id)
            row = rows.setdefault(
                (rel_id, extraction.chunk_id),
                {
                    "id": rel_id,
                    "source_id": source.id,
                    "target_id": target.id,
                    "predicate": relation.predicate,
                    "chunk_id": extraction.chunk_id,
                    "description": relation.description,
                    "strength": relation.strength,
                    "subject_name": relation.subject,
                    "object_name": relation.object,
                },
            )
            row["strength"] = max(row["strength"], relation.strength)
    return list(rows.values())


def group_relation_mentions(mentions: Iterable[Mapping[str, Any]]) -> Rows:
    """One `merge_relation_mentions` row per relation, holding its chunks in reading order.

    A relation written once per statement keeps the statement free of read-after-write
    conflicts, so Neo4j plans it without Eager barriers. Each mention keeps the names its chunk
    used for both ends, so a merge of one of them can be undone mention by mention.
    """
    grouped: dict[str, dict[str, Any]] = {}
    for mention in mentions:
        row = grouped.setdefault(mention["id"], {
            "id": mention["id"], "source_id": mention["source_id"],
            "target_id": mention["target_id"], "predicate": mention["predicate"],
            "chunk_ids": [], "descriptions": [], "strengths": [], "subjects": [], "objects": [],
        })
        chunk_id = mention["chunk_id"]
        if chunk_id is None or chunk_id in row["chunk_ids"]:
            continue
        row["chunk_ids"].append(chunk_id)
        row["descriptions"].append(mention["description"])
        row["strengths"].append(mention["strength"])
        row["subjects"].append(mention.get("subject_name", ""))
        row["objects"].append(mention.get("object_name", ""))
    return list(grouped.values())


def _key(name: str, types: dict[str, str]) -> tuple[str, str]:
    key = _name_key(name)
    return key, types.get(key, "unknown")


def merge_rows(merges: Iterable[MergeRecord]) -> Rows:
    """Rows of the merge audit trail."""
    return [{**asdict(m), "id": m.id, "from_key": normalize_name(m.from_name)} for m in merges]


def write_mentions(
    store: Store,
    extractions: Sequence[ChunkExtraction],
    resolution: Resolution,
    on_batch: Progress = None,
    type_labels: TypeLabels | None = None,
) -> tuple[set[str], set[str]]:
    """Write entity and relation provenance plus merges in as few transactions as
    `neo4j.transaction_rows` allows (one for most batches).

    Returns the touched entity and relation ids. Few commits instead of one per statement and
    1,000 rows; a text dense in names (a long file of repeated names) makes hundreds of
    thousands of rows a batch, more than Neo4j's transaction memory holds, so those commit in
    several, in order (entities before the relations that join them). A batch that fails is
    rolled back by the indexer, which deletes what it wrote. Rows are sorted by node id so
    concurrent writers lock nodes in the same order. With `type_labels`, the touched entities'
    type labels are set too.
    """
    # Stable sorts: a relation's chunks keep their reading order in its provenance lists.
    entity_rows = sorted(entity_mention_rows(extractions, resolution), key=lambda r: r["entity_id"])
    relation_rows = sorted(
        relation_mention_rows(extractions, resolution),
        key=lambda r: (r["source_id"], r["target_id"]),
    )
    size = store.settings.write_batch_size
    steps = [
        *_batched("indexing/entities/merge_entity_mentions", entity_rows, size),
        *_batched(
            "indexing/relations/merge_relation_mentions",
            group_relation_mentions(relation_rows),
            size,
        ),
        *_batched("indexing/merges/record_merges", merge_rows(resolution.merges), size),
    ]
    if type_labels is not None and entity_rows:
        steps.append(type_labels.step(r["entity_id"] for r in entity_rows))
    for transaction in bounded_transactions(steps, store.settings.transaction_rows):
        store.write_together(transaction)
    if on_batch is not None:
        on_batch(len(entity_rows) + len(relation_rows))
    return {r["entity_id"] for r in entity_rows}, {r["id"] for r in relation_rows}


def bounded_transactions(
    steps: Sequence[tuple[str, dict[str, Any]]], max_rows: int
) -> list[list[tuple[str, dict[str, Any]]]]:
    """Consecutive steps grouped into transactions of at most `max_rows` rows (a larger step
    alone), in their order."""
    groups: list[list[tuple[str, dict[str, Any]]]] = []
    rows = max_rows
    for step in steps:
        size = len(step[1].get("rows", ()))
        if not groups or rows + size > max_rows:
            groups.append([])
            rows = 0
        groups[-1].append(step)
        rows += size
    return groups


def _batched(name: str, rows: Rows, size: int) -> list[tuple[str, dict[str, Any]]]:
    """`name` with `rows` cut into `$rows` parameters of at most `size` rows."""
    return [(name, {"rows": rows[i : i + size]}) for i in range(0, len(rows), max(1, size))]
