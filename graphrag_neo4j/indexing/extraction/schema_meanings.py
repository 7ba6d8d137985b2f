"""The allowed schema name closest in meaning to a type or predicate no allowed name is spelled
like ("location" -> place), by the embedder's cosine between the value and the allowed name
with its description; `other` below `extraction.schema.min_similarity`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphrag_neo4j.indexing.extraction.schema import OTHER, ExtractionSchema
from graphrag_neo4j.indexing.records import ChunkExtraction
from graphrag_neo4j.indexing.vectors import unit_rows
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller


def closest_in_meaning(
    values: Sequence[str], values_vectors: Sequence[Sequence[float]],
    allowed: Sequence[str], allowed_vectors: Sequence[Sequence[float]], min_similarity: float,
) -> dict[str, str]:
    """Each value -> the allowed name whose vector is nearest (cosine), or `other` when even
    that one is below `min_similarity`."""
    if not values or not allowed:
        return dict.fromkeys(values, OTHER)
    similarity = unit_rows(values_vectors) @ unit_rows(allowed_vectors).T
    best = similarity.argmax(axis=1)
    return {value: allowed[int(i)] if similarity[row, i] >= min_similarity else OTHER
            for row, (value, i) in enumerate(zip(values, best, strict=True))}


async def _meanings(
    values: set[str], allowed: Mapping[str, str], embedder: EmbeddingCaller,
    min_similarity: float,
) -> dict[str, str]:
    if not values:
        return {}
    names = list(allowed)
    ordered = sorted(values)
    texts = [f"{name}: {text}" if text else name for name, text in allowed.items()]
    vectors = await embedder.embed(ordered + texts)
    return closest_in_meaning(ordered, vectors[: len(ordered)], names,
                              vectors[len(ordered):], min_similarity)


async def learn_meanings(
    schema: ExtractionSchema, extractions: Sequence[ChunkExtraction],
    embedder: EmbeddingCaller, min_similarity: float,
) -> ExtractionSchema:
    """The schema knowing the closest allowed name of every type and predicate of
    `extractions` that it could not map by spelling (each value is looked up once a run)."""
    types, predicates = schema.unspelled(extractions)
    if not types and not predicates:
        return schema
    return schema.with_meanings(
        await _meanings(types, schema.entity_types, embedder, min_similarity),
        await _meanings(predicates, dict.fromkeys(schema.relation_types, ""), embedder,
                        min_similarity),
    )
