"""A document longer than a batch is indexed in pieces: one chain of chunks, marked once whole."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing import indexer
from graphrag_neo4j.indexing.input.batching import plan_batches
from graphrag_neo4j.settings import Settings
from graphrag_neo4j.store import Store
from graphrag_neo4j.testing import FakeChatModel, FakeEmbeddings

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
    chain = store.read("indexing/list_documents", skip=0, limit=9)
    assert len(chain) == 1 and stats.documents == 1
    rows = store.read("bench/entity_names")
    assert {"Alice Smith", "Carol Jones"} <= {row["name"] for row in rows}
    # One unbroken NEXT_CHUNK chain, across the batch boundaries too.
    assert store.read("bench/ingest_fingerprint")[0]["next_chunk"] == chunks - 1
    marked = store.read("indexing/find_indexed_documents", ids=[chain[0]["id"]])
    assert marked[0]["complete"]  # marked indexed once its last piece was written
