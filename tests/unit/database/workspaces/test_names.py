"""Workspace names: validated, and only the whitelisted labels, types and index names mapped."""

from __future__ import annotations

import re

import pytest

from graphrag_neo4j.database.workspaces.names import (
    INDEXES,
    LABELS,
    TYPES,
    Workspace,
    check_name,
    workspace_of,
)
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.runtime.resources import all_cypher_names, load_cypher


def test_names_are_letters_digits_and_single_underscores() -> None:
    assert check_name("acme_2") == "acme_2" and check_name("default") == check_name("") == ""
    for bad in ("2acme", "a b", "a__b", "a`b", "a-b", "x" * 33, "a_", "é", "a:b", "a)"):
        with pytest.raises(ConfigError, match="letters, digits and single underscores"):
            check_name(bad)


def test_the_default_workspace_runs_the_files_unchanged() -> None:
    for name in all_cypher_names():
        assert Workspace().map_cypher(load_cypher(name)) == load_cypher(name)


def test_a_named_workspace_maps_every_label_type_and_index_of_every_file() -> None:
    acme = Workspace("acme")
    for name in all_cypher_names():
        mapped = acme.map_cypher(load_cypher(name))
        for token in (*LABELS, *TYPES):
            assert not re.search(rf"(?<![A-Za-z0-9_]){token}(?![A-Za-z0-9_])", mapped), name
        for index in INDEXES:
            assert not re.search(rf"(INDEX|CONSTRAINT)\s+{index}\b", mapped), name
            assert f"('{index}'" not in mapped, name


def test_the_schema_and_a_workspaces_deletion_name_exactly_the_mapped_indexes() -> None:
    named = re.compile(r"(?:INDEX|CONSTRAINT)\s+(\w+)\s+IF")
    created = set(named.findall(load_cypher("database/schema")))
    dropped = set(named.findall(load_cypher("workspaces/drop_schema")))
    # The schema also drops an index older releases created; deleting a workspace drops it too.
    assert created == dropped == set(INDEXES)


def test_aliases_and_properties_that_share_an_index_name_stay() -> None:
    text = ("MATCH (c:__Chunk__ {id: chunk_id})-[:PART_OF]->(d:__Document__)\n"
            "CALL db.index.vector.queryNodes('chunk_embedding', 3, $v) YIELD node\n"
            "RETURN c.id AS chunk_id, d.entity_name AS entity_name")
    assert Workspace("acme").map_cypher(text) == (
        "MATCH (c:__Chunk____ws_acme {id: chunk_id})-[:PART_OF__ws_acme]->"
        "(d:__Document____ws_acme)\n"
        "CALL db.index.vector.queryNodes('chunk_embedding__ws_acme', 3, $v) YIELD node\n"
        "RETURN c.id AS chunk_id, d.entity_name AS entity_name")


def test_each_name_tells_its_workspace_and_back() -> None:
    acme = Workspace("acme")
    assert workspace_of(acme.token("__Entity__")) == "acme"
    assert workspace_of("__Entity__") == workspace_of("Person") == ""
    assert acme.canonical("RELATED__ws_acme") == "RELATED"
    assert acme.canonical("RELATED__ws_other") is None and acme.canonical("RELATED") is None
    assert Workspace().canonical("Person") == "Person"
    assert Workspace().canonical("__Entity____ws_acme") is None
    # A workspace's name cannot make another's: no double underscore inside a name.
    assert Workspace("a_ws_b").token("__Entity__") != Workspace("b").token("__Entity__")
