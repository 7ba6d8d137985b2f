"""EM and token F1 with the SQuAD v1.1 normalisation, checked on SQuAD's own examples."""

from __future__ import annotations

import pytest

from graphrag_neo4j.evaluation.scores import (
    best_scores,
    exact_match,
    is_right,
    normalize_answer,
    token_f1,
)


@pytest.mark.parametrize(("text", "normalised"), [
    ("The Denver Broncos!", "denver broncos"),
    ("Levi's Stadium", "levis stadium"),
    ("  an   apple, a pear and THE plum. ", "apple pear and plum"),
    ("Theatre", "theatre"),  # an article inside a word stays
])
def test_normalisation_is_squads(text: str, normalised: str) -> None:
    assert normalize_answer(text) == normalised


def test_squad_examples() -> None:
    # SQuAD v1.1 dev, "Where did Super Bowl 50 take place?": gold has 11 tokens after
    # normalisation, the prediction 3, all shared -> P = 1, R = 3/11, F1 = 6/14.
    gold = "Levi's Stadium in the San Francisco Bay Area at Santa Clara, California."
    assert token_f1("Santa Clara, California", gold) == pytest.approx(6 / 14)
    assert exact_match("Santa Clara, California", gold) == 0.0
    assert exact_match("the Denver Broncos", "Denver Broncos") == 1.0
    assert token_f1("Denver Broncos", "Denver Broncos") == 1.0
    assert token_f1("Carolina Panthers", "Denver Broncos") == 0.0
    # Repeated tokens count once per occurrence in both (SQuAD's Counter intersection).
    assert token_f1("the the cat", "cat cat") == pytest.approx(2 * 0.5 * 1 / 1.5)


def test_best_of_answer_and_aliases_without_citations() -> None:
    em, f1 = best_scores("Stanley Hall [Data: Sources (1, 2)].", ["G. Stanley Hall",
                                                                  "Stanley Hall"])
    assert (em, f1) == (1.0, 1.0)
    assert best_scores("Norway", []) == (0.0, 0.0)
    em, f1 = best_scores("He was a citizen of Norway and later Sweden", ["Norway"])
    assert em == 0.0 and 0 < f1 < 0.5


@pytest.mark.parametrize(("answer", "golds"), [
    ("Norway.", ["Norway"]),
    ("in Norway", ["Norway"]),
    ("Stanley Hall [Data: Sources (1, 2)]", ["G. Stanley Hall", "Stanley Hall"]),
    ("Leyton, East London", ["Leyton"]),                       # a third of it is the gold
    ("Mozart's Eine kleine Nachtmusik", ["Eine kleine Nachtmusik"]),
    ("Boeing B-29 Superfortress bomber", ["Boeing B - 29 Superfortress bomber"]),
])
def test_an_answer_holding_the_gold_with_little_else_is_right(answer: str,
                                                               golds: list[str]) -> None:
    assert is_right(answer, golds)


HALF_NAMES = [  # each shares half its tokens with the gold (F1 >= 0.5) and is still wrong
    ("Neil Young", ["Astrid Young"]),
    ("McDowell County", ["Avery County"]),
    ("7 am", ["3 a.m.", "3 A.M."]),
    ("District", ["Lunenburg Municipal District", "Lunenburg"]),
    ("James River", ["North Canadian River", "Oklahoma River"]),
]


@pytest.mark.parametrize(("answer", "golds"), HALF_NAMES)
def test_an_answer_sharing_half_the_gold_is_wrong(answer: str, golds: list[str]) -> None:
    assert best_scores(answer, golds)[1] >= 0.5
    assert not is_right(answer, golds)


@pytest.mark.parametrize("answer", ["He was a citizen of Norway and later Sweden", "", "Sweden"])
def test_an_answer_burying_or_missing_the_gold_is_wrong(answer: str) -> None:
    assert not is_right(answer, ["Norway"])


@pytest.mark.parametrize("answer", ["3:00 AM", "3am", "at 3 a.m. [Data: Sources (1)]"])
def test_a_clock_time_in_another_spelling_is_right(answer: str) -> None:
    # No exact match (SQuAD reads "3:00 AM" as "300 am"), and with punctuation as a break
    # "3 a.m." is the words "3 m" ("a" is an article) unless times share one spelling.
    assert best_scores(answer, ["3 a.m."])[0] == 0.0
    assert is_right(answer, ["3 a.m."])


@pytest.mark.parametrize(("answer", "gold"), [
    ("3 pm", "3 a.m."), ("3:30 am", "3 a.m."), ("13 amps", "13 a.m."), ("3 American", "3 am"),
])
def test_other_times_and_words_after_numbers_are_not_that_time(answer: str, gold: str) -> None:
    assert not is_right(answer, [gold])
