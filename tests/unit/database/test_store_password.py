"""With no password configured and none generated, connecting is one sentence, no login try."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.runtime.errors import Neo4jUnavailableError
from graphrag_neo4j.settings import Neo4jSettings


def test_no_password_anywhere_names_both_fixes(tmp_path: Path) -> None:
    settings = Neo4jSettings(home=tmp_path)  # no password, no generated one in home
    with pytest.raises(Neo4jUnavailableError) as failure:
        Store.connect(settings)  # the network is off: a login attempt would fail otherwise
    message = str(failure.value)
    assert message.startswith("No Neo4j password is set for bolt://127.0.0.1:7687")
    assert "GRAPHRAG_NEO4J__PASSWORD" in message and "`graphrag-neo4j neo4j start`" in message
