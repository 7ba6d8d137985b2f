"""Coverage-aware selection of hops' passages, without I/O.

A multi-hop answer needs passages that cover different parts of the question: the passage about
the entity the question names, then the one about the bridge it leads to. Ranked one by one on
their own scores, the best passages are often several about the first hop. Picking them in turn,
each by its own score plus the strongest entity it shares with those already picked (the bridge
a picked passage leads to), lets the next hop's passage displace a redundant one, as maximal
marginal relevance does for diversity.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphrag_neo4j.query.hops.ranking import bridge_strength, named_by

# Per chunk id, the entities it names that the question does not: id -> strength.
Bridges = Mapping[str, Mapping[str, float]]


def bridge_strengths(
    entities: Mapping[str, tuple[str, int]], question: str
) -> dict[str, float]:
    """Per entity id (name, passages naming it), 1/ln(2 + passages), leaving out the entities
    the question names (as `bridge_evidence` does)."""
    return {entity_id: bridge_strength(passages)
            for entity_id, (name, passages) in entities.items()
            if not named_by(question, name)}


def select_covering(
    order: Sequence[str], scores: Mapping[str, float], bridges: Bridges, weight: float
) -> list[str]:
    """The chunk ids of `order`, those in `bridges` (the pool) picked greedily: the best by
    score first, then each time the best by score + `weight` x the strongest entity it shares
    with a picked passage. Chunks outside the pool keep their order after it.

    The first pick is the best passage by its score, as in maximal marginal relevance: nothing
    is picked yet for a passage to share an entity with. Ties keep the given order; at weight 0
    the order is returned unchanged.
    """
    if weight == 0:
        return list(order)
    pool = [chunk_id for chunk_id in order if chunk_id in bridges]
    rank = {chunk_id: position for position, chunk_id in enumerate(order)}
    picked: list[str] = []
    named: dict[str, float] = {}
    while pool:
        best = max(pool, key=lambda chunk_id: (
            scores[chunk_id] + weight * _shared(bridges[chunk_id], named),
            -rank[chunk_id],
        ))
        pool.remove(best)
        picked.append(best)
        named.update(bridges[best])
    chosen = set(picked)
    return picked + [chunk_id for chunk_id in order if chunk_id not in chosen]


def _shared(entities: Mapping[str, float], named: Mapping[str, float]) -> float:
    """The strongest entity a passage shares with the picked ones (0 for none)."""
    return max((named[e] for e in entities if e in named), default=0.0)
