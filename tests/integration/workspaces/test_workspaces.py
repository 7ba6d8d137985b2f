"""Two workspaces in one Neo4j, both with a Scrooge: each sees, changes and deletes only its own."""

from __future__ import annotations

from collections.abc import Awaitable, Iterator
from pathlib import Path

import pytest

from graphrag_neo4j.api.mcp.graph_lookup import search_entities
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.database.workspaces.catalog import delete_workspace, list_workspaces
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.evaluation.retrieval import ranker_for
from graphrag_neo4j.query.registry import method_names
from graphrag_neo4j.settings import Settings
from tests.integration.workspaces.workspace_pair import NAMED, OWN_WORD, index_pair, workspace_rag

pytestmark = pytest.mark.integration

@pytest.fixture(scope="module")
def rags(
    session_store: Store, settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, GraphRAG]]:
    """The default workspace empty, alpha and beta each indexed from its own carol.txt."""
    session_store.run_autocommit("database/delete_all")
    root = tmp_path_factory.mktemp("workspaces")
    index_pair(settings, root)
    engines = {name: workspace_rag(settings, root, name) for name in NAMED}
    yield engines
    for rag in engines.values():
        rag.close()


async def _awaited(ranking: Awaitable[list[str]]) -> list[str]:
    return await ranking


def _other(name: str) -> str:
    return NAMED[1 - NAMED.index(name)]


@pytest.mark.parametrize("name", NAMED)
def test_each_workspace_holds_only_its_documents_and_entities(
    rags: dict[str, GraphRAG], name: str
) -> None:
    rag = rags[name]
    counts = rag.counts()
    assert counts["documents"] == 1 and counts["entities"] >= 3 and counts["communities"] >= 1
    entities = {r["name"]: r for r in rag.store.read("indexing/entities/list_entities", skip=0,
                                                     limit=100)}
    assert "Ebenezer Scrooge" in entities
    assert OWN_WORD[_other(name)] not in entities and OWN_WORD[name] in entities
    (document,) = rag.store.read("indexing/documents/list_documents", skip=0, limit=9)
    assert OWN_WORD[name] in str(document) or document["source"].endswith("carol.txt")
    merges = rag.merges()
    assert [m["into_name"] for m in merges] == ["Ebenezer Scrooge"]


@pytest.mark.parametrize("name", NAMED)
@pytest.mark.parametrize("method", [m for m in method_names() if m != "cypher"])
def test_every_query_method_retrieves_only_its_workspace(
    rags: dict[str, GraphRAG], name: str, method: str
) -> None:
    answer = rags[name].retrieve("Where did Scrooge live and whom did he pay?", method)
    text = answer.context + str(answer.sources)
    assert "Scrooge" in text
    assert OWN_WORD[_other(name)] not in text


@pytest.mark.parametrize("name", NAMED)
def test_retrieval_evaluation_ranks_only_its_workspace_documents(
    rags: dict[str, GraphRAG], name: str
) -> None:
    own = {
        r["id"] for r in rags[name].store.read("indexing/documents/list_documents", skip=0, limit=9)
    }
    for method in ("naive", "local", "hops"):
        ranker = ranker_for(rags[name], method, {})
        assert not isinstance(ranker, str)
        ranked = rags[name].run(_awaited(ranker("Where did Scrooge live?", 5)))
        assert ranked and set(ranked) <= own, method


def test_the_default_workspace_sees_neither(rags: dict[str, GraphRAG], settings: Settings,
                                            tmp_path: Path) -> None:
    with workspace_rag(settings, tmp_path, "") as rag:
        rag.ensure_schema()
        assert not any(rag.counts().values())
        assert "Scrooge" not in rag.retrieve("Who is Scrooge?", "naive").context
        listed = {w.label: w.counts for w in list_workspaces(rag.store)}
    assert {"default", "alpha", "beta"} <= set(listed)  # others may keep an empty schema
    assert listed["alpha"]["documents"] == listed["beta"]["documents"] == 1
    assert listed["default"]["documents"] == 0


@pytest.mark.parametrize("name", NAMED)
def test_the_mcp_lookups_find_only_the_workspace_entities(
    rags: dict[str, GraphRAG], name: str
) -> None:
    found = rags[name].run(search_entities(rags[name], OWN_WORD[_other(name)], 10))
    assert not [row for row in found if OWN_WORD[_other(name)] in str(row)]
    own = rags[name].run(search_entities(rags[name], OWN_WORD[name], 10))
    assert [row for row in own if OWN_WORD[name] in str(row)]


def test_unmerge_and_delete_stay_in_their_workspace(
    rags: dict[str, GraphRAG], settings: Settings, tmp_path: Path
) -> None:
    alpha, beta = rags["alpha"], rags["beta"]
    before = beta.counts()
    beta_names = {r["name"] for r in beta.store.read("indexing/entities/list_entities", skip=0,
                                                     limit=100)}
    (merge,) = alpha.merges()
    assert alpha.unmerge(merge["id"]).restored_name == "Scrooge"
    assert not any(m["undone_at"] for m in beta.merges() if "undone_at" in m)
    (document,) = alpha.store.read("indexing/documents/list_documents", skip=0, limit=9)
    alpha.delete(document["id"])
    assert alpha.counts()["documents"] == 0 and alpha.counts()["entities"] == 0
    assert beta.counts() == before
    assert {r["name"] for r in beta.store.read("indexing/entities/list_entities", skip=0,
                                               limit=100)} == beta_names
    # A whole workspace goes with its schema; twice is a no-op; the other stays.
    held = delete_workspace(alpha.store)
    assert delete_workspace(alpha.store) == dict.fromkeys(held, 0)
    assert not alpha.store.schema_names()
    assert beta.counts() == before
    listed = {w.label for w in list_workspaces(beta.store)}
    assert "beta" in listed and "alpha" not in listed

