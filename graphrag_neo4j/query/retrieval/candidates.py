"""Candidate passages and entities for a question: vector search, fulltext search, or both fused."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from graphrag_neo4j.database.lucene import content_query
from graphrag_neo4j.query.base import Services
from graphrag_neo4j.query.context import Row
from graphrag_neo4j.query.hops.mentions import capitalised_mentions
from graphrag_neo4j.query.retrieval.hybrid import max_score_fusion, reciprocal_rank_fusion
from graphrag_neo4j.settings import SearchSettings

# Neo4j's HNSW vector indexes miss true neighbours when asked for very few (naive Recall@5 on
# MuSiQue: 57.0 asking for 5, 60.3 asking for 100 = the exact search), so searches ask for at
# least this many and keep their k best.
ANN_MIN_CANDIDATES = 100


def ann_candidates(k: int) -> int:
    """How many neighbours to ask a vector index for, to get k right."""
    return max(k, ANN_MIN_CANDIDATES)


async def _read(services: Services, name: str, **params: Any) -> list[Row]:
    return await asyncio.to_thread(services.store.read, name, **params)


async def passages(
    services: Services, question: str, vector: list[float], k: int, search: SearchSettings
) -> list[Row]:
    """The k best passages for the question: nearest vectors, fused with BM25 when hybrid."""
    depth = max(k, search.hybrid.candidates) if search.hybrid.enabled else k
    nearest = await _read(
        services, "query/search/search_chunks_by_vector",
        embedding=vector, k=depth, candidates=ann_candidates(depth),
    )
    words = content_query(question) if search.hybrid.enabled else ""
    if not words:
        return nearest[:k]
    matching = await _read(services, "query/search/search_chunks_by_fulltext", query=words, k=depth)
    return fuse([nearest, matching], "chunk_id", search)[:k]


async def nearest_facts(services: Services, vector: list[float], k: int) -> list[Row]:
    """The k relations (facts) whose sentence vectors are nearest the question's, with their
    two entities: hops' relation evidence and the walk's fact seeds (HippoRAG 2's
    query-to-triple link)."""
    if k < 1:
        return []
    return await _read(services, "query/search/search_relations_by_vector",
                       embedding=vector, k=k, candidates=ann_candidates(k))


async def entities_for_mentions(
    services: Services, mentions: Sequence[str], k: int, search: SearchSettings
) -> list[Row]:
    """For each mention, its k nearest entities, fused with its fulltext matches when hybrid."""
    if not mentions or k < 1:
        return []
    vectors = await services.embedder.embed(list(mentions))
    rows = [{"text": m, "embedding": v} for m, v in zip(mentions, vectors, strict=True)]
    nearest = await _read(
        services, "query/search/search_entities_by_vector",
        mentions=rows, k=k, candidates=ann_candidates(k),
    )
    if not search.hybrid.enabled:
        return nearest
    matching = await entities_by_text(services, mentions, k)
    # Grouped in one pass each: a scan of every row per mention was quadratic in mentions.
    ways: dict[str, tuple[list[Row], list[Row]]] = {m: ([], []) for m in mentions}
    for way, found in enumerate((nearest, matching)):
        for row in found:
            if row["mention"] in ways:
                ways[row["mention"]][way].append(row)
    fused: list[Row] = []
    for by_vector, by_text in ways.values():
        fused += fuse([by_vector, by_text], "id", search)[:k]
    return fused


def fuse(rankings: Sequence[Sequence[Row]], key: str, search: SearchSettings) -> list[Row]:
    """Vector rows, then fulltext rows, as one ranking fused as `search.hybrid.fusion` says.

    Scores come back on the vector ranking's scale, as hops and local weigh them against
    similarities of their own (BM25's scale means nothing next to a similarity).
    """
    vector_scores = sorted((float(row["score"]) for row in rankings[0]), reverse=True)
    if search.hybrid.fusion == "rrf":
        # Ranks only: the i-th fused row takes the i-th best vector score.
        fused = reciprocal_rank_fusion(rankings, key=lambda row: row[key])
        floor = vector_scores[-1] if vector_scores else 0.0
        return [{**row, "score": vector_scores[i] if i < len(vector_scores) else floor}
                for i, row in enumerate(fused)]
    # A row found by its words scores like the vector match it ties with; a vector row keeps
    # its own score.
    top = vector_scores[0] if vector_scores else 1.0
    scored = max_score_fusion(rankings, key=lambda row: row[key], score=lambda row: row["score"])
    return [{**row, "score": relative * top} for row, relative in scored]


async def named_entity_ids(
    services: Services, question: str, per_mention: int, search: SearchSettings
) -> list[str]:
    """Entities the question names (fulltext on its capitalised phrases; the whole question too
    when hybrid): vectors of short names blur, so these join by name."""
    hits = await entities_by_text(services, capitalised_mentions(question), per_mention)
    if search.hybrid.enabled:
        hits += await entities_by_text(services, [question], per_mention)
    return list(dict.fromkeys(row["id"] for row in hits))


async def entities_by_text(services: Services, texts: Sequence[str], k: int) -> list[Row]:
    """For each text, the k entities whose name and description match its words (BM25)."""
    queries = [{"mention": text, "query": content_query(text)} for text in texts]
    queries = [q for q in queries if q["query"]]
    if not queries or k < 1:
        return []
    return await _read(services, "query/search/search_entities_by_fulltext", texts=queries, k=k)
