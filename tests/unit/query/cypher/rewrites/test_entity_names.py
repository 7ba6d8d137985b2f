"""A property entities lack, returned from an entity, is read as its name; nothing else is."""

from __future__ import annotations

import pytest

from graphrag_neo4j.query.cypher.rewrites.entity_names import entity_names_read

LABELS = ("__Entity__", "Event", "Person")
PROPERTIES = ("degree", "description", "frequency", "id", "name", "type")


def test_a_returned_property_entities_lack_is_read_as_the_name() -> None:
    query = "MATCH (e:Event) RETURN e.title AS event ORDER BY e.frequency DESC LIMIT 50"
    assert entity_names_read(query, LABELS, PROPERTIES) == (
        "MATCH (e:Event) RETURN e.name AS event ORDER BY e.frequency DESC LIMIT 50")


def test_only_entities_in_the_last_return_are_rewritten() -> None:
    query = ("MATCH (f:__Entity__)-[:RELATED]-(c:__Chunk__) WHERE f.title = 'x'"
             " RETURN f.title AS film, c.title AS passage")
    assert entity_names_read(query, LABELS, PROPERTIES) == (
        "MATCH (f:__Entity__)-[:RELATED]-(c:__Chunk__) WHERE f.title = 'x'"
        " RETURN f.name AS film, c.title AS passage")


@pytest.mark.parametrize("query", [
    "MATCH (c:__Chunk__) RETURN c.title AS title",  # not an entity
    "MATCH (e:Event) RETURN e.description AS what",  # entities have it
    "MATCH (e:Event) RETURN 'e.title' AS literal",  # inside a literal
    "MATCH (e) RETURN e.title",  # no label says it is an entity
])
def test_other_properties_are_left_alone(query: str) -> None:
    assert entity_names_read(query, LABELS, PROPERTIES) is None


def test_entities_without_names_get_no_rewrite() -> None:
    query = "MATCH (e:Event) RETURN e.title AS event"
    assert entity_names_read(query, LABELS, ("id", "type")) is None
