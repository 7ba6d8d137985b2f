"""Closing an engine leaves no Bolt connection open, whichever methods it ran."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from neo4j import Driver, GraphDatabase

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.evaluation.retrieval import EvalQuestion, evaluate_method, ranker_for
from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.query.registry import method_names
from graphrag_neo4j.settings import Settings
from tests.api_fakes import NO_ROWS_CYPHER
from tests.integration.communities.test_drift_search import follow_up, primer
from tests.integration.communities.test_global_search import fake_report
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

pytestmark = pytest.mark.integration
QUESTION = "What did Daniel Bernoulli study?"
# The server drops a closed socket's connection from its list a moment later.
SETTLE_S = 10.0


def bolt_connections(counter: Driver) -> int:
    """Bolt connections the server holds now, from every client (the counter's own included)."""
    records, _, _ = counter.execute_query(
        "CALL dbms.listConnections() YIELD connector WHERE connector = 'bolt' RETURN count(*) AS n"
    )
    return int(records[0]["n"])


def settled_connections(counter: Driver, expected: int) -> int:
    """The connection count once it reaches `expected`, or the last one seen after a while."""
    deadline = time.monotonic() + SETTLE_S
    count = bolt_connections(counter)
    while count != expected and time.monotonic() < deadline:
        time.sleep(0.2)
        count = bolt_connections(counter)
    return count


def test_closing_the_engine_closes_every_connection_its_methods_opened(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> None:
    dataset = load_nano(nano_root)
    write_nano_passages(dataset, tmp_path / "docs")
    llm = nano_fake_llm(dataset, extra=[
        ("briefing reports on communities", fake_report),
        ("You start a search through a collection", primer),
        ("answering one follow-up", follow_up),
        ("Corrected Cypher:", NO_ROWS_CYPHER),
        ("read-only Cypher query for Neo4j 5", NO_ROWS_CYPHER),
    ])
    auth = (settings.neo4j.user, settings.neo4j.secret())
    with GraphDatabase.driver(settings.neo4j.uri, auth=auth) as counter:
        before = bolt_connections(counter)
        rag = GraphRAG(settings.model_copy(update={"cache_dir": tmp_path / "cache"}),
                       llm=llm, embeddings=FakeEmbeddings())
        rag.index([tmp_path / "docs"])
        rag.build_communities()
        for name in method_names():
            answer = rag.retrieve(QUESTION, name, hops_rerank=False, community_level=0)
            assert answer.context, name
        questions = [EvalQuestion("q", QUESTION, ["nano_dataset-3"])]
        for name in ("local", "naive"):
            ranker = ranker_for(rag, name, {"hops_rerank": False})
            assert not isinstance(ranker, str)
            result = asyncio.run(evaluate_method(name, ranker, questions, [2]))
            assert len(result.seconds) == 1
        assert bolt_connections(counter) > before  # the count sees the engine's connections
        rag.close()
        assert settled_connections(counter, before) == before
