"""How a server's error on a generated query becomes the reason the model and the user read."""

from __future__ import annotations

from graphrag_neo4j.query.cypher.bounded_read import over_budget, server_failure
from graphrag_neo4j.settings import CypherSearchSettings


def test_an_error_inside_the_server_becomes_a_sentence_naming_its_code() -> None:
    reason = server_failure("Neo.DatabaseError.Statement.ExecutionFailed", "-2147483648")
    assert reason is not None
    assert reason.startswith("the server failed while running it")
    assert "Neo.DatabaseError.Statement.ExecutionFailed: -2147483648" in reason


def test_an_error_in_the_query_itself_keeps_the_servers_own_words() -> None:
    assert server_failure("Neo.ClientError.Statement.SyntaxError", "Invalid input") is None
    assert server_failure(None, "connection reset") is None


def test_budgets_are_named_with_the_setting_that_bounds_them() -> None:
    settings = CypherSearchSettings(timeout_s=3)
    timed_out = over_budget("Neo.ClientError.Transaction.TransactionTimedOut", settings)
    assert timed_out is not None and "3 s search.cypher.timeout_s" in timed_out
    memory = over_budget("Neo.TransientError.General.MemoryPoolOutOfMemoryError", settings)
    assert memory is not None and "db.memory.transaction.max" in memory
    assert over_budget("Neo.ClientError.Statement.SyntaxError", settings) is None
