"""Fast (spaCy) indexing on the real server: aliases, unmerge, delete, mixing with LLM documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings, RecordingEmbeddings
from graphrag_neo4j.settings import Settings
from tests.integration.text_files import write_texts

pytestmark = pytest.mark.integration

CAROL = (
    "Ebenezer Scrooge kept a counting-house in London. Scrooge paid Bob Cratchit fifteen "
    "shillings a week. Scrooge and Bob Cratchit worked late on Christmas Eve."
)
PARIS = "Alice Smith met Carol Jones in Paris. Alice Smith wrote to Carol Jones."
ROME = "Alice Smith met Dan Brown in Rome. Alice Smith and Carol Jones sailed home."
LOVELACE = "Ada Lovelace wrote notes on the engine of Charles Babbage."
LOVELACE_FAST = "Ada Lovelace lived in London with her mother Anne Byron."
LOVELACE_REPLY = (
    "<concept><name>Ada Lovelace</name><type>person</type><description>Wrote notes."
    "</description></concept>\n<concept><name>Charles Babbage</name><type>person</type>"
    "<description>Designed the engine.</description></concept>\n<triplet><subject>Ada Lovelace"
    "</subject><predicate>wrote notes on the engine of</predicate><object>Charles Babbage"
    "</object><strength>9</strength></triplet>"
)


def _fast_rag(settings: Settings, tmp_path: Path, llm: FakeChatModel | None = None) -> GraphRAG:
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "extraction": extraction})
    return GraphRAG(tuned, llm=llm or FakeChatModel(rules=[]), embeddings=FakeEmbeddings())


def _entities(store: Store) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in store.read("indexing/entities/list_entities", skip=0, limit=1000)}


def _pairs(store: Store) -> dict[frozenset[str], list[str]]:
    """Entity-name pairs -> the chunk ids of every relation between them."""
    found: dict[frozenset[str], list[str]] = {}
    for row in store.read("interop/export_relations"):
        found.setdefault(frozenset((row["source"], row["target"])), []).extend(
            row["chunk_ids"]
        )
    return found


def test_fast_index_folds_aliases_and_unmerge_restores_them(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    (path,) = write_texts(tmp_path / "docs", carol=CAROL)
    with _fast_rag(settings, tmp_path) as rag:
        stats, _ = rag.index([path])
        merges = [m for m in rag.merges() if m["decided_by"] == "alias"]
        assert [(m["from_name"], m["into_name"]) for m in merges] == [
            ("Scrooge", "Ebenezer Scrooge")
        ]
        assert stats.merges >= 1 and stats.llm_decisions == 0
        entities = _entities(store)
        assert {"Ebenezer Scrooge", "Bob Cratchit", "London"} <= set(entities)
        assert "Scrooge" not in entities
        assert entities["Ebenezer Scrooge"]["type"] == "person"
        assert frozenset(("Ebenezer Scrooge", "Bob Cratchit")) in _pairs(store)
        report = rag.unmerge(merges[0]["id"])
        assert report.restored_name == "Scrooge"
        entities = _entities(store)
        assert {"Scrooge", "Ebenezer Scrooge"} <= set(entities)
        assert frozenset(("Scrooge", "Bob Cratchit")) in _pairs(store)
        # A re-run of the same text is a no-op, a changed one does not redo the undone fold.
        rag.index([path])
        path.write_text(CAROL + " Scrooge was alone.", encoding="utf-8")
        rag.index([path])
        assert "Scrooge" in _entities(store)


def test_delete_removes_only_the_co_occurrences_that_document_supported(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    paris, rome = write_texts(tmp_path / "docs", paris=PARIS, rome=ROME)
    with _fast_rag(settings, tmp_path) as rag:
        rag.index([paris, rome])
        pairs = _pairs(store)
        assert {frozenset(("Alice Smith", "Carol Jones")), frozenset(("Alice Smith", "Paris")),
                frozenset(("Alice Smith", "Dan Brown"))} <= set(pairs)
        paris_id = next(
            d["id"]
            for d in store.read("indexing/documents/list_documents", skip=0, limit=9)
            if d["title"].startswith("paris") or "paris" in d["source"]
        )
        rag.delete(paris_id)
    pairs = _pairs(store)
    assert frozenset(("Alice Smith", "Paris")) not in pairs
    assert frozenset(("Carol Jones", "Paris")) not in pairs
    assert frozenset(("Alice Smith", "Dan Brown")) in pairs
    # Rome also says Alice and Carol sailed together: that edge stays, with Rome's chunk only.
    assert len(pairs[frozenset(("Alice Smith", "Carol Jones"))]) == 1
    assert "Paris" not in _entities(store)


def test_llm_and_fast_documents_share_one_graph(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    llm_doc, fast_doc = write_texts(tmp_path / "docs", notes=LOVELACE, life=LOVELACE_FAST)
    llm = FakeChatModel(rules=[
        ("Missing records:", "<done/>"),
        (LOVELACE, LOVELACE_REPLY),
        ("may or may not name the same", '{"merges": []}'),
    ])
    with _fast_rag(settings, tmp_path, llm) as rag:
        rag.index([llm_doc], method="llm")
        rag.index([fast_doc])  # the settings say fast
    entities = _entities(store)
    assert {"Ada Lovelace", "Charles Babbage", "London", "Anne Byron"} <= set(entities)
    assert entities["Ada Lovelace"]["frequency"] == 2  # one entity, mentioned by both chunks
    pairs = _pairs(store)
    assert frozenset(("Ada Lovelace", "Charles Babbage")) in pairs
    assert frozenset(("Ada Lovelace", "London")) in pairs


def test_bad_files_are_skipped_as_in_the_llm_path(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    write_texts(tmp_path / "docs", good=PARIS)
    (tmp_path / "docs" / "empty.txt").write_text("  \n")
    (tmp_path / "docs" / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00" + bytes(range(256)))
    with _fast_rag(settings, tmp_path) as rag:
        stats, loaded = rag.index([tmp_path / "docs"])
    assert {s.path.name for s in loaded.skipped} == {"empty.txt", "image.png"}
    assert stats.documents == 1 and stats.skipped_files == 2
    assert "Alice Smith" in _entities(store)


CHINESE_DOC = (
    "微软的图检索增强生成方法先从文档中抽取实体和关系，再把它们组织成社区。\n\n"
    "每个社区都会生成一份报告，全局搜索会读取这些报告来回答关于整个语料库的问题。"
)
MARKDOWN_DOC = (
    "# Loading the graph\n\nAlice Smith wrote the loader with Carol Jones in Paris. "
    "Alice Smith calls `load_graph(path)` and reads https://example.com/docs first.\n\n"
    "```python\nNEO4J_PASSWORD = os.environ[\"NEO4J_PASSWORD\"]\nRETURN = "
    "list(set(entity['name']))\nDriver = GraphDatabase.driver(uri)\n```\n\n"
    "| Name | Role |\n|---|---|\n| Bob Brown | tester |\n\n"
    "Carol Jones tested the loader in Paris with Alice Smith.\n"
)


def test_fast_index_refuses_other_languages_and_reads_no_code(
    store: Store, settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.zh.md").write_text(CHINESE_DOC, encoding="utf-8")
    (folder / "loader.md").write_text(MARKDOWN_DOC, encoding="utf-8")
    with _fast_rag(settings, tmp_path) as rag:
        stats, _ = rag.index([folder])
    assert stats.documents == 2 and stats.unextracted_documents == 1
    refusals = [r.getMessage() for r in caplog.records if "--method llm" in r.getMessage()]
    assert len(refusals) == 1 and "notes.zh" in refusals[0] and "Chinese (zh)" in refusals[0]
    entities = set(_entities(store))
    assert {"Alice Smith", "Carol Jones", "Paris"} <= entities
    assert not {"NEO4J_PASSWORD", "RETURN", "Driver", "Bob Brown"} & entities
    assert not any(any("\u4e00" <= ch <= "\u9fff" for ch in name) for name in entities)
    # The refused document's chunks stay for retrieval, and its language is on its node.
    rows = store.read("indexing/documents/list_documents", skip=0, limit=9)
    chinese = next(r for r in rows if "notes.zh" in r["source"])
    assert chinese["chunks"] >= 1 and chinese["language"] == "zh"


def _relations_embedded(store: Store) -> dict[frozenset[str], bool]:
    """Entity-name pairs -> whether their relation has a sentence vector."""
    rows = store.read("interop/export_relations")
    embedded = {r["id"]: r["embedded"] for r in
                store.read("indexing/relations/relation_provenance", ids=[r["id"] for r in rows])}
    return {frozenset((r["source"], r["target"])): embedded[r["id"]] for r in rows}


def test_fast_relations_get_vectors_only_when_the_setting_asks(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    (paris,) = write_texts(tmp_path / "one", paris=PARIS)
    with _fast_rag(settings, tmp_path) as rag:
        rag.index([paris])
    unembedded = _relations_embedded(store)
    assert frozenset(("Alice Smith", "Carol Jones")) in unembedded
    assert not any(unembedded.values())
    assert all(e["embedded"] for e in _entities(store).values())

    fast = settings.extraction.fast.model_copy(update={"embed_relations": True})
    extraction = settings.extraction.model_copy(update={"method": "fast", "fast": fast})
    asked = settings.model_copy(update={"cache_dir": tmp_path / "cache",
                                        "extraction": extraction})
    (rome,) = write_texts(tmp_path / "two", rome=ROME)
    with GraphRAG(asked, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        rag.index([rome])
    embedded = _relations_embedded(store)
    assert embedded[frozenset(("Alice Smith", "Dan Brown"))] is True
    assert embedded[frozenset(("Alice Smith", "Carol Jones"))] is True  # touched again by Rome


def test_fast_entity_vectors_encode_the_name_and_are_not_redone_for_new_sentences(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "extraction": extraction})
    recorder = RecordingEmbeddings()
    (paris,) = write_texts(tmp_path / "one", paris=PARIS)
    (rome,) = write_texts(tmp_path / "two", rome=ROME)
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=recorder) as rag:
        rag.index([paris])
        assert {"Alice Smith", "Carol Jones"} <= set(recorder.texts)
        recorder.texts.clear()
        rag.index([rome])  # new sentences about Alice Smith: her description changes
    assert "Dan Brown" in recorder.texts
    assert "Alice Smith" not in recorder.texts
    assert _entities(store)["Alice Smith"]["description"]


def test_fast_entity_vectors_take_the_description_words_asked_for(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    fast = settings.extraction.fast.model_copy(update={"vector_words": 3})
    extraction = settings.extraction.model_copy(update={"method": "fast", "fast": fast})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "extraction": extraction})
    recorder = RecordingEmbeddings()
    (paris,) = write_texts(tmp_path / "one", paris=PARIS)
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=recorder) as rag:
        rag.index([paris])
    description = _entities(store)["Alice Smith"]["description"]
    assert f"Alice Smith: {' '.join(description.split()[:3])}" in recorder.texts
