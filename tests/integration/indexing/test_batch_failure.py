"""A batch that fails is written whole or not at all, said in one sentence, and resumed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing import indexer
from graphrag_neo4j.indexing.run.batch_failure import BatchFailedError, log_path
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.integration.indexing.failing_stage import fail_after_writes

pytestmark = pytest.mark.integration

TEXTS = {
    "paris": "Alice Smith met Carol Jones in Paris. Alice Smith wrote to Carol Jones.",
    "rome": "Alice Smith met Dan Brown in Rome. Dan Brown and Carol Jones sailed home.",
}


def _rag(settings: Settings, tmp_path: Path) -> GraphRAG:
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "extraction": extraction})
    return GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings())


def _inputs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in TEXTS.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


def _graph(store: Store) -> tuple[list[dict[str, Any]], dict[str, int]]:
    documents = store.read("indexing/documents/list_documents", skip=0, limit=9)
    entities = store.read("indexing/entities/list_entities", skip=0, limit=1000)
    return documents, {e["name"]: e["frequency"] for e in entities}


def test_a_failed_batch_is_rolled_back_named_and_resumed(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _inputs(tmp_path)
    fail_after_writes(monkeypatch)
    with _rag(settings, tmp_path) as rag, pytest.raises(BatchFailedError) as failed:
        rag.index([folder])
    said = str(failed.value)
    log = log_path(tmp_path / "cache")
    assert "batch 1 of 1" in said and "('paris', 'rome')" in said
    assert f"KeyError: 'injected'; the traceback is in {log}" in said
    assert "rolled back" in said and "running the same command again resumes" in said
    assert "Traceback" in log.read_text() and "raise KeyError(\"injected\")" in log.read_text()
    assert _graph(store) == ([], {})  # nothing of the batch is left: chunks, mentions, entities
    monkeypatch.undo()
    with _rag(settings, tmp_path) as rag:
        stats, _ = rag.index([folder])
    documents, entities = _graph(store)
    assert stats.documents == 2 and all(d["complete"] for d in documents)
    assert {"Alice Smith", "Carol Jones", "Paris", "Rome"} <= set(entities)


def test_a_batch_left_half_written_is_cleared_before_it_is_indexed_again(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _inputs(tmp_path)
    with _rag(settings, tmp_path / "first") as rag:
        rag.index([folder])
    clean = _graph(store)[1]
    with _rag(settings, tmp_path / "first") as rag:
        for document in _graph(store)[0]:
            rag.delete(document["id"])
    # The server is gone before the roll-back could run: the batch stays half-written.
    fail_after_writes(monkeypatch)

    async def no_roll_back(self: indexer.Indexer, batch: Any) -> bool:
        return False

    monkeypatch.setattr(indexer.Indexer, "_roll_back", no_roll_back)
    with _rag(settings, tmp_path) as rag, pytest.raises(BatchFailedError, match="unmarked"):
        rag.index([folder])
    documents, _ = _graph(store)
    assert len(documents) == 2 and not any(d["complete"] for d in documents)
    monkeypatch.undo()
    with _rag(settings, tmp_path) as rag:
        stats, _ = rag.index([folder])
    assert stats.resumed_documents == 2
    assert _graph(store)[1] == clean  # same entities, no mention counted twice
