"""Recomputes entity and relation descriptions, weights and embeddings from their provenance."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from graphrag_neo4j.embedding_calls import EmbeddingCaller
from graphrag_neo4j.store import Store
from graphrag_neo4j.summarizing import DescriptionMerger

READ_BATCH = 2000
Progress = Callable[[int], None] | None


def entity_embedding_text(name: str, description: str) -> str:
    """What an entity's vector encodes: its name, then what the corpus says about it."""
    return f"{name}: {description}" if description else name


def relation_embedding_text(subject: str, predicate: str, obj: str) -> str:
    """What a relation's vector encodes: the statement as a sentence."""
    return f"{subject} {predicate} {obj}"


def _batches(ids: Iterable[str]) -> list[list[str]]:
    ordered = sorted(ids)
    return [ordered[i : i + READ_BATCH] for i in range(0, len(ordered), READ_BATCH)]


async def refresh_entities(
    store: Store,
    entity_ids: Iterable[str],
    merger: DescriptionMerger,
    embedder: EmbeddingCaller,
    on_batch: Progress = None,
) -> int:
    """Description (joined or summarised), frequency, degree and embedding of each entity."""
    done = 0
    for ids in _batches(entity_ids):
        provenance = await asyncio.to_thread(store.read, "entity_provenance", ids=ids)
        descriptions = await asyncio.gather(
            *(merger.merge("entity", row["name"], row["descriptions"]) for row in provenance)
        )
        vectors = await embedder.embed(
            [
                entity_embedding_text(row["name"], text)
                for row, text in zip(provenance, descriptions, strict=True)
            ]
        )
        rows = [
            {
                "id": row["id"],
                "description": text,
                "frequency": row["frequency"],
                "degree": row["degree"],
                "embedding": vector,
            }
            for row, text, vector in zip(provenance, descriptions, vectors, strict=True)
        ]
        await asyncio.to_thread(store.write_rows, "set_entity_descriptions", rows)
        done += len(rows)
        if on_batch is not None:
            on_batch(len(rows))
    return done


def relation_weight(strengths: Sequence[float]) -> float:
    """How strongly the corpus supports a relation: the sum of its mentions' strengths."""
    return float(sum(strengths)) if strengths else 1.0


async def refresh_relations(
    store: Store,
    relation_ids: Iterable[str],
    merger: DescriptionMerger,
    embedder: EmbeddingCaller,
    on_batch: Progress = None,
) -> int:
    """Description, weight and sentence embedding of each relation."""
    done = 0
    for ids in _batches(relation_ids):
        provenance = await asyncio.to_thread(store.read, "relation_provenance", ids=ids)
        sentences = [
            relation_embedding_text(r["subject"], r["predicate"], r["object"]) for r in provenance
        ]
        descriptions = await asyncio.gather(
            *(
                _relation_description(merger, row, sentence)
                for row, sentence in zip(provenance, sentences, strict=True)
            )
        )
        vectors = await embedder.embed(sentences)
        rows = [
            {
                "id": row["id"],
                "description": text,
                "weight": relation_weight(row["strengths"] or []),
                "embedding": vector,
            }
            for row, text, vector in zip(provenance, descriptions, vectors, strict=True)
        ]
        await asyncio.to_thread(store.write_rows, "set_relation_descriptions", rows)
        done += len(rows)
        if on_batch is not None:
            on_batch(len(rows))
    return done


async def _relation_description(
    merger: DescriptionMerger, row: dict[str, Any], sentence: str
) -> str:
    merged = await merger.merge("relation", sentence, row["descriptions"] or [])
    return merged or sentence
