"""Type labels on the real server: set on write, kept through unmerge, delete, re-typing."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.graph.type_labels import TypeLabels
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.integration.text_files import write_texts

pytestmark = pytest.mark.integration

CAROL = (
    "Ebenezer Scrooge kept a counting-house in London. Scrooge paid Bob Cratchit fifteen "
    "shillings a week. Scrooge and Bob Cratchit worked late on Christmas Eve."
)
PARIS = "Alice Smith met Carol Jones in Paris. Alice Smith wrote to Carol Jones."


def _fast_rag(settings: Settings, tmp_path: Path, **extraction: object) -> GraphRAG:
    tuned_extraction = settings.extraction.model_copy(update={"method": "fast", **extraction})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache",
                                        "extraction": tuned_extraction})
    return GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings())


def _mislabelled(store: Store, labels: TypeLabels) -> list[dict[str, object]]:
    return store.read("indexing/types/mislabelled_entities", **labels.params())


def _labelled(store: Store, label: str) -> int:
    return int(store.read("indexing/types/count_entities_labelled", label=label)[0]["entities"])


def test_labels_match_the_summary_and_survive_unmerge_and_delete(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    carol, paris = write_texts(tmp_path / "docs", carol=CAROL, paris=PARIS)
    with _fast_rag(settings, tmp_path) as rag:
        labels = TypeLabels.from_settings(rag.settings)
        stats, _ = rag.index([carol, paris])
        persons = stats.graph_entity_types["person"]
        assert persons >= 4  # Ebenezer Scrooge, Bob Cratchit, Alice Smith, Carol Jones
        assert _labelled(store, "Person") == persons
        assert _labelled(store, "Location") == stats.graph_entity_types["location"]
        assert _mislabelled(store, labels) == []
        (fold,) = [m for m in rag.merges() if m["decided_by"] == "alias"]
        rag.unmerge(fold["id"])  # "Scrooge" comes back as its own person
        assert _labelled(store, "Person") == persons + 1
        assert _mislabelled(store, labels) == []
        paris_id = next(
            d["id"]
            for d in store.read("indexing/documents/list_documents", skip=0, limit=9)
            if "paris" in d["source"]
        )
        rag.delete(paris_id)
        assert _labelled(store, "Person") == persons + 1 - 2  # Alice and Carol went with it
        assert _mislabelled(store, labels) == []


def test_retyping_an_unknown_entity_gives_it_a_label(store: Store) -> None:
    labels = TypeLabels.from_types(["person"])
    store.write("indexing/documents/merge_documents", rows=[{
        "id": "d", "title": "d", "source": "d", "content_hash": "h", "extraction_method": "llm"}])
    store.write("indexing/documents/merge_chunks", rows=[{
        "id": "c", "document_id": "d", "text": "Ada", "chunk_index": 0, "n_tokens": 1,
        "embedding": [0.1] * 8}])
    row = {"chunk_id": "c", "entity_id": "e1", "name": "Ada", "name_key": "ada",
           "description": "", "surface_names": ["Ada"], "surface_type": "unknown"}
    for entity_type in ("unknown", "person"):  # the first typed mention types it
        mention = (
            "indexing/entities/merge_entity_mentions",
            {"rows": [{**row, "type": entity_type}]},
        )
        store.write_together([mention, labels.step(["e1"])])
        assert _labelled(store, "Person") == (entity_type == "person")
    assert _mislabelled(store, labels) == []


def test_the_setting_turns_labels_off_and_relabel_removes_them(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    (carol,) = write_texts(tmp_path / "docs", carol=CAROL)
    with _fast_rag(settings, tmp_path, type_labels=False) as rag:
        rag.index([carol])
        assert _labelled(store, "Person") == 0
    with _fast_rag(settings, tmp_path) as rag:
        assert rag.relabel_entities() > 0
        assert _labelled(store, "Person") >= 2
    with _fast_rag(settings, tmp_path, type_labels=False) as rag:
        rag.relabel_entities()
        assert _labelled(store, "Person") == 0
