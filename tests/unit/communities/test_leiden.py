"""Hierarchical Leiden on edge lists: determinism, nesting, components, unsplittable clusters."""

from __future__ import annotations

import itertools

from graphrag_neo4j.communities.leiden import Edge, Hierarchy, cluster_graph, undirected
from graphrag_neo4j.settings import CommunitySettings


def clique(prefix: str, size: int, weight: float = 1.0) -> list[Edge]:
    names = [f"{prefix}{i}" for i in range(size)]
    return [(a, b, weight) for a, b in itertools.combinations(names, 2)]


def layered_graph() -> list[Edge]:
    """Three linked 6-cliques (one level-0 community of 18, split at level 1) + 25 5-cliques."""
    edges = clique("a", 6) + clique("b", 6) + clique("c", 6)
    edges += [("a0", "b0", 1.0), ("a1", "b1", 1.0), ("a2", "b2", 1.0), ("b3", "c3", 1.0),
              ("b4", "c4", 1.0), ("b5", "c5", 1.0), ("a3", "c0", 1.0), ("a4", "c1", 1.0)]
    for k in range(25):
        edges += clique(f"s{k:02d}_", 5)
    return undirected(edges)


def membership(hierarchy: Hierarchy) -> set[tuple[int, frozenset[str]]]:
    return {(c.level, c.members) for c in hierarchy.clusters.values()}


def test_undirected_sums_parallel_and_reversed_edges_and_sorts() -> None:
    edges = undirected([("b", "a", 1.0), ("a", "b", 2.5), ("c", "a", 1.0), ("c", "c", 1.0)])
    assert edges == [("a", "b", 3.5), ("a", "c", 1.0), ("c", "c", 1.0)]


def test_same_graph_same_communities_whatever_the_input_order() -> None:
    settings = CommunitySettings()
    edges = layered_graph()
    first = cluster_graph(edges, settings)
    shuffled = undirected(list(reversed([(b, a, w) for a, b, w in edges])))
    assert membership(cluster_graph(shuffled, settings)) == membership(first)


def test_levels_nest_and_big_communities_split() -> None:
    hierarchy = cluster_graph(layered_graph(), CommunitySettings(max_cluster_size=10))
    assert hierarchy.levels == [0, 1]
    for cluster in hierarchy.clusters.values():
        if cluster.parent is not None:
            parent = hierarchy.clusters[cluster.parent]
            assert parent.level == cluster.level - 1
            assert cluster.members <= parent.members
    level_one = {c.members for c in hierarchy.at_level(1)}
    assert level_one == {frozenset(f"{p}{i}" for i in range(6)) for p in "abc"}


def test_components_stay_apart_and_every_node_is_in_a_leaf() -> None:
    hierarchy = cluster_graph(layered_graph(), CommunitySettings())
    level_zero = hierarchy.at_level(0)
    assert {frozenset(f"s07_{i}" for i in range(5))} <= {c.members for c in level_zero}
    leaves = [c for k, c in hierarchy.clusters.items() if k not in hierarchy.children()]
    covered = set().union(*(c.members for c in leaves))
    nodes = {n for a, b, _ in layered_graph() for n in (a, b)}
    assert covered == nodes == hierarchy.entities


def test_an_unsplittable_cluster_is_a_leaf_above_the_size_limit() -> None:
    hierarchy = cluster_graph(undirected(clique("k", 12)), CommunitySettings(max_cluster_size=10))
    (only,) = hierarchy.clusters.values()
    assert only.level == 0 and len(only.members) == 12
    assert hierarchy.children() == {}


def test_no_edges_no_communities_and_self_loops_count() -> None:
    assert cluster_graph([], CommunitySettings()).clusters == {}
    hierarchy = cluster_graph([("a", "b", 1.0), ("z", "z", 1.0)], CommunitySettings())
    assert {c.members for c in hierarchy.clusters.values()} == {
        frozenset({"a", "b"}), frozenset({"z"})}
