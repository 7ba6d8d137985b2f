"""Personalized PageRank on hand-made graphs against networkx's, and what its inputs change."""

from __future__ import annotations

import networkx as nx  # type: ignore[import-untyped]
import numpy as np
import pytest

from graphrag_neo4j.query.ppr.walk import Subgraph, personalized_pagerank

# A small entity-passage graph: passages p1-p3, entities a-e, a parallel pair of relations a-b,
# and a lonely entity f (no edges).
EDGES = [("p1", "a"), ("p1", "b"), ("p2", "b"), ("p2", "c"), ("p3", "d"), ("a", "b"),
         ("a", "b"), ("c", "d"), ("d", "e")]
NODES = ["p1", "p2", "p3", "a", "b", "c", "d", "e", "f"]


def _whole(edges: list[tuple[str, str]] = EDGES) -> Subgraph:
    position = {node: i for i, node in enumerate(NODES)}
    degrees = [sum(node in edge for edge in edges) for node in NODES]
    return Subgraph(NODES, degrees, [(position[s], position[t]) for s, t in edges])


def _reference(seeds: dict[str, float], damping: float) -> np.ndarray:
    graph = nx.MultiGraph()
    graph.add_nodes_from(NODES)
    graph.add_edges_from(EDGES)
    ranks = nx.pagerank(graph, alpha=damping, personalization=seeds, tol=1e-14, max_iter=10_000)
    return np.array([ranks[node] for node in NODES])


@pytest.mark.parametrize("damping", [0.5, 0.85, 0.2])
@pytest.mark.parametrize("seeds", [{"a": 1.0}, {"a": 0.7, "p3": 0.3}, {"f": 1.0, "c": 2.0}])
def test_matches_networkx_within_1e6(seeds: dict[str, float], damping: float) -> None:
    mine = personalized_pagerank(_whole(), {NODES.index(n): w for n, w in seeds.items()}, damping)
    assert np.abs(mine - _reference(seeds, damping)).max() < 1e-6
    assert mine.sum() == pytest.approx(1.0)


def test_the_seed_and_the_damping_move_the_scores() -> None:
    graph = _whole()
    near_a = personalized_pagerank(graph, {NODES.index("a"): 1.0}, 0.5)
    near_e = personalized_pagerank(graph, {NODES.index("e"): 1.0}, 0.5)
    assert near_a[NODES.index("p1")] > near_a[NODES.index("p3")]
    assert near_e[NODES.index("p3")] > near_e[NODES.index("p1")]
    # Less damping keeps more mass on the seed itself: (1 - damping) at least.
    for damping in (0.2, 0.5, 0.85):
        scores = personalized_pagerank(graph, {NODES.index("e"): 1.0}, damping)
        assert scores[NODES.index("e")] >= 1.0 - damping
    low = personalized_pagerank(graph, {NODES.index("e"): 1.0}, 0.2)
    assert low[NODES.index("e")] > near_e[NODES.index("e")]


def test_edges_leaving_the_subgraph_lose_their_share() -> None:
    # p1 and a as a subgraph of the whole graph: a's other edges (to b twice) leave it.
    part = Subgraph(["p1", "a"], [2, 3], [(0, 1)])
    scores = personalized_pagerank(part, {1: 1.0}, 0.5)
    assert scores.sum() < 1.0
    whole = personalized_pagerank(_whole(), {NODES.index("a"): 1.0}, 0.5)
    # A lower bound of the whole graph's scores.
    assert scores[0] <= whole[NODES.index("p1")] + 1e-12
    assert scores[1] <= whole[NODES.index("a")] + 1e-12


def test_no_seed_weight_gives_no_scores() -> None:
    assert not personalized_pagerank(_whole(), {}, 0.5).any()
    assert not personalized_pagerank(_whole(), {0: 0.0}, 0.5).any()
