"""Hybrid retrieval: a Lucene query safe for any question, and two ways to fuse rankings."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

_WORD = re.compile(r"\w+", flags=re.UNICODE)
# Words a question is made of that say nothing about its subject; BM25 would still reward them.
_STOP_WORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do",
    "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it",
    "its", "of", "on", "or", "that", "the", "their", "then", "there", "these", "they", "this",
    "to", "was", "were", "what", "when", "where", "which", "who", "whom", "whose", "why", "will",
    "with", "would", "you", "your",
})
# Lucene refuses queries with more clauses than its limit; questions never need that many.
MAX_TERMS = 32
# Cormack et al.'s constant: a rank's weight is 1 / (RRF_K + rank).
RRF_K = 60


def lucene_query(text: str) -> str:
    """The question's content words, lower-cased, as a Lucene OR query (empty: nothing to ask).

    Only word characters survive, so quotes, colons, tildes, brackets and operators such as
    `AND` (lower-cased into a plain word) can never change the query's meaning or break it.
    """
    words = [w.casefold() for w in _WORD.findall(text)]
    kept = [w for w in words if w not in _STOP_WORDS and (len(w) > 1 or w.isdigit())]
    return " ".join(list(dict.fromkeys(kept))[:MAX_TERMS])


def lucene_fuzzy_query(text: str) -> str:
    """The text's words, lower-cased, each allowed Lucene's edit distance for its length (two
    from five letters, one from three), as an OR query; word characters only, as above."""
    words = list(dict.fromkeys(w.casefold() for w in _WORD.findall(text)))[:MAX_TERMS]
    return " ".join(w + ("~" if len(w) >= 5 else "~1" if len(w) >= 3 else "") for w in words)


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
