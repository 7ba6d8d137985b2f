"""A node variable that spells a name of the question and is narrowed nowhere gets that name
as its filter; every other variable is left alone."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from graphrag_neo4j.query.cypher.rewrites.named_variables import filtered_named_variables


def test_a_variable_spelling_the_questions_name_is_filtered_on_it() -> None:
    query = ("MATCH (f:__Entity__)-[r:RELATED]-(robert_de_niro:__Entity__)"
             " RETURN count(DISTINCT f) AS films")
    assert filtered_named_variables(query, "How many films star Robert De Niro?") == (
        "MATCH (f:__Entity__)-[r:RELATED]-(robert_de_niro:__Entity__ WHERE"
        " toLower(robert_de_niro.name) CONTAINS 'robert de niro') RETURN count(DISTINCT f)"
        " AS films")


def test_only_the_first_pattern_of_a_variable_gets_the_filter() -> None:
    query = "MATCH (scrooge)-[:RELATED]-(p:Person), (scrooge)-[:RELATED]-(q) RETURN p.name"
    assert filtered_named_variables(query, "Who knows Scrooge?") == (
        "MATCH (scrooge WHERE toLower(scrooge.name) CONTAINS 'scrooge')-[:RELATED]-(p:Person),"
        " (scrooge)-[:RELATED]-(q) RETURN p.name")


@pytest.mark.parametrize(("query", "question"), [
    # narrowed already: a WHERE, a property map, a pattern WHERE
    ("MATCH (scrooge:Person)-[:RELATED]-(p) WHERE toLower(scrooge.name) CONTAINS 'eb'"
     " RETURN p.name", "Who knows Scrooge?"),
    ("MATCH (scrooge:Person {name: 'X'})-[:RELATED]-(p) RETURN p.name", "Who knows Scrooge?"),
    ("MATCH (scrooge WHERE scrooge.name = 'X')-[:RELATED]-(p) RETURN p.name",
     "Who knows Scrooge?"),
    # not a capitalised name of the question, or too short, or only its first word
    ("MATCH (films:__Entity__) RETURN count(films)", "How many films are there?"),
    ("MATCH (tim:Person) RETURN tim.name", "Who knows him?"),
    ("MATCH (ab:Person) RETURN ab.name", "Is AB here?"),
    ("MATCH (person:Person) RETURN person.name", "Person names, please?"),
    # the name only inside a literal of the query
    ("MATCH (p) WHERE p.note = '(scrooge)' RETURN p", "Who knows Scrooge?"),
])
def test_narrowed_or_unnamed_variables_are_left_alone(query: str, question: str) -> None:
    assert filtered_named_variables(query, question) == query


@given(st.text(max_size=80), st.text(max_size=40))
def test_without_a_capital_in_the_question_nothing_changes(query: str, question: str) -> None:
    assume(not any(char.isupper() for char in question))
    assert filtered_named_variables(query, question) == query
