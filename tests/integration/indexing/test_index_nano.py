"""The nano passages indexed with a fake LLM speaking the notebook's triplets, end to end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.records import normalize_name
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

pytestmark = pytest.mark.integration


def _rag(settings: Settings, tmp_path: Path, llm: FakeChatModel, **extraction: Any) -> GraphRAG:
    tuned = settings.model_copy(
        update={
            "cache_dir": tmp_path / "cache",
            "extraction": settings.extraction.model_copy(update=extraction),
        }
    )
    return GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings())


def _entities(store: Store) -> dict[str, dict[str, Any]]:
    rows = store.read("indexing/entities/list_entities", skip=0, limit=1000)
    return {row["name"]: row for row in rows}


def _expected_names(dataset: dict[str, Any]) -> set[str]:
    keys = {normalize_name(n) for p in dataset["passages"] for s, _, o in p["triplets"]
            for n in (s, o)}
    return keys - {"euler"}  # merged into Leonhard Euler by the resolution decision


def test_nano_graph_is_exact_and_reindexing_is_free(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> None:
    dataset = load_nano(nano_root)
    paths = write_nano_passages(dataset, tmp_path / "docs")
    llm = nano_fake_llm(dataset)
    with _rag(settings, tmp_path, llm) as rag:
        stats, loaded = rag.index(paths)
        first_counts = rag.counts()
    assert stats.documents == 4 and not loaded.skipped
    entities = _entities(store)
    assert {normalize_name(name) for name in entities} == _expected_names(dataset)
    assert first_counts["relations"] == sum(len(p["triplets"]) for p in dataset["passages"])
    assert first_counts["chunks"] == 4 and first_counts["documents"] == 4
    assert all(row["description"] and row["embedded"] for row in entities.values())
    calls_after_first_run = len(llm.calls)

    with _rag(settings, tmp_path, llm) as rag:
        again, _ = rag.index(paths)
        assert rag.counts() == first_counts
    assert again.documents == 0 and again.unchanged_documents == 4
    assert len(llm.calls) == calls_after_first_run, "re-indexing made LLM calls"
    assert _entities(store) == entities


def test_an_interrupted_run_resumes_from_the_cache(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> None:
    dataset = load_nano(nano_root)
    paths = write_nano_passages(dataset, tmp_path / "docs")
    llm = nano_fake_llm(dataset)
    with _rag(settings, tmp_path, llm) as rag:
        rag.index(paths)
        complete = rag.counts()
    store.write(
        "indexing/documents/forget_indexed_documents"
    )  # as if the run had died before its last step
    calls = len(llm.calls)
    with _rag(settings, tmp_path, llm) as rag:
        resumed, _ = rag.index(paths)
        assert rag.counts() == complete
    assert resumed.documents == 4
    assert len(llm.calls) == calls, "the resumed run asked the LLM again instead of the cache"


def test_euler_spellings_become_one_entity_with_recorded_merges(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> None:
    dataset = load_nano(nano_root)
    with _rag(settings, tmp_path, nano_fake_llm(dataset)) as rag:
        rag.index(write_nano_passages(dataset, tmp_path / "docs"))
    eulers = [n for n in _entities(store) if "euler" in normalize_name(n)]
    assert eulers == ["Leonhard Euler"]
    merges = {
        (row["from_name"], row["decided_by"]) for row in store.read("indexing/merges/list_merges")
    }
    assert ("Euler", "llm") in merges
    assert ("leonhard Euler", "normalisation") in merges


def test_homographs_of_different_types_stay_apart(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "company.txt").write_text("Apple designs phones in Cupertino.")
    (docs / "fruit.txt").write_text("An apple is a fruit that grows on trees.")
    llm = FakeChatModel(rules=[
        ("Missing records:", "<done/>"),
        ("may or may not name the same", '{"merges": []}'),
        ("Apple designs phones", "<concept><name>Apple</name><type>organization</type>"
         "<description>A company that designs phones.</description></concept>"),
        ("An apple is a fruit", "<concept><name>apple</name><type>food</type>"
         "<description>A fruit growing on trees.</description></concept>"),
    ])
    with _rag(settings, tmp_path, llm) as rag:
        rag.index([docs])
    apples = sorted((row["name"], row["type"]) for row in _entities(store).values()
                    if normalize_name(row["name"]) == "apple")
    assert apples == [("Apple", "organization"), ("apple", "food")]
    assert any("may or may not name the same" in call.prompt for call in llm.calls)


def test_delete_leaves_no_orphans_and_resummarises_shared_entities(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> None:
    dataset = load_nano(nano_root)
    llm = nano_fake_llm(dataset)
    paths = write_nano_passages(dataset, tmp_path / "docs")
    with _rag(settings, tmp_path, llm, summary_token_budget=10) as rag:
        rag.index(paths)
        before = _entities(store)
        assert "passage 2" in before["Johann Bernoulli"]["description"]
        daniel_doc = next(
            d
            for d in store.read("indexing/documents/list_documents", skip=0, limit=10)
            if d["source"].endswith("passage_2.txt")
        )
        report = rag.delete(daniel_doc["id"])
    after = _entities(store)
    assert report.entities_deleted > 0
    assert "Daniel Bernoulli" not in after and "fluid dynamics" not in after
    assert "Johann Bernoulli" in after
    assert "passage 2" not in after["Johann Bernoulli"]["description"]
    assert after["Johann Bernoulli"]["description"].startswith("Summary:")
    assert store.read("indexing/deletion/count_orphans")[0] == {"entities": 0, "relations": 0}
