"""Integration fixtures: the real Neo4j started by the test command, emptied before each test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.runner import serving_in_thread
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import Settings, load_settings
from tests.api_fakes import index_nano, nano_engine
from tests.conftest import FIXTURES

# The test command sets this after starting a server with its own data folder and ports,
# so the tests can never wipe a user's graph.
TEST_SERVER_FLAG = "GRAPHRAG_TEST_NEO4J"


@pytest.fixture(scope="session")
def settings() -> Settings:
    """Settings of the test server, from the environment the test command exported."""
    if os.environ.get(TEST_SERVER_FLAG) != "1":
        pytest.fail(
            f"{TEST_SERVER_FLAG}=1 is not set: run integration tests through the README test"
            " command (scripts/test.sh), which starts a dedicated Neo4j."
        )
    return load_settings()


@pytest.fixture(scope="session")
def session_store(settings: Settings) -> Iterator[Store]:
    """One connection for the whole run; failing to connect fails the run, never skips it."""
    store = Store.connect(settings.neo4j)
    yield store
    store.close()


@pytest.fixture
def store(session_store: Store) -> Store:
    """The test server with an empty graph."""
    session_store.run_autocommit("database/delete_all")
    return session_store


@pytest.fixture(scope="module")
def served_rag(
    session_store: Store, settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GraphRAG]:
    """An engine with fake models over the nano graph (indexed once per test module)."""
    session_store.run_autocommit("database/delete_all")
    root = tmp_path_factory.mktemp("served")
    with nano_engine(settings, FIXTURES, root / "cache") as rag:
        index_nano(rag, FIXTURES, root / "docs")
        yield rag


@pytest.fixture(scope="module")
def api_url(served_rag: GraphRAG) -> Iterator[str]:
    """The HTTP API over `served_rag` (no key, default limits) on a free loopback port."""
    with serving_in_thread(create_app(served_rag)) as url:
        yield url
