"""A document longer than a batch is indexed in pieces: one chain of chunks, marked once whole."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing import indexer
from graphrag_neo4j.indexing.input.batching import plan_batches
from graphrag_neo4j.indexing.run.batch_failure import BatchFailedError
from graphrag_neo4j.indexing.stages import registry
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.integration.indexing.failing_stage import fail_after_writes

pytestmark = pytest.mark.integration

SENTENCE = "Alice Smith met Carol Jones in Paris and wrote to Dan Brown in Rome. "


def test_a_long_document_split_across_batches_is_chained_and_marked_whole(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chunking = settings.chunking.model_copy(update={"size": 60, "overlap": 10})
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "chunking": chunking,
                                        "extraction": extraction})
    (tmp_path / "long.txt").write_text(SENTENCE * 40, encoding="utf-8")
    batches: list[int] = []

    def two_chunks_a_batch(*args, **kwargs):  # type: ignore[no-untyped-def]
        plans = list(functools.partial(plan_batches, max_chunks=2)(*args, **kwargs))
        batches.append(len(plans))
        return plans

    monkeypatch.setattr(indexer, "plan_batches", two_chunks_a_batch)
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        stats, _ = rag.index([tmp_path / "long.txt"], method="fast")
    chunks = stats.chunks
    assert chunks > 4 and batches == [-(-chunks // 2)]  # it really was split
    chain = store.read("indexing/documents/list_documents", skip=0, limit=9)
    assert len(chain) == 1 and stats.documents == 1
    rows = store.read("bench/entity_names")
    assert {"Alice Smith", "Carol Jones"} <= {row["name"] for row in rows}
    # One unbroken NEXT_CHUNK chain, across the batch boundaries too.
    assert store.read("bench/ingest/ingest_fingerprint")[0]["next_chunk"] == chunks - 1
    marked = store.read("indexing/documents/find_indexed_documents", ids=[chain[0]["id"]])
    assert marked[0]["complete"]  # marked indexed once its last piece was written


def _tuned(settings: Settings, cache: Path) -> Settings:
    chunking = settings.chunking.model_copy(update={"size": 60, "overlap": 10})
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    return settings.model_copy(update={"cache_dir": cache, "chunking": chunking,
                                       "extraction": extraction})


def _fingerprint(store: Store) -> tuple[dict[str, Any], dict[str, int]]:
    entities = store.read("indexing/entities/list_entities", skip=0, limit=1000)
    return store.read("bench/ingest/ingest_fingerprint")[0], {
        e["name"]: e["frequency"] for e in entities
    }


@pytest.mark.parametrize("rolled_back", [True, False], ids=["rolled-back", "killed"])
def test_a_long_document_stopped_midway_resumes_after_its_whole_batches(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    rolled_back: bool,
) -> None:
    tuned = _tuned(settings, tmp_path / "cache")
    (tmp_path / "long.txt").write_text(SENTENCE * 40, encoding="utf-8")
    starts: list[int] = []

    def two_chunks_a_batch(*args, **kwargs):  # type: ignore[no-untyped-def]
        plans = list(functools.partial(plan_batches, max_chunks=2)(*args, **kwargs))
        starts.append(next(iter(plans[0].chunks.values()))[0].chunk_index)
        return plans

    monkeypatch.setattr(indexer, "plan_batches", two_chunks_a_batch)
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        clean_stats, _ = rag.index([tmp_path / "long.txt"], method="fast")
        clean = _fingerprint(store)
        rag.delete(store.read("indexing/documents/list_documents", skip=0, limit=9)[0]["id"])
    assert clean_stats.chunks > 6 and _fingerprint(store)[1] == {}

    stages = registry.AFTER_EXTRACTION
    fail_after_writes(monkeypatch, in_batch=3)
    if not rolled_back:  # killed: the third batch's chunks and mentions stay behind
        async def no_roll_back(self: indexer.Indexer, batch: Any) -> bool:
            return False

        monkeypatch.setattr(indexer.Indexer, "_roll_back", no_roll_back)
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag, \
            pytest.raises(BatchFailedError):
        rag.index([tmp_path / "long.txt"], method="fast")
    document = store.read("indexing/documents/list_documents", skip=0, limit=9)[0]["id"]
    state = store.read("indexing/documents/find_indexed_documents", ids=[document])[0]
    assert not state["complete"] and state["indexed_chunks"] == 4
    monkeypatch.setattr(registry, "AFTER_EXTRACTION", stages)
    monkeypatch.setattr(indexer.Indexer, "_roll_back", indexer.Indexer._roll_back)

    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        stats, _ = rag.index([tmp_path / "long.txt"], method="fast")
    assert starts[-1] == 4  # went on after the two whole batches
    assert stats.resumed_documents == 1 and stats.kept_chunks == 4
    assert stats.chunks == clean_stats.chunks - 4
    assert _fingerprint(store) == clean  # nothing lost, nothing counted twice
    assert store.read("indexing/documents/find_indexed_documents", ids=[document])[0]["complete"]
