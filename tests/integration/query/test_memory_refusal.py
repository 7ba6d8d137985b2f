"""A statement Neo4j refuses for its per-transaction memory: one sentence, no half-minute of
driver retries."""

from __future__ import annotations

import time

import neo4j
import pytest
from neo4j import ManagedTransaction

from graphrag_neo4j.database.memory_refusal import refusing_over_memory
from graphrag_neo4j.runtime.errors import ServerLimitError
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration

# Collects more than db.memory.transaction.max (a quarter of the heap) lets one query hold.
COLLECT_ALL = "UNWIND range(1, 400000000) AS i WITH collect(i) AS kept RETURN size(kept) AS n"


def _collect_all(tx: ManagedTransaction) -> list[dict[str, object]]:
    return tx.run(COLLECT_ALL).data()


def test_a_read_over_the_memory_limit_is_one_sentence_and_not_retried(settings: Settings) -> None:
    assert settings.neo4j.password is not None  # the test command sets it
    auth = (settings.neo4j.user, settings.neo4j.password.get_secret_value())
    with (neo4j.GraphDatabase.driver(settings.neo4j.uri, auth=auth) as driver,
          driver.session() as session):
        started = time.monotonic()
        with pytest.raises(ServerLimitError) as refused:
            session.execute_read(refusing_over_memory("collect_everything", _collect_all))
        took = time.monotonic() - started
    assert "Neo4j refused statement 'collect_everything'" in str(refused.value)
    assert "GRAPHRAG_NEO4J__HEAP" in str(refused.value)
    # The driver retries transient errors for 30 s; one refusal takes a few seconds at most.
    assert took < 20
