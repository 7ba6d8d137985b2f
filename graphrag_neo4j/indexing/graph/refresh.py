"""Recomputes entity and relation descriptions, weights and embeddings from their provenance.

Only what changed is written back, and a vector only when the text it encodes changed: a
re-run, or an entity seen again in a later batch, costs a read instead of an embedding and a
vector-index write (the dominant cost of this stage).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.graph.document_styles import DocumentStyles
from graphrag_neo4j.indexing.graph.summaries import DescriptionMerger
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller

READ_BATCH = 2000
Progress = Callable[[int], None] | None
Row = dict[str, Any]
# The embedder is None when the caller wants no vectors (fast relations, unless asked for).
Embedder = EmbeddingCaller | None
# One merger for all (an indexing run's method), or each item's by its documents' styles.
Mergers = DescriptionMerger | DocumentStyles
BatchRefresh = Callable[[Store, list[str], Mergers, Embedder], Awaitable[int]]


def entity_embedding_text(name: str, description: str, max_words: int | None = None) -> str:
    """What an entity's vector encodes: its name, then what the corpus says about it (its
    first `max_words` words when given)."""
    if max_words is not None:
        description = " ".join(description.split()[:max_words])
    return f"{name}: {description}" if description else name


def relation_embedding_text(subject: str, predicate: str, obj: str) -> str:
    """What a relation's vector encodes: the statement as a sentence."""
    return f"{subject} {predicate} {obj}"


def relation_weight(strengths: Sequence[float]) -> float:
    """How strongly the corpus supports a relation: the sum of its mentions' strengths."""
    return float(sum(strengths)) if strengths else 1.0


def _batches(ids: Iterable[str]) -> list[list[str]]:
    ordered = sorted(ids)
    return [ordered[i : i + READ_BATCH] for i in range(0, len(ordered), READ_BATCH)]


async def _refresh(
    store: Store,
    ids: Iterable[str],
    merger: Mergers,
    embedder: Embedder,
    on_batch: Progress,
    batch_refresh: BatchRefresh,
) -> int:
    done = 0
    for batch in _batches(ids):
        count = await batch_refresh(store, batch, merger, embedder)
        done += count
        if on_batch is not None:
            on_batch(count)
    return done


async def refresh_entities(
    store: Store,
    entity_ids: Iterable[str],
    merger: Mergers,
    embedder: Embedder,
    on_batch: Progress = None,
) -> int:
    """Description (joined or summarised), frequency, degree and embedding of each entity."""
    return await _refresh(store, entity_ids, merger, embedder, on_batch, _refresh_entity_batch)


async def refresh_relations(
    store: Store,
    relation_ids: Iterable[str],
    merger: Mergers,
    embedder: Embedder,
    on_batch: Progress = None,
) -> int:
    """Description, weight and (unless `embedder` is None) sentence embedding of each relation."""
    return await _refresh(
        store, relation_ids, merger, embedder, on_batch, _refresh_relation_batch
    )


async def _chooser(
    store: Store, kind: str, ids: list[str], mergers: Mergers
) -> Callable[[str], DescriptionMerger]:
    """The merger of each item of the batch."""
    if isinstance(mergers, DescriptionMerger):
        return lambda _item_id: mergers
    return await mergers.choose(store, kind, ids)


async def _refresh_entity_batch(
    store: Store, ids: list[str], mergers: Mergers, embedder: Embedder
) -> int:
    """Write the entities whose values changed; re-embed those whose description changed."""
    provenance = await asyncio.to_thread(store.read, "indexing/entities/entity_provenance", ids=ids)
    merger_of = await _chooser(store, "entity", ids, mergers)
    descriptions = await asyncio.gather(*(
        merger_of(row["id"]).merge("entity", row["name"], row["descriptions"])
        for row in provenance
    ))
    pairs = list(zip(provenance, descriptions, strict=True))
    rows = [_entity_row(stored, text) for stored, text in pairs if _entity_changed(stored, text)]
    # The name never changes: a vector is stale when the part of the description it encodes
    # changed (a name-only vector never is).
    stale = {}
    for stored, text in pairs:
        words = merger_of(stored["id"]).vector_words
        vector_text = entity_embedding_text(stored["name"], text, words)
        old_text = entity_embedding_text(stored["name"], stored["description"] or "", words)
        if not stored["embedded"] or vector_text != old_text:
            stale[stored["id"]] = vector_text
    await _attach_vectors(embedder, rows, stale)
    await asyncio.to_thread(store.write_rows, "indexing/entities/set_entity_descriptions", rows)
    return len(provenance)


def _entity_row(stored: Row, description: str) -> Row:
    return {
        "id": stored["id"],
        "description": description,
        "frequency": stored["frequency"],
        "degree": stored["degree"],
    }


def _entity_changed(stored: Row, description: str) -> bool:
    new = (description, stored["frequency"], stored["degree"])
    old = (stored["description"], stored["stored_frequency"], stored["stored_degree"])
    return not stored["embedded"] or new != old


async def _refresh_relation_batch(
    store: Store, ids: list[str], mergers: Mergers, embedder: Embedder
) -> int:
    """Write the relations whose description or weight changed; embed those without a vector
    (none when `embedder` is None: a missing vector is then no change)."""
    provenance = await asyncio.to_thread(
        store.read, "indexing/relations/relation_provenance", ids=ids
    )
    sentences = {
        r["id"]: relation_embedding_text(r["subject"], r["predicate"], r["object"])
        for r in provenance
    }
    merger_of = await _chooser(store, "relation", ids, mergers)
    descriptions = await asyncio.gather(*(
        _relation_description(merger_of(row["id"]), row, sentences[row["id"]])
        for row in provenance
    ))
    candidates = [
        (stored, _relation_row(stored, text))
        for stored, text in zip(provenance, descriptions, strict=True)
    ]
    wanted = embedder is not None
    rows = [row for stored, row in candidates if _relation_changed(stored, row, wanted)]
    # An edge id fixes subject, predicate and object, so a stored vector is never out of date.
    stale = {r["id"]: sentences[r["id"]] for r in provenance if wanted and not r["embedded"]}
    await _attach_vectors(embedder, rows, stale)
    await asyncio.to_thread(store.write_rows, "indexing/relations/set_relation_descriptions", rows)
    return len(provenance)


def _relation_row(stored: Row, description: str) -> Row:
    weight = relation_weight(stored["strengths"] or [])
    return {"id": stored["id"], "description": description, "weight": weight}


def _relation_changed(stored: Row, row: Row, vector_wanted: bool) -> bool:
    new = (row["description"], row["weight"])
    missing = vector_wanted and not stored["embedded"]
    return missing or new != (stored["description"], stored["stored_weight"])


async def _relation_description(merger: DescriptionMerger, row: Row, sentence: str) -> str:
    merged = await merger.merge("relation", sentence, row["descriptions"] or [])
    return merged or sentence


async def _attach_vectors(embedder: Embedder, rows: list[Row], texts: dict[str, str]) -> None:
    """Embed `texts` (by row id) and set each row's `embedding`: a vector, or None to keep it."""
    fresh: dict[str, list[float]] = {}
    if embedder is not None:
        fresh = dict(zip(texts, await embedder.embed(list(texts.values())), strict=True))
    for row in rows:
        row["embedding"] = fresh.get(row["id"])
