"""The graph remembers which embedder made its vectors and refuses another one."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.runtime.errors import SchemaMismatchError
from graphrag_neo4j.settings import Settings


class OtherEmbeddings(FakeEmbeddings):
    """Another model of the same dimension: its vectors would not match the graph's."""

    def __init__(self) -> None:
        super().__init__()
        self.model_name = "another-model"


def test_another_embedder_of_the_same_dimension_is_refused(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tuned = settings.model_copy(update={"cache_dir": tmp_path})
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        rag.ensure_schema()
    (held,) = store.read("database/embedder/read_embedder")
    assert held == {"embedder": FakeEmbeddings().model_name, "dimension": 384}
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=OtherEmbeddings()) as rag, \
            pytest.raises(SchemaMismatchError, match="--reset-vectors"):
        rag.ensure_schema()
    store.reset_vectors()  # a new embedder: the record goes with the vectors
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=OtherEmbeddings()) as rag:
        rag.ensure_schema()
    assert store.read("database/embedder/read_embedder")[0]["embedder"] == "another-model"
