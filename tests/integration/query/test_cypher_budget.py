"""A model-written query's memory and time budget on the real server: refused, stopped, ended."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.runner import serving_in_thread
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.cypher.attempt import attempt_query
from graphrag_neo4j.settings import CypherSearchSettings, ServerSettings

pytestmark = pytest.mark.integration

# Triples a string 19 times: 1.2 G characters with the 0.8 G and 0.4 G ones before it held, more
# than the test server's 2 GB heap, yet under Java's largest array (doubling to 2^31 sometimes
# overflowed the array size instead); Neo4j does not track values built inside one expression,
# so only the JVM can stop it.
HEAP_BOMB = "WITH reduce(s = 'x', i IN range(1, 19) | s + s + s) AS s RETURN size(s) AS n"
# Row by row, so the server checks its time and termination between rows: runs for minutes.
SLOW = "UNWIND range(1, 4000000000) AS i WITH i WHERE i = -7 RETURN count(*) AS never"
# Collects more than one query may hold (db.memory.transaction.max, a quarter of the heap).
SHOW_TRANSACTIONS = "SHOW TRANSACTIONS YIELD currentQuery AS query, status RETURN query, status"
COLLECT_ALL = "UNWIND range(1, 400000000) AS i WITH collect(i) AS kept RETURN size(kept) AS n"
# The memory tests are about memory: on busy cores collecting a quarter of the heap took longer
# than the default 10 s, and the server's timeout stopped the query before its memory cap did.
NO_TIME_LIMIT = CypherSearchSettings(timeout_s=600)


def _running(store: Store, text: str) -> list[str]:
    """Statuses of the transactions running `text` (the query filters itself out)."""
    rows = store.read_generated(SHOW_TRANSACTIONS, timeout_s=10, max_rows=1000)
    return [str(row["status"]) for row in rows if row["query"] == text]


def test_a_query_building_a_huge_value_fails_alone_and_the_server_stays_up(store: Store) -> None:
    attempt = asyncio.run(attempt_query(store, HEAP_BOMB, NO_TIME_LIMIT))
    assert attempt.status == "failed"
    assert "more memory than Neo4j gives one query" in attempt.reason
    assert store.read("database/count_graph")  # still answering
    again = asyncio.run(attempt_query(store, "RETURN 1 AS one", CypherSearchSettings()))
    assert again.rows == [{"one": 1}]


def test_a_query_collecting_past_its_share_of_the_heap_is_refused(store: Store) -> None:
    attempt = asyncio.run(attempt_query(store, COLLECT_ALL, NO_TIME_LIMIT))
    assert attempt.status == "failed"
    assert "db.memory.transaction.max" in attempt.reason


def test_a_query_past_its_time_is_stopped_by_the_server(store: Store) -> None:
    settings = CypherSearchSettings(timeout_s=1)
    started = time.monotonic()
    attempt = asyncio.run(attempt_query(store, SLOW, settings))
    assert attempt.status == "failed"
    assert "longer than the 1 s search.cypher.timeout_s allows" in attempt.reason
    assert time.monotonic() - started < 30
    assert _running(store, SLOW) == []


def test_a_query_whose_caller_gives_up_is_ended_on_the_server(store: Store) -> None:
    """An HTTP request that times out (504) or whose client leaves cancels its task: the
    transaction must end then, not at its own timeout (a minute here) or never."""
    settings = CypherSearchSettings(timeout_s=60)

    async def give_up() -> list[str]:
        task = asyncio.create_task(attempt_query(store, SLOW, settings))
        for _ in range(100):  # until the server runs it
            await asyncio.sleep(0.1)
            if await asyncio.to_thread(_running, store, SLOW):
                break
        assert await asyncio.to_thread(_running, store, SLOW) == ["Running"]
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        deadline = time.monotonic() + 10
        while await asyncio.to_thread(_running, store, SLOW) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        # Checked before asyncio.run returns: it waits for the reading thread to finish.
        return await asyncio.to_thread(_running, store, SLOW)

    assert asyncio.run(give_up()) == []


def test_a_504_ends_the_generated_query_on_the_server(served_rag: GraphRAG) -> None:
    """The HTTP request timing out cancels its task; the transaction goes with it, well before
    its own timeout (search.cypher.timeout_s, 10 s)."""
    rules = served_rag.llm.chat_model.rules  # type: ignore[attr-defined]
    rules.insert(0, ("read-only Cypher query for Neo4j 5", SLOW))
    store = served_rag.store
    try:
        with serving_in_thread(create_app(served_rag, ServerSettings(request_timeout_s=2))) \
                as url:
            body = {"question": "How many ways are there?", "method": "cypher"}
            stopped = httpx.post(f"{url}/v1/query", json=body, timeout=30)
            ended_at = time.monotonic()
            while _running(store, SLOW) and time.monotonic() - ended_at < 5:
                time.sleep(0.2)
            left = _running(store, SLOW)
    finally:
        rules.pop(0)
    assert stopped.status_code == 504
    assert left == []
