"""Hops without I/O: subgraph expansion steps and the passage orders with and without an LLM."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from graphrag_neo4j.query.hops.placing import joined_order, placed_passages
from graphrag_neo4j.query.hops.rerank import Candidate

Neighbours = Callable[[list[str]], Awaitable[set[str]]]


async def expand_entities(
    neighbours: Neighbours,
    entity_ids: Collection[str],
    endpoint_ids: Collection[str],
    degree: int,
) -> set[str]:
    """Entities within `degree` steps of the matched entities and `degree - 1` of the matched
    relations' endpoints; the relations touching them are the notebook's expanded subgraph.

    The notebook multiplies adjacency matrices: a matched entity reaches every relation of the
    entities `degree` steps away, a matched relation every relation sharing an entity with it
    (`degree - 1` steps from its endpoints). A breadth-first walk gives the same set, one
    Cypher round trip per step.
    """
    if degree < 1:
        raise ValueError(f"search.hops.degree must be 1 or more, not {degree}.")
    reached = set(entity_ids)
    frontier = set(entity_ids)
    for step in range(degree):
        fresh = (await neighbours(sorted(frontier)) if frontier else set()) - reached
        reached |= fresh
        frontier = fresh
        if step == 0:
            # Endpoints need one step fewer: they join the walk after the first step.
            joining = set(endpoint_ids) - reached
            reached |= joining
            frontier |= joining
    return reached


def relation_evidence(candidates: Sequence[Candidate]) -> dict[str, float]:
    """Per chunk, the similarity of the best candidate relation it states."""
    evidence: dict[str, float] = {}
    for candidate in candidates:
        for chunk_id in candidate.chunk_ids:
            evidence[chunk_id] = max(evidence.get(chunk_id, candidate.score), candidate.score)
    return evidence


@dataclass(frozen=True)
class Bridge:
    """A named entity of the passage nearest the question, with the passages naming it."""

    name: str
    passages: int
    chunk_ids: tuple[str, ...]


def named_by(question: str, name: str) -> bool:
    """Whether the question names the entity: then it is the question's first hop, not a
    bridge to the next one."""
    return name.casefold() in question.casefold()


def bridge_strength(passages: int) -> float:
    """How much an entity named in `passages` passages says as a bridge: rarer says more."""
    return 1.0 / math.log(2 + passages)


def bridge_evidence(bridges: Sequence[Bridge], question: str) -> dict[str, float]:
    """Per chunk, the best 1/ln(2 + passages) of the bridges it names.

    A two-hop question names its first entity; the passage about it names the bridge (the
    association that published the journal), and the answer sits in the passages about the
    bridge, which share few words with the question. Entities the question names are its
    first hop, not a bridge; rarer names say more than common ones.
    """
    evidence: dict[str, float] = {}
    for bridge in bridges:
        if named_by(question, bridge.name):
            continue
        strength = bridge_strength(bridge.passages)
        for chunk_id in bridge.chunk_ids:
            evidence[chunk_id] = max(evidence.get(chunk_id, 0.0), strength)
    return evidence


def blended_scores(
    chunk_scores: Mapping[str, float], evidence: Sequence[tuple[Mapping[str, float], float]]
) -> dict[str, float]:
    """Per chunk id, its own similarity + each (evidence, weight) pair's weighted value.

    A passage's text alone misses the bridge of a multi-hop question; a relation alone is too
    short to rank on (ordering passages by relations only did worse than plain vector search
    on MuSiQue). Adding the best relation's similarity, and a bridge's strength, lifts
    passages that state a fact near the question without dropping those whose text is near it.
    """
    return {chunk_id: score + sum(weight * found.get(chunk_id, 0.0) for found, weight in evidence)
            for chunk_id, score in chunk_scores.items()}


def blend_passages(
    chunk_scores: Mapping[str, float], evidence: Sequence[tuple[Mapping[str, float], float]]
) -> list[str]:
    """Chunk ids by their blended score (`blended_scores`), best first, ties by id."""
    return best_first(blended_scores(chunk_scores, evidence))


def best_first(scores: Mapping[str, float]) -> list[str]:
    """Chunk ids by score, best first, ties by id."""
    return sorted(scores, key=lambda chunk_id: (-scores[chunk_id], chunk_id))


def shown_to_reranker(
    candidates: Sequence[Candidate], limit: int, per_passage: int
) -> list[Candidate]:
    """The nearest candidates, at most `per_passage` stated by the same chunks.

    The nearest relations are often many facts of one passage about the question's entity (ten
    facts about one book); capping them lets the bridge facts of other passages into the prompt
    (gold passages among 25 shown on MuSiQue: 68% uncapped, 75% at two per passage).
    """
    shown: list[Candidate] = []
    per_source: dict[tuple[str, ...], int] = {}
    for candidate in candidates:
        seen = per_source.get(candidate.chunk_ids, 0)
        if seen < per_passage:
            per_source[candidate.chunk_ids] = seen + 1
            shown.append(candidate)
            if len(shown) == limit:
                break
    return shown


def passages_after_rerank(
    chosen: Sequence[Candidate], fallback: Sequence[str], keep: int, most: int
) -> tuple[list[str], list[str]]:
    """The order after the rerank, and the passages it placed: the fallback's first `keep`
    chunks, then at most `most` chunks of the chosen relations in the reranker's order, then
    the rest of the fallback order.

    A relation stated by several chunks lists them in their fallback rank, as the notebook walks
    relation ids to passage ids; `most` (as many as the facts it may choose) stops a
    co-occurrence stated in dozens of passages from filling the ranking with them.
    """
    rank = {chunk_id: position for position, chunk_id in enumerate(fallback)}
    stated = list(dict.fromkeys(
        chunk_id for candidate in chosen
        for chunk_id in sorted(candidate.chunk_ids, key=lambda c: rank.get(c, len(rank)))))
    # Placed as the follow-up places its passages: each passage once, none dropped.
    return (joined_order(fallback, stated, keep, most),
            placed_passages(fallback, stated, keep, most))
