"""The extraction registry: one list of methods, each meeting the protocol."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.cli.graph.estimate_output import reports_by_default
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.extraction.base import Batch, RunServices, document_record
from graphrag_neo4j.indexing.extraction.registry import (
    METHODS,
    capability_record,
    check_extraction_method,
    create_extraction_method,
    extraction_method_names,
)
from graphrag_neo4j.indexing.extraction.triplets import extractions_from_triplets
from graphrag_neo4j.indexing.input.chunking import chunk_document
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import CommunitySettings, Settings


def _services(tmp_path: Path) -> RunServices:
    settings = Settings(cache_dir=tmp_path)
    embedder = EmbeddingCaller(FakeEmbeddings(), settings.embedding, tmp_path)
    return RunServices(settings, Store.__new__(Store), embedder)


def test_the_registry_lists_every_method_once() -> None:
    assert extraction_method_names() == list(METHODS) == ["llm", "fast", "triplets"]


def test_an_unknown_method_is_one_sentence_naming_the_registered_ones() -> None:
    with pytest.raises(InputError, match=r"Unknown extraction method 'spacy': use one of "
                                         r"llm, fast, triplets\."):
        check_extraction_method("spacy")


def test_each_method_meets_the_protocol_under_its_registered_name(tmp_path: Path) -> None:
    services = _services(tmp_path)
    labels = set()
    for name in extraction_method_names():
        method = create_extraction_method(name, services)
        assert method.name == name
        assert method.description.endswith(".") and len(method.description) > 40
        assert isinstance(method.needs_llm, bool)
        labels.add(method.progress_label)
    assert len(labels) == len(METHODS)


def test_llm_extraction_without_an_llm_is_one_sentence(tmp_path: Path) -> None:
    method = create_extraction_method("llm", _services(tmp_path))
    with pytest.raises(InputError, match="needs an LLM"):
        method.extractor()  # type: ignore[attr-defined]


async def test_triplets_become_the_mentions_of_the_chunks_that_name_them(tmp_path: Path) -> None:
    services = _services(tmp_path)
    document = Document("p1", "Euler", "p1", "Leonhard Euler studied under Johann Bernoulli.")
    chunks = chunk_document(document, services.settings.chunking)
    triplets = [("Leonhard Euler", "studied under", "Johann Bernoulli")]
    done: list[int] = []
    method = create_extraction_method("triplets", services)
    found = await method.extract(Batch([document], {"p1": chunks}, {"p1": triplets}),
                                 done.append)
    assert found == extractions_from_triplets(chunks, triplets)
    assert sum(done) == len(chunks)
    assert not method.needs_llm


async def test_the_triplets_method_refuses_a_document_without_triplets(tmp_path: Path) -> None:
    services = _services(tmp_path)
    document = Document("p1", "Euler", "p1", "Leonhard Euler studied in Basel.")
    chunks = chunk_document(document, services.settings.chunking)
    method = create_extraction_method("triplets", services)
    with pytest.raises(InputError, match=r"brings no triplets.*index --triplets"):
        await method.extract(Batch([document], {"p1": chunks}), lambda n: None)


def test_each_method_declares_what_its_documents_record(tmp_path: Path) -> None:
    for name in METHODS:
        method = create_extraction_method(name, _services(tmp_path))
        record = document_record(method)
        assert record["extraction_method"] == name
        assert isinstance(record["llm_extracted"], bool)
        assert isinstance(record["cooccurrence_relations"], bool)
        assert isinstance(method.folds_aliases, bool)
    fast = create_extraction_method("fast", _services(tmp_path))
    assert fast.folds_aliases and fast.cooccurrence_relations and not fast.llm_extracted


class _ToyLLMExtraction:
    name = "toy-llm"
    description = "A new LLM-based method."
    llm_extracted = True
    cooccurrence_relations = False


def test_a_new_llm_method_gets_full_reports_in_the_estimate_and_its_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(METHODS, _ToyLLMExtraction.name, _ToyLLMExtraction)
    assert reports_by_default(Settings(), "toy-llm") and not reports_by_default(Settings(), "fast")
    lazy = Settings().model_copy(update={"communities": CommunitySettings(reports="lazy")})
    assert not reports_by_default(lazy, "toy-llm")
    record = capability_record("fast")
    assert record["methods"]["toy-llm"] == {  # type: ignore[index]
        "llm_extracted": True, "cooccurrence_relations": False}
    assert record["unnamed"] == record["methods"]["llm"]  # type: ignore[index]
    assert record["unknown"] == record["methods"]["fast"]  # type: ignore[index]
