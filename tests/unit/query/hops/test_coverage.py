"""Coverage-aware selection of hops' passages: small hand-made cases."""

from __future__ import annotations

import math

from graphrag_neo4j.query.hops.coverage import bridge_strengths, select_covering

# Two passages about the journal (the first hop), one about the association it names (the
# second hop): the first and the last share the association, a bridge.
ORDER = ["journal", "journal-again", "president"]
SCORES = {"journal": 0.80, "journal-again": 0.78, "president": 0.70}
BRIDGES = {"journal": {"apa": 1.0}, "journal-again": {}, "president": {"apa": 1.0}}


def test_weight_zero_keeps_the_order() -> None:
    assert select_covering(ORDER, SCORES, BRIDGES, 0.0) == ORDER


def test_a_passage_naming_a_picked_passages_bridge_moves_up() -> None:
    assert select_covering(ORDER, SCORES, BRIDGES, 0.2) == ["journal", "president", "journal-again"]


def test_a_small_weight_keeps_the_order_when_scores_differ_more() -> None:
    assert select_covering(ORDER, SCORES, BRIDGES, 0.05) == ORDER


def test_the_rarest_shared_entity_counts() -> None:
    bridges = {"journal": {"apa": 0.2, "hall": 1.0}, "journal-again": {"apa": 0.2},
               "president": {"hall": 1.0}}
    # Sharing the common "apa" lifts journal-again by 0.03 to 0.81; sharing the rare "hall"
    # lifts the president passage by 0.15 to 0.85, past it.
    assert select_covering(ORDER, SCORES, bridges, 0.15) == [
        "journal", "president", "journal-again"]


def test_chunks_outside_the_pool_keep_their_place_after_it() -> None:
    order = [*ORDER, "later", "last"]
    scores = {**SCORES, "later": 0.9, "last": 0.1}  # "later" was not in the pool
    assert select_covering(order, scores, BRIDGES, 0.2) == [
        "journal", "president", "journal-again", "later", "last"]


def test_the_first_pick_is_the_best_by_score() -> None:
    # The president passage shares the bridge, but nothing is picked yet to share it with.
    assert select_covering(ORDER, SCORES, BRIDGES, 5.0)[0] == "journal"


def test_a_passage_sharing_nothing_gains_nothing() -> None:
    bridges = {"journal": {"apa": 1.0}, "journal-again": {}, "president": {"other": 1.0}}
    assert select_covering(ORDER, SCORES, bridges, 5.0) == ORDER


def test_bridges_leave_out_the_entities_the_question_names() -> None:
    strengths = bridge_strengths(
        {"j": ("The Journal", 3), "a": ("APA", 3), "h": ("Hall", 1)}, "What published The journal?"
    )
    assert strengths == {"a": 1.0 / math.log(5), "h": 1.0 / math.log(3)}
