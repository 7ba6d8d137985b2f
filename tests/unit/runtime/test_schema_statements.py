"""The schema file's statements are skipped exactly when they would change nothing."""

from __future__ import annotations

import re

from graphrag_neo4j.runtime.resources import load_cypher, split_statements, statements_to_run

SCHEMA = split_statements(load_cypher("database/schema"))


def _named(statement: str) -> str:
    found = re.search(r"(?:INDEX|CONSTRAINT) (\w+) IF", statement)
    assert found is not None, statement
    return found.group(1)


NAMES = [_named(statement) for statement in SCHEMA]


def test_on_an_empty_graph_every_create_runs_and_no_drop() -> None:
    kept = statements_to_run(SCHEMA, existing=set())
    assert kept == [s for s in SCHEMA if s.startswith("CREATE")]
    assert len(kept) == len(SCHEMA) - 1


def test_on_a_graph_with_the_whole_schema_nothing_runs() -> None:
    created = {name for name, s in zip(NAMES, SCHEMA, strict=True) if s.startswith("CREATE")}
    assert statements_to_run(SCHEMA, existing=created) == []


def test_a_missing_index_and_a_legacy_one_to_drop_are_the_only_statements_run() -> None:
    existing = set(NAMES) - {"community_embedding"}  # the legacy chunk index is among NAMES
    kept = statements_to_run(SCHEMA, existing)
    assert [n for n, s in zip(NAMES, SCHEMA, strict=True) if s in kept] == [
        "community_embedding", "chunk_text_fulltext"]


def test_a_statement_of_another_form_always_runs() -> None:
    other = "CALL db.awaitIndexes(300)"
    assert statements_to_run([other], existing={"anything"}) == [other]
