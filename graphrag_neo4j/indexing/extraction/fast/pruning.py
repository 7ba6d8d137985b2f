"""Graph pruning of a fast-extraction batch, in the spirit of Microsoft GraphRAG's prune step."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from graphrag_neo4j.settings import FastExtractionSettings


@dataclass(frozen=True)
class Edge:
    """One chunk's support for a statement between two entity keys."""

    source: str
    predicate: str
    target: str
    weight: float


@dataclass(frozen=True)
class Pruned:
    """The entity keys and (source, predicate, target) statements that survive pruning."""

    nodes: set[str]
    edges: set[tuple[str, str, str]]


def prune(
    edges: Iterable[Edge],
    types: dict[str, str],
    concepts: set[str],
    settings: FastExtractionSettings,
    central: Collection[str] = frozenset(),
) -> Pruned:
    """Weak edges, then hub entities of the hub types (but the `central` ones), then concepts
    left unconnected, go."""
    weights: dict[tuple[str, str, str], float] = defaultdict(float)
    for edge in edges:
        weights[(edge.source, edge.predicate, edge.target)] += edge.weight
    return prune_summed(weights, types, concepts, settings, central)


def prune_summed(
    weights: Mapping[tuple[str, str, str], float],
    types: dict[str, str],
    concepts: set[str],
    settings: FastExtractionSettings,
    central: Collection[str] = frozenset(),
) -> Pruned:
    """`prune` over each statement's weight summed over the chunks already."""
    strong = {s for s, weight in weights.items() if weight >= settings.min_edge_weight}
    hubs = _hubs(strong, types, settings) - set(central)
    kept_edges = {s for s in strong if s[0] not in hubs and s[2] not in hubs}
    connected = {end for s in kept_edges for end in (s[0], s[2])}
    nodes = {
        key for key in types
        if key not in hubs and (key not in concepts or key in connected)
    }
    return Pruned(nodes, kept_edges)


def _hubs(
    statements: set[tuple[str, str, str]], types: dict[str, str], settings: FastExtractionSettings
) -> set[str]:
    """Entities of the hub types whose degree lies above the configured percentile."""
    if settings.hub_degree_percentile >= 100:
        return set()
    neighbours: dict[str, set[str]] = defaultdict(set)
    for source, _, target in statements:
        neighbours[source].add(target)
        neighbours[target].add(source)
    if not neighbours:
        return set()
    degrees = {key: len(others) for key, others in neighbours.items()}
    limit = float(np.percentile(list(degrees.values()), settings.hub_degree_percentile))
    hub_types = set(settings.hub_types)
    return {
        key for key, degree in degrees.items()
        if degree > limit and types.get(key) in hub_types
    }
