"""Invented labels and relationship types become the graph's own, or the query is left alone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.query.cypher.names import UnknownName
from graphrag_neo4j.query.cypher.rewrites.known_names import key_word, with_known_names
from graphrag_neo4j.query.cypher.schema import GraphSchema

LABELS = ["__Entity__", "__Document__", "__Chunk__", "Person"]
TYPES = ["RELATED", "HAS_ENTITY", "PART_OF"]
TRIPLETS = GraphSchema(text="", labels=LABELS, types=TYPES, properties=["name"],
                       predicates_tell=True)
CO_OCCURRENCE = GraphSchema(text="", labels=LABELS, types=TYPES, properties=["name"])


def _label(name: str) -> UnknownName:
    return UnknownName("label", name)


def _type(name: str) -> UnknownName:
    return UnknownName("relationship type", name)


def test_an_invented_type_becomes_related_filtered_on_its_stemmed_word_without_its_arrow() -> None:
    query = ("MATCH (p:Person)-[r:STARRING]->(f:Film) WHERE toLower(p.name) CONTAINS 'de niro'"
             " RETURN count(DISTINCT f) AS films")
    assert with_known_names(query, [_type("STARRING"), _label("Film")], TRIPLETS) == (
        "MATCH (p:Person)-[r:RELATED WHERE toLower(r.predicate) CONTAINS 'star']-"
        "(f:__Entity__) WHERE toLower(p.name) CONTAINS 'de niro' RETURN count(DISTINCT f) AS films"
    )


def test_where_predicates_do_not_tell_an_invented_type_is_plain_related() -> None:
    query = "MATCH (a:Person)<-[:EMPLOYED]-(b:Person) RETURN b.name AS name"
    assert with_known_names(query, [_type("EMPLOYED")], CO_OCCURRENCE) == (
        "MATCH (a:Person)-[rel_1:RELATED]-(b:Person) RETURN b.name AS name"
    )


def test_names_spelled_otherwise_become_the_graphs_and_keep_their_arrows() -> None:
    query = ("MATCH (d:Document)<-[:PART_OF]-(:Chunk)-[:HAS_ENTITIES]->(e:__Entity__)"
             " RETURN d.title AS title")
    unknown = [_label("Document"), _label("Chunk"), _type("HAS_ENTITIES")]
    assert with_known_names(query, unknown, TRIPLETS) == (
        "MATCH (d:__Document__)<-[:PART_OF]-(:__Chunk__)-[:HAS_ENTITY]->(e:__Entity__)"
        " RETURN d.title AS title"
    )


def test_a_variable_length_invented_type_becomes_related_with_its_range() -> None:
    query = "MATCH p = shortestPath((a)-[:DIRECTED_BY*..5]-(b)) RETURN length(p) AS hops"
    assert with_known_names(query, [_type("DIRECTED_BY")], TRIPLETS) == (
        "MATCH p = shortestPath((a)-[:RELATED*..5]-(b)) RETURN length(p) AS hops"
    )


def test_a_query_is_left_alone_unless_every_unknown_name_can_be_replaced() -> None:
    for query, unknown in (
        # the label is the whole question: :__Entity__ would count every entity
        ("MATCH (g:Ghost) RETURN count(g) AS ghosts", [_label("Ghost")]),
        ("MATCH (a)-[:RELATED]-(b) WHERE b:Ghost RETURN count(b) AS n", [_label("Ghost")]),
        # properties are the LLM repair's to replace
        ("MATCH (p:Person)-[:HAUNTS]-(q) WHERE p.hat > 1 RETURN q.name",
         [_type("HAUNTS"), UnknownName("property", "hat")]),
    ):
        assert with_known_names(query, unknown, TRIPLETS) == query


def test_names_inside_literals_are_never_touched() -> None:
    query = "MATCH (f:Film)-[:STARS]-(a) WHERE f.note = '(x:Film)-[:STARS]->' RETURN a.name"
    assert with_known_names(query, [_label("Film"), _type("STARS")], TRIPLETS) == (
        "MATCH (f:__Entity__)-[rel_1:RELATED WHERE toLower(rel_1.predicate) CONTAINS 'star']-(a)"
        " WHERE f.note = '(x:Film)-[:STARS]->' RETURN a.name"
    )


def test_the_key_word_is_the_longest_word_stemmed_and_none_for_small_words() -> None:
    assert [key_word(name) for name in ("DIRECTED_BY", "LOCATED_IN", "actedIn", "IS_A")] == [
        "direct", "locat", "act", ""]


@given(st.text(max_size=80))
def test_a_statement_with_no_unknown_names_never_changes(text: str) -> None:
    assert with_known_names(text, [], TRIPLETS) == text


def test_inside_a_shortest_path_an_invented_type_gets_no_inline_filter() -> None:
    query = "MATCH p = shortestPath((a)-[:DIRECTED_BY]->(b)) RETURN length(p) AS hops"
    assert with_known_names(query, [_type("DIRECTED_BY")], TRIPLETS) == (
        "MATCH p = shortestPath((a)-[rel_1:RELATED]-(b)) RETURN length(p) AS hops"
    )
