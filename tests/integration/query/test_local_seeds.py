"""Local search seeded by the names in the question, on nano alone and beside MuSiQue."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration

QUESTION = "What contribution did the son of Euler's teacher make?"
# MuSiQue passages beside the nano ones, so that generic entity names ("his son", "professor of
# mathematics") compete for the entity vectors; few, to index in seconds with the real embedder.
MUSIQUE_PASSAGES = 120
BERNOULLIS = {"Johann Bernoulli", "Daniel Bernoulli"}


@pytest.fixture
def both_corpora(
    store: Store, settings: Settings, nano_root: Path, shared_data: Path, tmp_path: Path
) -> Iterator[GraphRAG]:
    musique = tmp_path / "musique_slice.jsonl"
    with (shared_data / "musique" / "corpus.jsonl").open(encoding="utf-8") as source:
        musique.write_text("".join(islice(source, MUSIQUE_PASSAGES)), encoding="utf-8")
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=MiniLMEmbeddings()) as rag:
        rag.index_triplets(musique)
        rag.index_triplets(nano_root / "milvus_nano" / "nano_dataset.json")
        yield rag


def _entities(rag: GraphRAG, **options: object) -> set[str]:
    context = rag.retrieve(QUESTION, "local", **options)
    return {row["name"] for row in context.sources["Entities"]}


def test_local_search_finds_the_chain_among_both_corpora(both_corpora: GraphRAG) -> None:
    found = _entities(both_corpora)
    assert "Leonhard Euler" in found and found & BERNOULLIS
    context = both_corpora.retrieve(QUESTION, "local", local={"top_chunks": 3})
    documents = [row["document_id"] for row in context.sources["Sources"]]
    assert "nano_dataset-3" in documents  # Euler's own passage


@pytest.fixture
def nano(store: Store, settings: Settings, nano_root: Path, tmp_path: Path) -> Iterator[GraphRAG]:
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        rag.index_triplets(nano_root / "milvus_nano" / "nano_dataset.json")
        yield rag


def test_named_entities_join_the_vector_hits(nano: GraphRAG) -> None:
    # the passages' entities left out: they would join both
    narrow = {"top_k_entities": 1, "passage_entities": 0}
    alone = _entities(nano, local={**narrow, "seeds_per_mention": 0}, hybrid={"enabled": False})
    seeded = _entities(nano, local={**narrow, "seeds_per_mention": 2}, hybrid={"enabled": False})
    assert len(alone) == 1
    assert alone < seeded and {"Euler", "Leonhard Euler"} <= seeded  # both entities named Euler
