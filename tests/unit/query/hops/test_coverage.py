"""Coverage-aware selection of hops' passages: small hand-made cases."""

from __future__ import annotations

import math

import pytest

from graphrag_neo4j.query.hops.coverage import (
    Coverage,
    CoverageWeights,
    bridge_strengths,
    question_word_weights,
    select_covering,
    words,
)

QUESTION = "Who was the first president of the association which published the journal?"
# Two passages about the journal (the first hop), one about the association (the second).
TEXTS = {
    "journal": "The journal is published by the association.",
    "journal-again": "The journal was published first in 1991 by the association.",
    "president": "Hall was the first president of the association.",
}
ORDER = ["journal", "journal-again", "president"]
SCORES = {"journal": 0.80, "journal-again": 0.78, "president": 0.70}


def coverage(entities: dict[str, dict[str, float]] | None = None) -> dict[str, Coverage]:
    found = entities or {}
    return {chunk_id: Coverage(words(text), found.get(chunk_id, {}))
            for chunk_id, text in TEXTS.items()}


def weights_of_pool() -> dict[str, float]:
    return question_word_weights(QUESTION, [words(text) for text in TEXTS.values()])


def test_words_are_lower_cased_and_unique() -> None:
    assert words("The journal, the JOURNAL.") == {"the", "journal"}


def test_word_weights_favour_words_few_candidates_hold() -> None:
    weights = weights_of_pool()
    # Every candidate holds "the" and "association": they cover nothing; no candidate holds
    # "who": it is left out.
    assert weights["the"] == 0.0
    assert weights["association"] == 0.0
    assert "who" not in weights
    assert weights["president"] > weights["journal"] > 0
    assert math.isclose(sum(weights.values()), 1.0)


def test_word_weights_of_no_shared_word_are_empty() -> None:
    assert question_word_weights("Who?", [words("nothing here")]) == {}
    assert question_word_weights("Who?", []) == {}


@pytest.mark.parametrize("weights", [CoverageWeights(0.0, 0.0)])
def test_off_keeps_the_order(weights: CoverageWeights) -> None:
    assert weights.off
    assert select_covering(ORDER, SCORES, coverage(), weights_of_pool(), weights) == ORDER


def test_a_redundant_passage_is_displaced_by_a_complementary_one() -> None:
    chosen = select_covering(
        ORDER, SCORES, coverage(), weights_of_pool(), CoverageWeights(0.3, 0.0)
    )
    # The second journal passage adds "first" only; the president passage adds "president".
    assert chosen == ["journal", "president", "journal-again"]


def test_a_small_weight_keeps_the_order_when_scores_differ_more() -> None:
    chosen = select_covering(
        ORDER, SCORES, coverage(), weights_of_pool(), CoverageWeights(0.01, 0.0)
    )
    assert chosen == ORDER


def test_a_passage_naming_a_picked_passages_bridge_moves_up() -> None:
    texts = {"first": "the journal", "other": "the journal", "second": "the journal"}
    found = {"first": Coverage(words(texts["first"]), {"apa": 1.0}),
             "other": Coverage(words(texts["other"]), {}),
             "second": Coverage(words(texts["second"]), {"apa": 1.0})}
    scores = {"first": 0.9, "other": 0.8, "second": 0.7}
    order = ["first", "other", "second"]
    assert select_covering(order, scores, found, {}, CoverageWeights(0.0, 0.05)) == order
    assert select_covering(order, scores, found, {}, CoverageWeights(0.0, 0.2)) == [
        "first", "second", "other"]


def test_chunks_outside_the_pool_keep_their_place_after_it() -> None:
    order = [*ORDER, "later", "last"]
    scores = {**SCORES, "later": 0.9, "last": 0.1}  # "later" was not in the pool
    chosen = select_covering(order, scores, coverage(), weights_of_pool(), CoverageWeights(0.3, 0))
    assert chosen == ["journal", "president", "journal-again", "later", "last"]


def test_bridges_leave_out_the_entities_the_question_names() -> None:
    strengths = bridge_strengths(
        {"j": ("The Journal", 3), "a": ("APA", 3), "h": ("Hall", 1)}, "What published The journal?"
    )
    assert strengths == {"a": 1.0 / math.log(5), "h": 1.0 / math.log(3)}


def test_the_first_pick_is_the_best_by_score() -> None:
    # The president passage holds the rarer question words, but nothing is picked yet.
    chosen = select_covering(
        ORDER, SCORES, coverage(), weights_of_pool(), CoverageWeights(5.0, 5.0)
    )
    assert chosen[0] == "journal"
