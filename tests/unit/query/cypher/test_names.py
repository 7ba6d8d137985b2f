"""Unknown names from EXPLAIN warnings, and what a query naming them meets, without a server."""

from __future__ import annotations

import asyncio
from typing import Any

from graphrag_neo4j.database.workspaces.names import Workspace
from graphrag_neo4j.query.cypher.attempt import Attempt, attempt_query
from graphrag_neo4j.query.cypher.names import UnknownName, describe, unknown_names
from graphrag_neo4j.query.cypher.schema import schema_of
from graphrag_neo4j.query.cypher.writing import problem
from graphrag_neo4j.settings import CypherSearchSettings

GQL_LABEL = {"status": "01N50", "description": "warn: label does not exist. The label `Ghost`"
             " does not exist. Verify that the spelling is correct."}
GQL_TYPE = {"status": "01N51", "description": "warn: relationship type does not exist. The"
            " relationship type `LOCATED_IN` does not exist. Verify that the spelling is correct."}
OLD_PROPERTY = {"status": "01N42", "description": "One of the property names in your query is"
                " not available in the database, make sure you didn't misspell it or that the"
                " label is available when you run this statement in your application (the"
                " missing property name is: hat size)"}
OMITTED = {"status": "00001", "description": "note: successful completion - omitted result"}


def test_unknown_names_are_read_from_both_wordings_once_each() -> None:
    names = unknown_names([GQL_LABEL, OMITTED, GQL_TYPE, OLD_PROPERTY, GQL_LABEL])
    assert names == [UnknownName("label", "Ghost"), UnknownName("relationship type", "LOCATED_IN"),
                     UnknownName("property", "hat size")]
    assert describe(names) == ("the label :Ghost, the relationship type :LOCATED_IN and the"
                               " property hat size")
    assert unknown_names([OMITTED]) == []
    odd = {"description": "The label `Odd``Name` does not exist."}
    assert unknown_names([odd]) == [UnknownName("label", "Odd`Name")]


def _schema(predicates: list[dict[str, Any]] | None = None) -> Any:
    labels = [
        {"label": "__Entity__", "nodes": 9, "also": [], "properties": [
            {"key": "name", "samples": ["Scrooge"]}, {"key": "type", "samples": ["person"]}]},
        {"label": "Person", "nodes": 4, "also": ["__Entity__"], "properties": []},
        {"label": "Gone", "nodes": 0, "also": [], "properties": []},
    ]
    types = [{"type": "RELATED", "relationships": 5, "ends": [
        {"source": "__Entity__", "target": "__Entity__"}],
        "properties": [{"key": "predicate", "samples": ["visits"]}]}]
    return schema_of(labels, types, predicates or [])


def test_the_repair_is_told_the_unknown_names_and_the_names_that_exist() -> None:
    schema = _schema()
    assert (schema.labels, schema.types) == (["__Entity__", "Person"], ["RELATED"])
    assert schema.properties == ["name", "predicate", "type"]
    attempt = Attempt("MATCH (g:Ghost) RETURN g", "unknown", "it names ...",
                      unknown=[UnknownName("label", "Ghost")])
    text = problem(attempt, schema, None)
    assert text.startswith("it names what the graph does not have: the label :Ghost.")
    assert "- node labels: :__Entity__, :Person\n" in text and ":Gone" not in text
    assert "- relationship types: :RELATED\n" in text
    assert "- properties: name, predicate, type\n" in text
    assert "Instead of" not in text
    failed = Attempt("MATCH (", "failed", "Invalid input")
    assert problem(failed, schema, None) == "failed: Invalid input"


Plan = tuple[str, list[dict[str, Any]], list[dict[str, str]]]


def test_an_invented_relationship_type_is_turned_into_a_predicate_filter_where_they_tell() -> None:
    invented = Attempt("MATCH (a)-[:DIRECTED_BY]->(b) RETURN b", "unknown", "",
                       unknown=[UnknownName("relationship type", "DIRECTED_BY")])
    worded = [{"predicate": "directs", "relationships": 2},
              {"predicate": "stars", "relationships": 2}]
    told = problem(invented, _schema(worded), None)
    assert told.endswith("Instead of [:DIRECTED_BY] write [r:RELATED] with toLower(r.predicate)"
                         " CONTAINS 'directed by' (or a shorter key word of it).")
    cooccurs = [{"predicate": "co-occurs with", "relationships": 4},
                {"predicate": "stars", "relationships": 1}]
    assert problem(invented, _schema(cooccurs), None).endswith(
        "Instead of [:DIRECTED_BY] write [:RELATED], followed both ways.")


class _Store:
    """A plan with given operators and warnings; records whether anything ran."""

    workspace = Workspace()

    def __init__(self, operators: list[str], notices: list[dict[str, str]]) -> None:
        self.plan: Plan = ("r", [{"operator": name, "args": {"Details": "g:Ghost"},
                                  "leaf": name == operators[-1]} for name in operators], notices)
        self.ran: list[str] = []

    def explain_generated(self, text: str) -> Plan:
        return self.plan

    def shares_database(self) -> bool:
        return False

    def read_generated(
        self, text: str, timeout_s: float, max_rows: int, tag: str = ""
    ) -> list[dict[str, Any]]:
        self.ran.append(text)
        return [{"n": 0}]

    def terminate_generated(self, tag: str) -> int:
        return 0


def test_a_query_naming_what_the_graph_lacks_is_not_run() -> None:
    store = _Store(["ProduceResults", "NodeByLabelScan"], [GQL_LABEL])
    attempt = asyncio.run(attempt_query(store, "MATCH (g:Ghost) RETURN count(g) AS n",
                                        CypherSearchSettings()))
    assert (attempt.status, attempt.unknown, store.ran) == (
        "unknown", [UnknownName("label", "Ghost")], [])
    assert attempt.reason == "it names what the graph does not have: the label :Ghost"
    unchecked = CypherSearchSettings(check_names=False)
    ran = asyncio.run(attempt_query(store, "MATCH (g:Ghost) RETURN count(g) AS n", unchecked))
    assert ran.status == "ran" and ran.rows == [{"n": 0}] and len(store.ran) == 1


def test_a_write_is_refused_before_its_names_are_looked_at() -> None:
    store = _Store(["ProduceResults", "Create"], [GQL_LABEL])
    attempt = asyncio.run(attempt_query(store, "CREATE (:Ghost)", CypherSearchSettings()))
    assert attempt.status == "refused" and "Create" in attempt.reason and not store.ran
