"""Arrows on RELATED patterns are dropped; everything else in the statement is kept."""

from __future__ import annotations

import pytest

from graphrag_neo4j.query.cypher.rewrites.direction import undirected_related


@pytest.mark.parametrize(
    ("written", "run"),
    [
        ("MATCH (s:Person)-[r:RELATED]->(l:Location) RETURN l.name",
         "MATCH (s:Person)-[r:RELATED]-(l:Location) RETURN l.name"),
        ("MATCH (a)<-[:RELATED]-(b) RETURN b", "MATCH (a)-[:RELATED]-(b) RETURN b"),
        ("MATCH p = shortestPath((a)-[:RELATED*..4]->(b)) RETURN p",
         "MATCH p = shortestPath((a)-[:RELATED*..4]-(b)) RETURN p"),
        ("MATCH (a)-[r:RELATED {predicate: 'x->y'}]->(b) RETURN b",
         "MATCH (a)-[r:RELATED {predicate: 'x->y'}]-(b) RETURN b"),
        ("MATCH (a)<-[:RELATED]-(m)-[:RELATED]->(b) RETURN m",
         "MATCH (a)-[:RELATED]-(m)-[:RELATED]-(b) RETURN m"),
        ("MATCH (a)-[:KNOWS|RELATED]->(b) RETURN b", "MATCH (a)-[:KNOWS|RELATED]-(b) RETURN b"),
    ],
)
def test_arrows_on_related_are_dropped(written: str, run: str) -> None:
    assert undirected_related(written) == run


@pytest.mark.parametrize(
    "kept",
    [
        "MATCH (d:__Document__)<-[:PART_OF]-(c:__Chunk__)-[:HAS_ENTITY]->(e) RETURN d.title",
        "MATCH (a)-[:RELATED_TO]->(b) RETURN b",
        "MATCH (a)-[r]->(b) RETURN b",
        "MATCH (a) WHERE a.name = '(x)-[:RELATED]->(y)' RETURN a",
        "MATCH (a)-[:RELATED]-(b) RETURN b",
    ],
)
def test_other_patterns_and_literals_are_kept(kept: str) -> None:
    assert undirected_related(kept) == kept
