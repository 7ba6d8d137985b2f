"""Hops without I/O: the notebook's expansion as breadth-first steps, and passage orders."""

from __future__ import annotations

import math

import pytest

from graphrag_neo4j.query.hops.ranking import (
    Bridge,
    blend_passages,
    bridge_evidence,
    expand_entities,
    passages_after_rerank,
    relation_evidence,
    shown_to_reranker,
)
from graphrag_neo4j.query.hops.rerank import Candidate

# a - b - c - d - e, and b - x
EDGES = {("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("b", "x")}


async def neighbours(ids: list[str]) -> set[str]:
    found = set()
    for left, right in EDGES:
        if left in ids:
            found.add(right)
        if right in ids:
            found.add(left)
    return found


@pytest.mark.parametrize(
    ("entities", "endpoints", "degree", "expected"),
    [
        ({"a"}, set(), 1, {"a", "b"}),
        ({"a"}, set(), 2, {"a", "b", "c", "x"}),
        (set(), {"d", "e"}, 1, {"d", "e"}),
        (set(), {"d", "e"}, 2, {"c", "d", "e"}),
        ({"a"}, {"d", "e"}, 2, {"a", "b", "c", "x", "d", "e"}),
        (set(), set(), 2, set()),
    ],
)
async def test_expansion_matches_the_notebook_matrices(
    entities: set[str], endpoints: set[str], degree: int, expected: set[str]
) -> None:
    # Matched entity: relations of entities `degree` steps away (entity_adj^d @ incidence);
    # matched relation: relations sharing an entity `degree - 1` steps on (relation_adj^d).
    assert await expand_entities(neighbours, entities, endpoints, degree) == expected


async def test_expansion_refuses_degree_zero() -> None:
    with pytest.raises(ValueError, match=r"search\.hops\.degree"):
        await expand_entities(neighbours, {"a"}, set(), 0)


def rel(name: str, score: float, *chunks: str) -> Candidate:
    return Candidate(name, name, "p", "o", tuple(chunks), score)


def test_evidence_is_the_best_relation_per_chunk() -> None:
    evidence = relation_evidence([rel("r1", 0.4, "c1", "c2"), rel("r2", 0.9, "c2")])
    assert evidence == {"c1": 0.4, "c2": 0.9}


def test_blend_adds_weighted_relation_evidence_to_passage_similarity() -> None:
    scores = {"near": 0.6, "bridge": 0.5, "far": 0.1}
    evidence = {"bridge": 0.8, "far": 0.2}
    assert blend_passages(scores, [(evidence, 0.0)]) == ["near", "bridge", "far"]
    assert blend_passages(scores, [(evidence, 0.75)]) == ["bridge", "near", "far"]


def test_blend_sums_every_kind_of_evidence_with_its_own_weight() -> None:
    scores = {"near": 0.6, "fact": 0.5, "bridged": 0.45}
    relations = {"fact": 0.2}
    bridges = {"bridged": 0.5}
    assert blend_passages(scores, [(relations, 1.0), (bridges, 0.0)]) == ["fact", "near", "bridged"]
    assert blend_passages(scores, [(relations, 0.0), (bridges, 0.4)]) == ["bridged", "near", "fact"]


def test_a_bridge_is_an_entity_the_question_does_not_name_and_rarer_weighs_more() -> None:
    bridges = [
        Bridge("Journal of Psychotherapy Integration", 1, ("c-journal",)),  # the first hop
        Bridge("American Psychological Association", 2, ("c-journal", "c-apa")),
        Bridge("United States", 40, ("c-apa", "c-usa")),
    ]
    evidence = bridge_evidence(
        bridges, "Who led the association that publishes the journal of psychotherapy integration?"
    )
    apa, usa = 1 / math.log(4), 1 / math.log(42)
    assert evidence == {"c-journal": apa, "c-apa": apa, "c-usa": usa}


def test_the_page_about_a_bridge_weighs_as_a_bridge_named_once_however_common() -> None:
    bridges = [Bridge("Somalia", 40, ("c-town", "c-somalia-2", "c-news"))]
    pages = [Bridge("Somalia", 1, ("c-somalia-1", "c-somalia-2")),
             Bridge("Ceelmakoile", 1, ("c-town",))]  # the question names it: its first hop
    evidence = bridge_evidence(bridges + pages, "Who led the country Ceelmakoile is in?")
    common, page = 1 / math.log(42), 1 / math.log(3)
    assert evidence == {"c-town": common, "c-news": common,
                        "c-somalia-1": page, "c-somalia-2": page}


def test_rerank_order_comes_first_then_the_fallback() -> None:
    chosen = [rel("r1", 0.2, "c9", "c3"), rel("r2", 0.3, "c3")]
    fallback = ["c1", "c3", "c2", "c9"]
    assert passages_after_rerank(chosen, fallback, keep=0, most=9) == (
        ["c3", "c9", "c1", "c2"], ["c3", "c9"])
    assert passages_after_rerank([], fallback, keep=0, most=9) == (fallback, [])


def test_a_fact_of_many_passages_places_at_most_the_facts_it_may_choose() -> None:
    cooccurrence = rel("r1", 0.2, *[f"c{n}" for n in range(9, 0, -1)])
    fallback = [f"c{n}" for n in range(10)]
    order, placed = passages_after_rerank([cooccurrence], fallback, keep=0, most=2)
    assert placed == ["c1", "c2"] and order == ["c1", "c2", "c0", *fallback[3:]]


def test_the_rerank_never_moves_the_passages_it_keeps() -> None:
    chosen = [rel("r1", 0.2, "c9", "c7"), rel("r2", 0.3, "c2", "c4")]
    fallback = ["c1", "c2", "c3", "c4", "c7", "c9"]
    # c2 is kept already; r1's passages come first, by their fallback rank, then r2's c4.
    assert passages_after_rerank(chosen, fallback, keep=2, most=2) == (
        ["c1", "c2", "c7", "c9", "c3", "c4"], ["c7", "c9"])
    # Keeping more passages than there are keeps the order whole.
    assert passages_after_rerank(chosen, fallback, keep=9, most=2) == (fallback, [])


def test_reranker_sees_at_most_two_facts_of_one_passage() -> None:
    candidates = [rel("a1", 0.9, "c1"), rel("a2", 0.8, "c1"), rel("a3", 0.7, "c1"),
                  rel("b1", 0.6, "c2"), rel("ab", 0.5, "c1", "c2"), rel("c1", 0.4, "c3")]
    shown = shown_to_reranker(candidates, limit=4, per_passage=2)
    assert [c.id for c in shown] == ["a1", "a2", "b1", "ab"]
