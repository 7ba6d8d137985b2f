"""The workspace rule of the Cypher guard on plans given as rows: where every row starts."""

from __future__ import annotations

from graphrag_neo4j.database.workspaces.isolation import workspace_refusal
from graphrag_neo4j.database.workspaces.names import Workspace

ACME = Workspace("acme")


def _leaf(operator: str, details: str) -> list[dict[str, object]]:
    return [{"operator": "ProduceResults@neo4j", "args": {}, "leaf": False},
            {"operator": f"{operator}@neo4j", "args": {"Details": details}, "leaf": True}]


def test_leaves_at_the_workspace_labels_and_types_pass() -> None:
    for operator, details in (
        ("NodeByLabelScan", "e:__Entity____ws_acme"),
        ("NodeIndexSeek", "RANGE INDEX e:__Entity____ws_acme(name) WHERE name = $x"),
        ("DirectedRelationshipTypeScan", "(a)-[r:RELATED__ws_acme]->(b)"),
        ("NodeCountFromCountStore", "count( (:__Chunk____ws_acme) ) AS n"),
        ("Argument", "a"), ("Projection", "$x AS `1`"),
    ):
        assert workspace_refusal(ACME, "MATCH ...", _leaf(operator, details)) is None, operator


def test_unlabelled_foreign_and_default_leaves_are_refused() -> None:
    for operator, details in (
        ("AllNodesScan", "n"), ("NodeByIdSeek", "n WHERE id(n) = $x"),
        ("NodeByElementIdSeek", "n"), ("DirectedAllRelationshipsScan", "(a)-[r]->(b)"),
        ("NodeByLabelScan", "e:__Entity__"), ("NodeByLabelScan", "e:__Entity____ws_other"),
        ("UnionNodeByLabelsScan", "e:__Entity____ws_acme|__Entity____ws_other"),
        ("NodeCountFromCountStore", "count( () ) AS n"),
        ("NodeByLabelScan", "n:$all($autostring_0)"),
    ):
        assert workspace_refusal(ACME, "MATCH ...", _leaf(operator, details)), details
    # The default workspace owns the labels of no workspace (type labels), not a workspace's.
    assert workspace_refusal(Workspace(), "", _leaf("NodeByLabelScan", "p:Person")) is None
    assert workspace_refusal(Workspace(), "", _leaf("NodeByLabelScan", "e:__Entity____ws_acme"))


def test_procedures_name_the_workspace_index_as_a_literal_or_are_refused() -> None:
    call = [{"operator": "ProcedureCall@neo4j", "leaf": True,
             "args": {"Details": "db.index.fulltext.queryNodes($autostring_0, $x) :: (node)"}}]
    own = "CALL db.index.fulltext.queryNodes('chunk_fulltext', 'x') YIELD node RETURN node"
    assert workspace_refusal(ACME, own, call) is None
    for text in (own.replace("chunk_fulltext", "chunk_fulltext__ws_other"),
                 own.replace("'chunk_fulltext'", "i"),
                 "// queryNodes('chunk_fulltext', 'x')\n" + own.replace("'chunk_fulltext'", "i")):
        assert workspace_refusal(ACME, text, call), text
    listing = [{"operator": "ProcedureCall@neo4j", "leaf": True,
                "args": {"Details": "db.labels() :: (label :: STRING)"}}]
    assert workspace_refusal(Workspace(), "CALL db.labels()", listing)
