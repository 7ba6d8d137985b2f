"""Misspelt names in a generated query are written the graph's way, and nothing else changes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.lucene import fuzzy_query
from graphrag_neo4j.query.cypher.rewrites.spelling import closest_spelling, respelt, written_names


def test_the_names_a_query_compares_with_entity_names_are_found_once_each() -> None:
    query = ("MATCH (a:Person {name: 'Robert De Niore'})-[r:RELATED]-(f) WHERE"
             " toLower(f.name) CONTAINS toLower(\"o'hara\") AND toLower(r.predicate) CONTAINS"
             " 'star' AND a.name = 'Robert De Niore' AND f.title = 'Heat' RETURN count(f)")
    assert written_names(query) == ["Robert De Niore", "o'hara"]


def test_a_misspelt_name_takes_the_graphs_spelling_in_the_case_it_was_written() -> None:
    names = ["Robert De Niro", "Robert Redford", "Niro"]
    assert closest_spelling("Robert De Niore", names) == "Robert De Niro"
    assert closest_spelling("robert de niore", names) == "robert de niro"
    assert closest_spelling("ROBERT DE NIORE", names) == "ROBERT DE NIRO"


def test_a_name_the_graph_has_or_nothing_alike_enough_is_left_alone() -> None:
    assert closest_spelling("robert de niro", ["Robert De Niro", "Robert De Nira"]) is None
    assert closest_spelling("Tom Hanks", ["Tom Hardy", "Tim Hanson"]) is None
    assert closest_spelling("Scrooge", []) is None


def test_respelling_keeps_quotes_escapes_and_every_other_literal() -> None:
    query = ("MATCH (a {name: \"Robert De Niore\"})-[r]-(b) WHERE toLower(b.name) CONTAINS"
             " toLower('o hara') AND r.predicate = 'o hara' RETURN b")
    assert respelt(query, {"Robert De Niore": "Robert De Niro", "o hara": "o'hara"}) == (
        "MATCH (a {name: \"Robert De Niro\"})-[r]-(b) WHERE toLower(b.name) CONTAINS"
        " toLower('o\\'hara') AND r.predicate = 'o hara' RETURN b")


@given(st.text(max_size=60))
def test_a_statement_is_unchanged_when_no_spelling_applies(text: str) -> None:
    assert respelt(text, {}) == text


def test_the_fuzzy_query_is_words_only_with_edits_by_length() -> None:
    assert fuzzy_query('Robert "De" Niore AND x~2') == "robert~ de niore~ and~1 x 2"
