"""Personalized PageRank by power iteration on a subgraph whose nodes keep their true degrees."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_array  # type: ignore[import-untyped]

# Iteration stops when an update moves less than this much mass (L1); the error left is at most
# damping / (1 - damping) times it.
TOLERANCE = 1e-12
MAX_ITERATIONS = 1000


@dataclass(frozen=True)
class Subgraph:
    """Nodes by position with each one's degree in the whole graph, and undirected edges between
    positions (an edge listed twice counts twice, as two relations between two entities do).

    A degree above the node's edges here means edges that leave the subgraph: the walk's mass
    along them is dropped, so scores are a lower bound of the whole graph's, exact when the
    subgraph holds every edge of its nodes."""

    nodes: Sequence[str]
    degrees: Sequence[int]
    edges: Sequence[tuple[int, int]]


def personalized_pagerank(
    graph: Subgraph, seeds: Mapping[int, float], damping: float
) -> np.ndarray:
    """Each node's visit probability for a walk that follows an edge with probability `damping`
    and otherwise restarts at a seed (in proportion to its weight); a node without edges
    restarts it too (igraph's and networkx's rule)."""
    size = len(graph.nodes)
    restart = np.zeros(size)
    for position, weight in seeds.items():
        restart[position] += max(weight, 0.0)
    if size == 0 or restart.sum() <= 0:
        return np.zeros(size)
    restart /= restart.sum()
    degrees = np.asarray(graph.degrees, dtype=float)
    dangling = degrees == 0
    step = _transition(graph, degrees)
    scores = restart.copy()
    for _ in range(MAX_ITERATIONS):
        spread = damping * (step @ scores + scores[dangling].sum() * restart)
        updated = (1.0 - damping) * restart + spread
        moved = float(np.abs(updated - scores).sum())
        scores = updated
        if moved < TOLERANCE:
            break
    return scores


def _transition(graph: Subgraph, degrees: np.ndarray) -> coo_array:
    """The column-stochastic step (over the whole graph's degrees): entry (j, i) is the share of
    node i's mass that one step sends to j."""
    size = len(graph.nodes)
    if not graph.edges:
        return coo_array((size, size)).tocsr()
    ends = np.asarray(graph.edges, dtype=np.int64)
    sources = np.concatenate([ends[:, 0], ends[:, 1]])
    targets = np.concatenate([ends[:, 1], ends[:, 0]])
    shares = 1.0 / np.maximum(degrees[sources], 1.0)
    return coo_array((shares, (targets, sources)), shape=(size, size)).tocsr()
