"""A count of one node's own rows becomes the count the graph keeps on it, chosen by what the
column (or else the question) asks for; any other count is left alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.query.cypher.rewrites.kept_counts import kept_count
from graphrag_neo4j.query.cypher.schema import ENTITY_COUNTS

EACH_ONCE = ("MATCH (l:Location) RETURN l.name AS place, count(*) AS {column}"
             " ORDER BY {column} DESC LIMIT 5")


@pytest.mark.parametrize(("column", "key"), [("mentions", "frequency"),
                                             ("relations", "degree"),
                                             ("mentioned_in_passages", "frequency")])
def test_the_column_name_chooses_the_kept_count(column: str, key: str) -> None:
    query = EACH_ONCE.format(column=column)
    assert kept_count(query, ENTITY_COUNTS, "Which place is first?") == (
        f"MATCH (l:Location) RETURN l.name AS place, l.{key} AS {column}"
        f" ORDER BY {column} DESC LIMIT 5")


@pytest.mark.parametrize(("question", "key"), [
    ("Which location is mentioned most often?", "frequency"),
    ("Which organization has the most relations?", "degree"),
    ("Which place do the most passages name?", "frequency"),
])
def test_a_column_that_says_nothing_leaves_the_choice_to_the_question(
    question: str, key: str
) -> None:
    query = "MATCH (o:Organization) RETURN o.name, count(o) ORDER BY count(o) DESC LIMIT 1"
    assert kept_count(query, ENTITY_COUNTS, question) == (
        f"MATCH (o:Organization) RETURN o.name, o.{key} ORDER BY o.{key} DESC LIMIT 1")


@pytest.mark.parametrize("query", [
    # a relationship's rows per node are a real count
    "MATCH (o:Organization)-[:RELATED]-(x) RETURN o.name, count(*) AS mentions",
    "MATCH (o:Organization)--(x) RETURN o.name, count(x) AS mentions",
    # two nodes, or a count of another variable
    "MATCH (o:Organization), (p:Person) RETURN o.name, count(p) AS mentions",
    "MATCH (o:Organization) RETURN o.name AS mentions",
    # the nodes counted, not each node's rows: no grouping by the node
    "MATCH (o:Organization) RETURN count(o) AS mentions",
    "MATCH (o:Organization) WHERE o.frequency > 1 RETURN count(*) AS mentions",
    "MATCH (o:Organization) WITH o.type AS kind RETURN kind, count(*) AS mentions",
    # nothing says which kept count, or both are asked for
    "MATCH (o:Organization) RETURN o.name, count(*) AS total",
    "MATCH (o:Organization) RETURN o.name, count(*) AS mentions_and_relations",
])
def test_other_counts_and_unclear_asks_are_left_alone(query: str) -> None:
    assert kept_count(query, ENTITY_COUNTS, "Which organization is the biggest?") is None


def test_a_column_named_after_a_kept_count_chooses_it() -> None:
    query = "MATCH (p:Person) RETURN p.name, count(*) AS degree ORDER BY degree DESC LIMIT 1"
    assert kept_count(query, ENTITY_COUNTS, "Who is it?") == (
        "MATCH (p:Person) RETURN p.name, p.degree AS degree ORDER BY degree DESC LIMIT 1")


def test_a_kept_count_the_graph_lacks_is_never_chosen() -> None:
    query = EACH_ONCE.format(column="mentions")
    assert kept_count(query, {"degree": ENTITY_COUNTS["degree"]}, "most mentioned?") is None


def test_text_inside_literals_is_never_read_as_a_count() -> None:
    query = "MATCH (l:Location) WHERE l.note = 'count(*) AS mentions' RETURN l.name"
    assert kept_count(query, ENTITY_COUNTS, "Which place is mentioned most?") is None


@given(st.text(alphabet=st.characters(blacklist_characters="("), max_size=60))
def test_a_statement_without_a_count_is_left_alone(text: str) -> None:
    assert kept_count(text, ENTITY_COUNTS, "Which place is mentioned most?") is None
