"""Hierarchical Leiden over the entity graph: read edges from Neo4j, cluster, shape the levels."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import graspologic_native as gn

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.settings import CommunitySettings

Edge = tuple[str, str, float]
# Weights are rounded so that summation order inside Neo4j can never change the clustering.
WEIGHT_DIGITS = 6


@dataclass(frozen=True)
class Cluster:
    """One community found by Leiden: its level, its parent's key and its member entity ids."""

    key: int
    level: int
    parent: int | None
    members: frozenset[str]


@dataclass
class Hierarchy:
    """Every cluster of every level; level 0 is the coarsest, deeper levels split it further."""

    clusters: dict[int, Cluster] = field(default_factory=dict)

    @property
    def levels(self) -> list[int]:
        """The levels present, coarsest first."""
        return sorted({cluster.level for cluster in self.clusters.values()})

    def at_level(self, level: int) -> list[Cluster]:
        """The clusters of one level, in key order."""
        return [c for _, c in sorted(self.clusters.items()) if c.level == level]

    def children(self) -> dict[int, list[int]]:
        """Child keys of each cluster that has any (a leaf has none)."""
        result: dict[int, list[int]] = defaultdict(list)
        for key, cluster in sorted(self.clusters.items()):
            if cluster.parent is not None:
                result[cluster.parent].append(key)
        return dict(result)

    @property
    def entities(self) -> frozenset[str]:
        """Every entity placed in some cluster."""
        return frozenset(e for c in self.clusters.values() if c.level == 0 for e in c.members)


def read_edges(store: Store) -> list[Edge]:
    """The undirected, parallel-summed entity graph in one streaming read, sorted."""
    rows = store.stream("communities/build/stream_entity_edges")
    # The query already pairs and sums; normalising again here makes the Leiden input independent
    # of server collation and summation order.
    return undirected((str(r["source"]), str(r["target"]), float(r["weight"])) for r in rows)


def undirected(edges: Iterable[Edge]) -> list[Edge]:
    """Edges with each pair written once (smaller id first), parallel weights summed, sorted."""
    summed: dict[tuple[str, str], float] = defaultdict(float)
    for source, target, weight in edges:
        pair = (source, target) if source <= target else (target, source)
        summed[pair] += weight
    return sorted((a, b, round(w, WEIGHT_DIGITS)) for (a, b), w in summed.items())


def cluster_graph(edges: list[Edge], settings: CommunitySettings) -> Hierarchy:
    """Run graspologic's hierarchical Leiden; the same sorted edges and seed give the same result.

    An entity appears at level 0 and at every deeper level its cluster was split into, so the
    levels nest; a cluster Leiden did not split has no children (Microsoft GraphRAG's rule).
    """
    if not edges:
        return Hierarchy()
    entries = gn.hierarchical_leiden(
        edges=edges,
        max_cluster_size=settings.max_cluster_size,
        seed=settings.seed,
        resolution=1.0,
        randomness=0.001,
        use_modularity=True,
    )
    members: dict[int, set[str]] = defaultdict(set)
    shape: dict[int, tuple[int, int | None]] = {}
    for entry in entries:
        members[entry.cluster].add(entry.node)
        shape[entry.cluster] = (entry.level, entry.parent_cluster)
    hierarchy = Hierarchy()
    for key in sorted(members):
        level, parent = shape[key]
        hierarchy.clusters[key] = Cluster(key, level, parent, frozenset(members[key]))
    return hierarchy
