"""Coverage-aware selection of hops' passages, without I/O.

A multi-hop answer needs passages that cover different parts of the question: the passage about
the entity the question names, then the one about the bridge it leads to. Ranked one by one on
their own scores, the best passages are often several about the first hop. Picking them in turn,
each by its own score plus what it adds to those already picked (question words still uncovered,
an entity an already picked passage names), lets a complementary passage displace a redundant
one, as maximal marginal relevance does for diversity.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphrag_neo4j.query.hops.ranking import bridge_strength

_WORD = re.compile(r"\w+", flags=re.UNICODE)


@dataclass(frozen=True)
class Coverage:
    """What a candidate passage brings to a selection: the question words it holds and the
    entities it names that the question does not (id -> strength, rarer ones stronger)."""

    words: frozenset[str]
    entities: Mapping[str, float]


def words(text: str) -> frozenset[str]:
    """The text's words, lower-cased."""
    return frozenset(w.casefold() for w in _WORD.findall(text))


def question_word_weights(question: str, texts: Sequence[frozenset[str]]) -> dict[str, float]:
    """The question's words that some candidate holds, weighted by their rarity among the
    candidates (inverse document frequency), the weights summing to 1.

    Rarity among the candidates, not a list of words: a word every candidate holds ("the",
    or the question's main name the candidates were found by) covers nothing new; a word few
    hold ("president") is a part of the question most candidates leave out.
    """
    count = len(texts)
    raw: dict[str, float] = {}
    for word in sorted(words(question)):
        holding = sum(1 for text in texts if word in text)
        if holding:
            raw[word] = math.log((count + 1) / (holding + 1))
    total = sum(raw.values())
    return {word: weight / total for word, weight in raw.items()} if total > 0 else {}


def bridge_strengths(
    entities: Mapping[str, tuple[str, int]], question: str
) -> dict[str, float]:
    """Per entity id (name, passages naming it), 1/ln(2 + passages), leaving out the entities
    the question names: those are its first hop, not a bridge (as `bridge_evidence` does)."""
    asked = question.casefold()
    return {entity_id: bridge_strength(passages)
            for entity_id, (name, passages) in entities.items()
            if name.casefold() not in asked}


@dataclass(frozen=True)
class CoverageWeights:
    """How much a passage's contribution to the selection counts beside its own score."""

    words: float
    bridge: float

    @property
    def off(self) -> bool:
        """No bonus at all: the selection is the order by score."""
        return self.words == 0 and self.bridge == 0


def select_covering(
    order: Sequence[str],
    scores: Mapping[str, float],
    coverage: Mapping[str, Coverage],
    word_weights: Mapping[str, float],
    weights: CoverageWeights,
) -> list[str]:
    """The chunk ids of `order` with those that have a coverage picked greedily: the best by
    score first, then each time the best by score + `weights.words` x the weight of the
    question words it holds that no picked passage holds + `weights.bridge` x the strongest
    entity it shares with a picked passage. Chunks without a coverage keep their order after.

    The words' gain is the increase of a coverage function, so greedy picking is the usual
    approximation of the best set; a passage repeating the picked ones gains nothing and
    falls behind a complementary one. Ties keep the given order. With both weights at 0 the
    order is returned unchanged.
    """
    if weights.off:
        return list(order)
    pool = [chunk_id for chunk_id in order if chunk_id in coverage]
    rank = {chunk_id: position for position, chunk_id in enumerate(order)}
    picked: list[str] = []
    covered: set[str] = set()
    named: dict[str, float] = {}
    while pool:
        # The first pick is the best passage by its score, as in maximal marginal relevance:
        # before anything is picked, a bonus would only count the question's words again.
        best = max(pool, key=lambda chunk_id: (
            scores[chunk_id] + (
                _bonus(coverage[chunk_id], covered, named, word_weights, weights)
                if picked else 0.0),
            -rank[chunk_id],
        ))
        pool.remove(best)
        picked.append(best)
        covered.update(coverage[best].words)
        named.update(coverage[best].entities)
    chosen = set(picked)
    return picked + [chunk_id for chunk_id in order if chunk_id not in chosen]


def _bonus(
    found: Coverage, covered: set[str], named: Mapping[str, float],
    word_weights: Mapping[str, float], weights: CoverageWeights,
) -> float:
    """What a passage adds to the picked ones: the question words it alone holds, and the
    strongest entity it shares with them (a bridge the picked passages lead to)."""
    fresh = sum(word_weights.get(word, 0.0) for word in found.words - covered)
    shared = max((named[e] for e in found.entities if e in named), default=0.0)
    return weights.words * fresh + weights.bridge * shared
