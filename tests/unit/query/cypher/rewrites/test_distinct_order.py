"""A refused `RETURN DISTINCT ... ORDER BY v.key` runs as the ranking it meant."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.query.cypher.rewrites.distinct_order import ranked_distinct


def test_an_order_by_a_dropped_variable_becomes_a_ranking_by_its_best_value() -> None:
    query = ("MATCH (e:__Entity__)-[r:RELATED]-(p:Person) WHERE toLower(e.name) CONTAINS"
             " 'marley' RETURN DISTINCT p.name AS name ORDER BY r.weight DESC LIMIT 20")
    assert ranked_distinct(query) == (
        "MATCH (e:__Entity__)-[r:RELATED]-(p:Person) WHERE toLower(e.name) CONTAINS 'marley'"
        " RETURN p.name AS name, max(r.weight) AS ranked_by ORDER BY ranked_by DESC LIMIT 20")


def test_an_ascending_order_keeps_the_least_value_and_items_with_commas_stay_whole() -> None:
    query = ("MATCH (f)-[:RELATED]-(d) RETURN DISTINCT f.name AS film, coalesce(f.type, 'a,b')"
             " AS type ORDER BY d.weight")
    assert ranked_distinct(query) == (
        "MATCH (f)-[:RELATED]-(d) RETURN f.name AS film, coalesce(f.type, 'a,b') AS type,"
        " min(d.weight) AS ranked_by ORDER BY ranked_by ASC")


def test_orders_the_server_accepts_are_left_alone() -> None:
    accepted = [
        "MATCH (p:Person) RETURN DISTINCT p.name AS name ORDER BY p.name",
        "MATCH (p:Person) RETURN DISTINCT p ORDER BY p.frequency DESC LIMIT 5",
        "MATCH (p:Person)-[r]-() RETURN DISTINCT p.name, r.weight ORDER BY r.weight",
        "MATCH (p:Person) RETURN p.name AS name ORDER BY p.frequency DESC",
        "MATCH (p:Person) RETURN DISTINCT p.name AS name ORDER BY name",
        "MATCH (p) WHERE p.name = 'RETURN DISTINCT x ORDER BY r.weight' RETURN p.name",
        "CALL { MATCH (p)-[r]-() RETURN DISTINCT p.name AS n } RETURN n ORDER BY r.weight",
        "MATCH (p) RETURN DISTINCT p.name AS n UNION MATCH (q) RETURN q.name AS n"
        " ORDER BY q.weight",
    ]
    for query in accepted:
        assert ranked_distinct(query) == query


@given(st.text(max_size=80))
def test_any_text_either_stays_or_gains_the_ranking_column(text: str) -> None:
    rewritten = ranked_distinct(text)
    assert rewritten == text or " AS ranked_by ORDER BY ranked_by " in rewritten
