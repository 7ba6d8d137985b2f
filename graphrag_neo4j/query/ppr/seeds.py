"""Where the walk starts: the entities the question names, those nearest it, the ends of the
facts nearest it, and the passages nearest it (HippoRAG 2's seeds)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphrag_neo4j.query.base import Services
from graphrag_neo4j.query.context import Row
from graphrag_neo4j.query.retrieval.candidates import (
    ann_candidates,
    named_entity_ids,
    nearest_facts,
    passages,
)
from graphrag_neo4j.settings import SearchSettings

# A named entity's weight before its specificity: the question names it, so it counts as a
# perfect match (vector and fact seeds weigh their cosine, at most 1).
NAMED_WEIGHT = 1.0


@dataclass(frozen=True)
class Seeds:
    """Entity ids with their weight (the best of the ways that found them) and the passages
    nearest the question, best first, with their (fused) scores."""

    entities: dict[str, float]
    passages: list[Row]


def strongest(found: Iterable[tuple[str, float]]) -> dict[str, float]:
    """Each id's best weight, in the order ids were first found."""
    best: dict[str, float] = {}
    for entity_id, weight in found:
        best[entity_id] = max(best.get(entity_id, weight), weight)
    return best


async def find_seeds(
    services: Services, question: str, vector: list[float], search: SearchSettings,
    named: Sequence[str] | None = None,
) -> Seeds:
    """The seeds of the walk; `named` replaces the entities found by the question's names."""
    settings = search.ppr
    names, nearest, facts, dense = await asyncio.gather(
        _named(services, question, search, named),
        _read(services, "query/search/search_entities_by_vector", k=settings.entity_top_k,
              mentions=[{"text": question, "embedding": vector}],
              candidates=ann_candidates(settings.entity_top_k)),
        nearest_facts(services, vector, settings.fact_top_k),
        passages(services, question, vector, settings.seed_passages, search),
    )
    found = [(entity_id, NAMED_WEIGHT) for entity_id in names]
    found += [(row["id"], float(row["score"])) for row in nearest]
    found += [(row[end], float(row["score"])) for row in facts
              for end in ("source_id", "target_id")]
    return Seeds(strongest(found), dense)


async def _named(
    services: Services, question: str, search: SearchSettings, given: Sequence[str] | None
) -> list[str]:
    if given is not None:
        return list(given)
    return await named_entity_ids(services, question, search.ppr.named_per_mention, search)


async def _read(services: Services, name: str, k: int, **params: object) -> list[Row]:
    if k < 1:
        return []
    return await asyncio.to_thread(services.store.read, name, k=k, **params)
