"""An engine per workspace: its settings name the workspace, and it shares the models."""

from __future__ import annotations

import pytest

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import Settings


def test_a_workspace_engine_shares_the_call_paths_and_writes_no_type_labels() -> None:
    with GraphRAG(Settings(), llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        assert rag.settings.neo4j.workspace == "" and rag.settings.extraction.type_labels
        with rag.for_workspace("acme") as acme:
            assert acme.settings.neo4j.workspace == "acme"
            assert not acme.settings.extraction.type_labels
            assert acme.llm is rag.llm and acme.embedder is rag.embedder
        closed: list[str] = []
        rag.llm.close = lambda: closed.append("llm")  # type: ignore[method-assign]
        rag.for_workspace("beta").close()
        assert closed == []  # a workspace engine leaves the lender's models open
        with pytest.raises(ConfigError, match="not allowed"):
            rag.for_workspace("a b")
