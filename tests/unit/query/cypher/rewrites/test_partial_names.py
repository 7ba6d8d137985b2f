"""Exact name matches become part matches; nothing else in the statement changes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.query.cypher.rewrites.partial_names import names_in_part


def test_an_exact_name_on_a_typed_node_is_matched_in_part_without_case() -> None:
    query = 'MATCH (s:Person {name: "Scrooge"})-[:RELATED]-(l:Location) RETURN count(l) AS n'
    assert names_in_part(query) == (
        'MATCH (s:Person WHERE toLower(s.name) CONTAINS toLower("Scrooge"))-[:RELATED]-'
        "(l:Location) RETURN count(l) AS n"
    )


def test_a_node_without_a_variable_gets_one_no_other_part_of_the_query_uses() -> None:
    query = "MATCH (:__Entity__:Person {name: 'Tiny Tim'})-[:RELATED]-(named_1) RETURN named_1"
    assert names_in_part(query) == (
        "MATCH (named_2:__Entity__:Person WHERE toLower(named_2.name) CONTAINS"
        " toLower('Tiny Tim'))-[:RELATED]-(named_1) RETURN named_1"
    )


def test_every_exact_name_is_rewritten_and_escaped_quotes_stay_in_their_literal() -> None:
    query = "MATCH (a {name: 'O\\'Hara'}), (b:Person {name: 'Belle'}) RETURN a, b"
    assert names_in_part(query) == (
        "MATCH (a WHERE toLower(a.name) CONTAINS toLower('O\\'Hara')),"
        " (b:Person WHERE toLower(b.name) CONTAINS toLower('Belle')) RETURN a, b"
    )


def test_other_maps_parameters_and_text_inside_literals_are_left_alone() -> None:
    for query in (
        "MATCH (p:Person {name: 'Fred', type: 'person'}) RETURN p.name",  # more than the name
        "MATCH (p:Person {name: $name}) RETURN p.name",  # a parameter, not a literal
        "MATCH (p:Person {name: __x}) RETURN p.name",  # an identifier, not a literal
        "MATCH (p) WHERE p.note = \"(q {name: 'X'})\" RETURN p",  # inside a literal
        "MATCH (p:Person)-[r:RELATED {name: 'x'}]-(q) RETURN q",  # a relationship's map
    ):
        assert names_in_part(query) == query


@given(st.text(max_size=60))
def test_a_statement_without_an_exact_name_map_never_changes(text: str) -> None:
    statement = text.replace("{", "").replace("name", "")
    assert names_in_part(statement) == statement


def test_a_name_compared_for_equality_is_matched_in_part_and_other_comparisons_stay() -> None:
    query = ('MATCH (a)-[:RELATED]-(b) WHERE b.name = "West Virginia" AND a.name = b.name'
             " AND a.name <= 'M' AND a.nickname = 'Wes' RETURN count(a) AS n")
    assert names_in_part(query) == (
        'MATCH (a)-[:RELATED]-(b) WHERE toLower(b.name) CONTAINS toLower("West Virginia")'
        " AND a.name = b.name AND a.name <= 'M' AND a.nickname = 'Wes' RETURN count(a) AS n"
    )
