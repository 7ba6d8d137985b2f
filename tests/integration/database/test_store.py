"""The store: batched writes, read transactions, and one sentence when Neo4j is away."""

from __future__ import annotations

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.runtime.errors import Neo4jUnavailableError
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration


def test_ping_and_counts_on_an_empty_graph(store: Store) -> None:
    assert store.read("database/ping") == [{"ok": 1}]
    counts = store.read("database/count_graph")[0]
    assert counts == {"documents": 0, "chunks": 0, "entities": 0, "relations": 0, "communities": 0}


def test_unreachable_server_is_one_sentence(settings: Settings) -> None:
    closed_port = settings.neo4j.model_copy(update={"uri": "bolt://127.0.0.1:1"})
    with pytest.raises(Neo4jUnavailableError) as info:
        Store.connect(closed_port)
    message = str(info.value)
    assert "\n" not in message and message.endswith(".")
    assert "bolt://127.0.0.1:1" in message
    assert "graphrag-neo4j neo4j start" in message


def test_wrong_password_is_one_sentence(settings: Settings) -> None:
    from pydantic import SecretStr

    wrong = settings.neo4j.model_copy(update={"password": SecretStr("wrong-password")})
    with pytest.raises(Neo4jUnavailableError, match="refused user"):
        Store.connect(wrong)


def test_a_missing_statement_file_is_not_mistaken_for_an_unreachable_server(store: Store) -> None:
    for call in (lambda: store.read("no_such_statement"),
                 lambda: store.write_together([("database/ping", {}), ("no_such_statement", {})]),
                 lambda: store.run_autocommit("no_such_statement")):
        with pytest.raises(FileNotFoundError, match="no_such_statement"):
            call()
