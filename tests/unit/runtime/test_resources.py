"""Named Cypher and prompt files load by name; statement splitting keeps every statement."""

from __future__ import annotations

import pytest

from graphrag_neo4j.runtime.resources import (
    all_cypher_names,
    all_prompt_names,
    load_cypher,
    load_prompt,
    schema_changes,
    split_statements,
)


def test_schema_splits_into_its_statements() -> None:
    statements = split_statements(load_cypher("database/schema"))
    assert len(statements) == 21
    # Idempotent: creations only, and the drop of an index an older release created.
    assert all(s.startswith("CREATE") for s in statements[:-1])
    assert statements[-1] == "DROP INDEX chunk_text_fulltext IF EXISTS"
    assert sum("VECTOR INDEX" in s for s in statements) == 4


def test_every_cypher_file_has_a_comment_header() -> None:
    for name in all_cypher_names():
        assert load_cypher(name).startswith("//"), f"{name}.cypher lacks a purpose comment"


def test_names_are_validated() -> None:
    with pytest.raises(ValueError, match="invalid"):
        load_cypher("../etc/passwd")
    with pytest.raises(FileNotFoundError):
        load_cypher("no_such_statement")


@pytest.mark.parametrize("name", ["../etc/passwd", "/etc/passwd", "query//hops", "query/hops/",
                                  "query/./hops", "Query/hops", "query\\hops", "query/hops.txt"])
def test_only_lower_case_segments_joined_by_slashes_are_names(name: str) -> None:
    with pytest.raises(ValueError, match="invalid"):
        load_prompt(name)
    with pytest.raises(ValueError, match="invalid"):
        load_cypher(name)


def test_prompts_and_statements_sit_in_folders_and_load_by_their_path() -> None:
    assert "query/hops/follow_up" in all_prompt_names()
    assert "{question}" in load_prompt("query/hops/follow_up")
    assert all("/" in name for name in all_prompt_names())  # the root holds only folders
    assert all("/" in name for name in all_cypher_names())


def test_schema_changes_name_what_a_graph_lacks_or_holds_too_many_of() -> None:
    statements = [
        "CREATE INDEX chunk_title IF NOT EXISTS FOR (c:__Chunk__) ON (c.title)",
        "CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (c:__Chunk__) REQUIRE c.id IS UNIQUE",
        "DROP INDEX chunk_text_fulltext IF EXISTS",
    ]
    assert schema_changes(statements, {"chunk_id"}) == ["chunk_title"]
    assert schema_changes(statements, {"chunk_id", "chunk_title", "chunk_text_fulltext"}) == [
        "chunk_text_fulltext"]
    assert schema_changes(statements, {"chunk_id", "chunk_title"}) == []
