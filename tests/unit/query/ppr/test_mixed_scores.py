"""A passage's final score: its visit probability and its similarity, each min-max scaled."""

from __future__ import annotations

import pytest

from graphrag_neo4j.query.ppr.ranking import mixed_scores

WALKED = {"hub": 0.30, "named": 0.10, "bridge": 0.20, "far": 0.0}
DENSE = {"named": 0.9, "hub": 0.6, "near": 0.5}


def test_the_passage_the_question_is_about_beats_one_that_only_shares_its_entities() -> None:
    scores = mixed_scores(WALKED, DENSE, dense_share=0.5)
    assert scores["named"] == pytest.approx(0.5 * 1 / 3 + 0.5 * 1.0)
    assert scores["hub"] == pytest.approx(0.5 * 1.0 + 0.5 * 0.25)
    assert max(scores, key=scores.__getitem__) == "named"


def test_a_passage_one_side_did_not_score_counts_zero_there() -> None:
    scores = mixed_scores(WALKED, DENSE, dense_share=0.5)
    assert scores["bridge"] == pytest.approx(0.5 * 2 / 3)  # reached by the walk only
    assert scores["near"] == pytest.approx(0.0)  # the last seeded passage, not walked
    assert set(scores) == {"hub", "named", "bridge", "far", "near"}


@pytest.mark.parametrize(("share", "best"), [(0.0, "hub"), (1.0, "named")])
def test_the_share_ends_at_the_walk_alone_and_the_similarity_alone(
    share: float, best: str
) -> None:
    scores = mixed_scores(WALKED, DENSE, dense_share=share)
    assert max(scores, key=scores.__getitem__) == best


def test_no_graph_keeps_the_similarity_order() -> None:
    scores = mixed_scores({}, DENSE, dense_share=0.5)
    assert sorted(scores, key=lambda c: -scores[c]) == ["named", "hub", "near"]
