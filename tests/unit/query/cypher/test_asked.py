"""Questions that ask which thing or who are told from those that ask how many or what."""

from __future__ import annotations

import pytest

from graphrag_neo4j.query.cypher.asked import asks_for_names


@pytest.mark.parametrize("question", [
    "Which organization has the most relations?", "who links Fezziwig to Scrooge?",
    "In which documents does Marley appear?", "  To whom did Scrooge pay wages?",
    "Whose ghost visits first?",
])
def test_which_and_who_ask_for_names(question: str) -> None:
    assert asks_for_names(question)


@pytest.mark.parametrize("question", [
    "How many people are in the graph?", "What is the count of places?",
    "List the events.", "Is Whoville a place?", "Whichever comes first, how many?", "",
])
def test_counts_lists_and_other_questions_do_not(question: str) -> None:
    assert not asks_for_names(question)
