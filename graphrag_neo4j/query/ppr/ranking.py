"""Passages ranked by the walk: the seeds' neighbourhood read in one statement, weighted seeds,
Personalized PageRank over it, passages by their visit probability."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from graphrag_neo4j.query.base import Services
from graphrag_neo4j.query.ppr.seeds import Seeds, find_seeds
from graphrag_neo4j.query.ppr.walk import Subgraph, personalized_pagerank
from graphrag_neo4j.settings import PprSearchSettings, SearchSettings

PASSAGE = "p"
ENTITY = "e"
Key = tuple[str, str]  # (PASSAGE or ENTITY, id): a chunk and an entity may share an id
K = TypeVar("K")


@dataclass
class Neighbourhood:
    """The seeds' neighbourhood as the walk reads it, and how many passages each entity is in."""

    keys: list[Key] = field(default_factory=list)
    graph: Subgraph = field(default_factory=lambda: Subgraph([], [], []))
    passages_of: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PassageRanking:
    """Chunk ids best first with their scores, and what the walk started from."""

    chunk_ids: list[str]
    scores: dict[str, float]
    seeds: Seeds
    seed_weights: dict[Key, float]
    nodes: int


def neighbourhood(row: Mapping[str, object]) -> Neighbourhood:
    """The statement's row as positions, degrees and edges."""
    nodes: Sequence[Mapping[str, object]] = row.get("nodes") or []  # type: ignore[assignment]
    edges: Sequence[Mapping[str, object]] = row.get("edges") or []  # type: ignore[assignment]
    keys = [(PASSAGE if node["passage"] else ENTITY, str(node["id"])) for node in nodes]
    position = {key: i for i, key in enumerate(keys)}
    pairs = [(position[(PASSAGE if edge["passage"] else ENTITY, str(edge["source"]))],
              position[(ENTITY, str(edge["target"]))]) for edge in edges]
    degrees = [int(node["degree"]) for node in nodes]  # type: ignore[call-overload]
    passages_of = {key[1]: int(node["passages"])  # type: ignore[call-overload]
                   for key, node in zip(keys, nodes, strict=True) if key[0] == ENTITY}
    return Neighbourhood(keys, Subgraph([k[1] for k in keys], degrees, pairs), passages_of)


def seed_weights(
    seeds: Seeds, passages_of: Mapping[str, int], settings: PprSearchSettings
) -> dict[Key, float]:
    """Restart weights summing to 1: `passage_share` of them at the nearest passages (by their
    scores min-max normalised, as HippoRAG 2 normalises them), the rest at the entities (each by
    its weight over the passages it is in: a rare name says more, as in HippoRAG 2). A group
    with no seed leaves its share to the other."""
    entities = _shares({(ENTITY, entity_id): weight / max(passages_of.get(entity_id, 1), 1)
                        for entity_id, weight in seeds.entities.items()})
    scores = {(PASSAGE, str(row["chunk_id"])): float(row["score"]) for row in seeds.passages}
    # Min-max puts the last seeded passage at 0; a single passage (or equal scores) weighs 1.
    passages = _shares(_normalised(scores))
    share = settings.passage_share if entities and passages else float(bool(passages))
    weights = {key: (1.0 - share) * weight for key, weight in entities.items()}
    for key, weight in passages.items():
        weights[key] = weights.get(key, 0.0) + share * weight
    return weights


def _shares(weights: Mapping[Key, float]) -> dict[Key, float]:
    """The weights scaled to sum to 1 (none when they sum to 0)."""
    total = sum(weights.values())
    return {key: weight / total for key, weight in weights.items()} if total > 0 else {}


async def rank_passages(
    services: Services, question: str, vector: list[float], search: SearchSettings,
    named: Sequence[str] | None = None,
) -> PassageRanking:
    """Passages by the walk from the question's seeds mixed with their similarity to the
    question (`ppr.dense_share`); no nearest passage is lost when the graph is empty."""
    seeds = await find_seeds(services, question, vector, search, named)
    rows = await asyncio.to_thread(
        services.store.read, "query/ppr/seed_neighbourhood",
        entity_ids=list(seeds.entities), chunk_ids=[str(r["chunk_id"]) for r in seeds.passages],
        max_degree=search.ppr.max_degree,
    )
    around = neighbourhood(rows[0]) if rows else Neighbourhood()
    weights = seed_weights(seeds, around.passages_of, search.ppr)
    position = {key: i for i, key in enumerate(around.keys)}
    restart = {position[key]: w for key, w in weights.items() if key in position}
    visits = personalized_pagerank(around.graph, restart, search.ppr.damping)
    walked = {key[1]: float(visits[i]) for i, key in enumerate(around.keys) if key[0] == PASSAGE}
    dense = {str(row["chunk_id"]): float(row["score"]) for row in seeds.passages}
    scores = mixed_scores(walked, dense, search.ppr.dense_share)
    ranked = sorted(scores, key=lambda c: (-scores[c], -dense.get(c, 0.0), c))
    return PassageRanking(ranked, scores, seeds, weights, len(around.keys))


def mixed_scores(
    walked: Mapping[str, float], dense: Mapping[str, float], dense_share: float
) -> dict[str, float]:
    """Each passage's visit probability and its similarity to the question, both min-max
    normalised (a passage one of them did not score counts 0 there), mixed by `dense_share`.

    The walk alone ranks a passage by the entities it shares with the seeds, so a passage
    naming many of them beats the one the question is about; the similarity alone misses the
    bridge passage the walk reaches. Normalised, neither scale decides by its size."""
    walk_part, dense_part = _normalised(walked), _normalised(dense)
    return {chunk_id: (1.0 - dense_share) * walk_part.get(chunk_id, 0.0)
            + dense_share * dense_part.get(chunk_id, 0.0)
            for chunk_id in {**walked, **dense}}


def _normalised(scores: Mapping[K, float]) -> dict[K, float]:
    """Scores min-max scaled to [0, 1]; all equal (or one) scale to 1."""
    low, high = min(scores.values(), default=0.0), max(scores.values(), default=0.0)
    return {key: (value - low) / (high - low) if high > low else 1.0
            for key, value in scores.items()}
