"""The attack test: the `cypher` method of workspace alpha, whatever its model writes, reads
nothing of workspace beta (labels named, unlabelled scans, ids, procedures, other indexes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.query.cypher.guard import Checked, Refusal, check_plan
from graphrag_neo4j.query.cypher.schema import read_schema
from graphrag_neo4j.settings import Settings
from tests.integration.workspaces.workspace_pair import index_pair, workspace_rag

pytestmark = pytest.mark.integration

BETA_WORDS = ("Duckburg", "Donald", "Klondike", "dime")
ATTACKS = [
    "MATCH (e:__Entity____ws_beta) RETURN e.name, e.description",
    "MATCH (e:`__Entity____ws_beta`) RETURN e.description",
    "MATCH (n) WHERE n.name CONTAINS 'Scrooge' RETURN n.description",
    "MATCH (n) WHERE id(n) >= 0 RETURN n.text",
    "MATCH (n) WHERE elementId(n) STARTS WITH '4' RETURN n.text",
    "MATCH ()-[r]->() RETURN r.description",
    "MATCH ()-[r:RELATED__ws_beta]->() RETURN r.description",
    "MATCH (n:$('__Entity____ws_beta')) RETURN n.description",
    "MATCH (c:__Chunk__) RETURN c.text UNION MATCH (c:__Chunk____ws_beta) RETURN c.text",
    "MATCH (e:__Entity__) RETURN e.name, COLLECT { MATCH (x) RETURN x.text } AS leak",
    "MATCH (e:__Entity__) WHERE EXISTS { MATCH (x:__Chunk____ws_beta) } RETURN e.name",
    "MATCH (e:__Entity__) RETURN COUNT { MATCH (x:__Entity____ws_beta) } AS n",
    "MATCH (e:__Entity__) WITH e MATCH (x:__Entity____ws_beta {name: e.name})"
    " RETURN x.description",
    "MATCH (e:__Entity__|__Entity____ws_beta) RETURN e.description",
    "MATCH p = shortestPath((a:__Entity__)-[*]-(b:__Entity____ws_beta)) RETURN p",
    "MATCH (e:__Entity__) CALL (e) { MATCH (x) RETURN x LIMIT 1 } RETURN x.text",
    "MATCH (n) RETURN count(n) AS n",
    "CALL db.labels() YIELD label RETURN label",
    "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType",
    "CALL db.index.fulltext.queryNodes('chunk_fulltext__ws_beta', 'Scrooge') YIELD node"
    " RETURN node.text",
    "WITH 'chunk_fulltext__ws_beta' AS i CALL db.index.fulltext.queryNodes(i, 'Scrooge')"
    " YIELD node RETURN node.text",
    "CALL `db`.`index`.`fulltext`.`queryNodes`('chunk_fulltext__ws_beta', 'Scrooge') YIELD node"
    " RETURN node.text",
    "CALL db.index.fulltext.queryNodes('chunk_fulltext', 'Scrooge') YIELD node"
    " MATCH (x:__Chunk____ws_beta) RETURN x.text",
]
OWN = "MATCH (e:__Entity__ {name: 'Ebenezer Scrooge'})-[:RELATED]-(o) RETURN o.name AS name"


@pytest.fixture(scope="module")
def root(session_store: Store, settings: Settings,
         tmp_path_factory: pytest.TempPathFactory) -> Path:
    session_store.run_autocommit("database/delete_all")
    folder = tmp_path_factory.mktemp("guard")
    index_pair(settings, folder)
    return folder


@pytest.fixture(scope="module")
def alpha(settings: Settings, root: Path) -> Iterator[GraphRAG]:
    with workspace_rag(settings, root, "alpha") as rag:
        yield rag


@pytest.mark.parametrize("attack", ATTACKS)
def test_the_guard_refuses_every_read_outside_the_workspace(
    alpha: GraphRAG, settings: Settings, attack: str
) -> None:
    checked = check_plan(alpha.store, attack, settings.search.cypher.allowed_procedures)
    assert isinstance(checked, Refusal), attack


def test_a_query_inside_the_workspace_runs_and_reads_its_own(
    alpha: GraphRAG, settings: Settings
) -> None:
    checked = check_plan(alpha.store, OWN, settings.search.cypher.allowed_procedures)
    assert isinstance(checked, Checked)
    names = {row["name"] for row in alpha.store.read_generated(checked.statement, 5, 50)}
    assert "London" in names and not names & set(BETA_WORDS)


def test_the_model_is_shown_only_its_workspace_schema(alpha: GraphRAG) -> None:
    schema = read_schema(alpha.store, 3)
    assert "__ws_" not in schema.text and "(:__Entity__)" in schema.text
    assert not [word for word in BETA_WORDS if word in schema.text]


@pytest.mark.parametrize("attack", [ATTACKS[0], ATTACKS[2], ATTACKS[9], ATTACKS[19]])
def test_the_cypher_method_answers_nothing_of_the_other_workspace(
    settings: Settings, root: Path, attack: str
) -> None:
    llm = FakeChatModel(rules=[("Corrected Cypher:", attack),
                               ("read-only Cypher query for Neo4j 5", attack),
                               ("", "Scrooge.")])
    with workspace_rag(settings, root, "alpha", llm) as rag:
        answer = rag.query("What did Scrooge do in Duckburg?", "cypher")
    seen = answer.context + str(answer.sources)
    assert answer.sources["Cypher"][0]["status"] == "refused"
    assert not [word for word in BETA_WORDS if word in seen]


def test_the_default_workspace_beside_named_ones_is_held_to_its_labels(
    alpha: GraphRAG, session_store: Store, settings: Settings
) -> None:
    # alpha's fixture put two named workspaces beside the (empty) default one.
    assert session_store.shares_database()
    checked = check_plan(session_store, ATTACKS[2], settings.search.cypher.allowed_procedures)
    assert isinstance(checked, Refusal)
