"""The index estimate without a server: it says so and assumes nothing is indexed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.costs.estimate import estimate_documents
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.testing import FakeEmbeddings, pipeline_fake_llm
from graphrag_neo4j.runtime.errors import Neo4jUnavailableError
from graphrag_neo4j.settings import Settings


def _unreachable() -> Store:
    raise Neo4jUnavailableError("Neo4j is not reachable at bolt://127.0.0.1:1.")


async def test_without_neo4j_everything_is_new_and_the_estimate_says_so(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path, llm={"prompt_price_per_1m": 1.0,
                                                 "completion_price_per_1m": 2.0})
    model = pipeline_fake_llm()
    llm = LLMCaller(model, settings.llm, tmp_path)
    embedder = EmbeddingCaller(FakeEmbeddings(), settings.embedding, tmp_path)
    documents = [Document(f"d{i}", f"d{i}", f"d{i}.txt",
                          f"Leonhard Euler wrote paper {i} in Basel.") for i in range(3)]
    estimate = await estimate_documents(documents, settings, _unreachable, llm, embedder)
    assert any("assumes nothing is indexed" in note for note in estimate.notes)
    assert estimate.facts["documents to index"] == 3
    extraction = estimate.stage("extraction")
    assert extraction.calls.low == extraction.calls.high == 3
    assert estimate.stage("gleaning").calls.exact  # one pass, always made
    assert estimate.stage("resolution").calls.low == 0  # depends on extraction
    # Without earlier runs: a report per new chunk at most, and each may be asked again once.
    reports, resolution = estimate.stage("community reports"), estimate.stage("resolution")
    assert reports.calls.high == 2 * resolution.calls.high == 6
    total = estimate.total()
    assert total.cost is not None and total.cost.high > 0
    assert model.calls == []  # no LLM called
    llm.close()
    embedder.close()


def _never_built() -> Any:
    raise AssertionError("the estimate built the chat model (the offline one downloads 1.1 GB)")


async def test_a_fast_estimate_never_builds_the_chat_model(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    llm = LLMCaller(LazyModel({"provider": "offline"}, _never_built), settings.llm, tmp_path)
    embedder = EmbeddingCaller(FakeEmbeddings(), settings.embedding, tmp_path)
    documents = [Document("d1", "d1", "d1.txt", "Leonhard Euler wrote a paper in Basel.")]
    estimate = await estimate_documents(documents, settings, _unreachable, llm, embedder,
                                        method="fast", reports=False)
    assert estimate.facts["model"] == "(none: this run calls no LLM)"
    assert estimate.facts["chunks to index"] == 1
    assert not llm.source.built
    llm.close()
    embedder.close()
