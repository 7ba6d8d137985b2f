"""Hybrid retrieval: two ways to fuse the vector and the fulltext rankings."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

# Cormack et al.'s constant: a rank's weight is 1 / (RRF_K + rank).
RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[T]], key: Callable[[T], K], k: int = RRF_K
) -> list[T]:
    """Items of every ranking ordered by summed 1/(k + rank); ties keep first-seen order."""
    scores: dict[K, float] = {}
    first: dict[K, T] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            name = key(item)
            scores[name] = scores.get(name, 0.0) + 1.0 / (k + rank)
            first.setdefault(name, item)
    # sorted() is stable: equal scores keep the order in which the rankings first named them.
    return [first[name] for name in sorted(first, key=lambda name: -scores[name])]


def max_score_fusion(
    rankings: Sequence[Sequence[T]], key: Callable[[T], K], score: Callable[[T], float]
) -> list[tuple[T, float]]:
    """Items of every ranking with their best score relative to their ranking's best, best first.

    The fusion of neo4j-graphrag's HybridRetriever and LangChain's Neo4jVector hybrid search:
    each ranking's scores are divided by its top score, so each ranking's best item scores 1.
    BM25 scores sit far apart while cosine scores crowd near the top, so in practice the
    fulltext ranking's clear winners join the vector ranking's head. Equal best scores go to the
    item both rankings rate higher in sum (agreement), then to the first seen.
    """
    best: dict[K, float] = {}
    total: dict[K, float] = {}
    first: dict[K, T] = {}
    for ranking in rankings:
        top = max((score(item) for item in ranking), default=0.0)
        for item in ranking:
            name = key(item)
            relative = score(item) / top if top > 0 else 0.0
            best[name] = max(best.get(name, relative), relative)
            total[name] = total.get(name, 0.0) + relative
            first.setdefault(name, item)
    order = sorted(first, key=lambda name: (-best[name], -total[name]))
    return [(first[name], best[name]) for name in order]
