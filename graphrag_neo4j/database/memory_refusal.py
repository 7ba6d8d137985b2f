"""Neo4j's refusal of a statement that needs more memory than one transaction may hold, as
one sentence, without the driver retrying it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from graphrag_neo4j.runtime.errors import ServerLimitError

if TYPE_CHECKING:  # the driver is imported once, by store.py, with its dataframe imports hidden
    from neo4j import ManagedTransaction

# The codes of a transaction stopped by a memory budget (db.memory.transaction.max, the heap).
OUT_OF_MEMORY = ("Neo.TransientError.General.OutOfMemoryError",
                 "Neo.TransientError.General.MemoryPoolOutOfMemoryError")

Result = TypeVar("Result")


def over_memory(exc: Exception) -> bool:
    """Whether the server stopped the statement for the memory it needed (a Neo4jError's
    code; read by name so this module does not import the driver)."""
    return getattr(exc, "code", None) in OUT_OF_MEMORY


def refusing_over_memory(
    name: str, work: Callable[[ManagedTransaction], Result]
) -> Callable[[ManagedTransaction], Result]:
    """`work`, raising one sentence when the server refuses it for memory; the driver
    retries transient errors for half a minute, and the same statement would fail again."""

    def guarded(tx: ManagedTransaction) -> Result:
        try:
            return work(tx)
        except Exception as exc:
            if not over_memory(exc):
                raise
            raise ServerLimitError(
                f"Neo4j refused statement {name!r}: it needs more memory than one transaction"
                " may hold (a quarter of the heap); raise neo4j.heap (GRAPHRAG_NEO4J__HEAP) and"
                " restart Neo4j, or lower the search setting that widens this read."
            ) from exc

    return guarded
