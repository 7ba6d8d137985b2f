"""A model-written query's run, whose Neo4j transaction ends when its caller gives up on it."""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from typing import Protocol

from graphrag_neo4j.database.memory_refusal import OUT_OF_MEMORY
from graphrag_neo4j.query.context import Row
from graphrag_neo4j.settings import CypherSearchSettings

logger = logging.getLogger(__name__)
TERMINATE_EVERY_S = 0.2  # a transaction may begin just after the caller gave up: ask again


class TaggedReader(Protocol):
    """Runs a statement under a tag in its transaction's metadata, and ends it by that tag."""

    def read_generated(
        self, text: str, timeout_s: float, max_rows: int, tag: str = ""
    ) -> list[Row]: ...

    def terminate_generated(self, tag: str) -> int: ...


async def read_bounded(
    store: TaggedReader, statement: str, settings: CypherSearchSettings
) -> list[Row]:
    """The statement's rows within `settings.timeout_s` and `max_rows`; when the awaiting task
    is cancelled (an HTTP request timed out or its client left), its transaction is ended on
    the server, not left running in a thread until its own timeout."""
    tag = uuid.uuid4().hex
    finished = threading.Event()

    def read() -> list[Row]:
        try:
            return store.read_generated(statement, settings.timeout_s, settings.max_rows, tag)
        finally:
            finished.set()

    try:
        return await asyncio.to_thread(read)
    except asyncio.CancelledError:
        threading.Thread(target=_terminate, args=(store, tag, finished), daemon=True,
                         name="terminate-generated-query").start()
        raise


def _terminate(store: TaggedReader, tag: str, finished: threading.Event) -> None:
    """End the tagged transaction, asking until one is ended or the reading thread is done."""
    while not finished.is_set():
        try:
            if store.terminate_generated(tag):
                return
        except Exception:  # the reading thread ends by its own timeout anyway
            logger.warning("Could not end a cancelled generated query", exc_info=True)
            return
        finished.wait(TERMINATE_EVERY_S)


# Neo4j's codes for a query stopped by a budget, as one clause a person or the model can act on.
_SERVER_FAILED = "Neo.DatabaseError."
_TIMED_OUT = ("Neo.ClientError.Transaction.TransactionTimedOut",
              "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration")


def over_budget(code: str | None, settings: CypherSearchSettings) -> str | None:
    """Why the server stopped the query, when a budget did; None for any other error."""
    if code in OUT_OF_MEMORY:
        return ("it needs more memory than Neo4j gives one query (its heap and"
                " db.memory.transaction.max), so the server refused it; ask for less, e.g."
                " counts or a LIMIT instead of building large values")
    if code in _TIMED_OUT:
        return (f"it ran longer than the {settings.timeout_s:g} s search.cypher.timeout_s"
                " allows, so the server stopped it; ask for less")
    return None


def server_failure(code: str | None, message: str) -> str | None:
    """A sentence for an error inside the server (its message may be a bare number, e.g. an
    array size that overflowed); None for errors in the query itself."""
    if not (code or "").startswith(_SERVER_FAILED):
        return None
    return (f"the server failed while running it ({code}: {message}); ask for less, e.g."
            " counts or a LIMIT instead of building large values")
