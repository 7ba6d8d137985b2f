"""A question names a title in its own words; among tied head passages, the named one leads."""

from __future__ import annotations

import pytest

from graphrag_neo4j.query.retrieval.titles import named_head, names_title, page_titles


@pytest.mark.parametrize(("question", "title"), [
    ("Which configuration variable must be set to enable git rerere?", "git-rerere(1)"),
    ("Where does the Merrimack River start?", "Merrimack River"),
    ("Who founded Paris?", "Paris (band)"),
    ("what is KRAUS house?", "Kraus House"),
])
def test_a_question_names_a_title(question: str, title: str) -> None:
    assert names_title(question, title)


@pytest.mark.parametrize(("question", "title"), [
    ("Is the comparison fair?", "Paris"),  # inside a word is not a name
    ("Where does the River Merrimack start?", "Merrimack River"),  # not in order
    ("What is it about?", "It"),  # too short to be told from a common word
    ("Anything at all?", ""),
    ("Anything at all?", "(1)"),
])
def test_a_question_does_not_name_a_title(question: str, title: str) -> None:
    assert not names_title(question, title)


def _row(chunk_id: str, title: str, score: float) -> dict[str, object]:
    return {"chunk_id": chunk_id, "title": title, "score": score}


QUESTION = "Which configuration variable enables git rerere?"


def test_the_named_passage_leads_among_those_tied_at_the_top() -> None:
    ranked = [_row("var", "git-var(1)", 0.8), _row("rerere", "git-rerere(1)", 0.8),
              _row("config", "git-config(1)", 0.7)]
    assert named_head(QUESTION, ranked) == ranked[1]


def test_the_first_passage_leads_otherwise() -> None:
    below = [_row("var", "git-var(1)", 0.8), _row("rerere", "git-rerere(1)", 0.7)]
    assert named_head(QUESTION, below) == below[0]  # the named passage is not tied
    twice = [_row("var", "git-var(1)", 0.8), _row("a", "rerere", 0.8), _row("b", "git rerere", 0.8)]
    assert named_head(QUESTION, twice) == twice[0]  # two named: no telling them apart
    assert named_head(QUESTION, []) is None


def test_a_name_leads_to_its_own_page_and_those_of_the_names_inside_it() -> None:
    assert page_titles(["Hiran region of Somalia"]) == [
        "Hiran", "Hiran region of Somalia", "Somalia"]
    # Runs of capitalised words only; shorter than four characters is no title.
    assert page_titles(["2000 Hong Kong action film", "Up"]) == [
        "2000 Hong Kong action film", "Hong", "Hong Kong", "Kong"]
    assert page_titles(["Éric Rohmer"]) == ["Rohmer", "Éric", "Éric Rohmer"]
    assert page_titles([]) == []
