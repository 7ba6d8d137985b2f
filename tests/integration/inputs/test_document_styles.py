"""Delete and unmerge re-describe in the style each document recorded, not the settings'."""

from __future__ import annotations

from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.conftest import FIXTURES
from tests.integration.text_files import write_texts

pytestmark = pytest.mark.integration

PARIS = ("Alice Smith met Carol Jones in Paris. Alice Smith wrote to Carol Jones about the long "
         "winter. Carol Jones answered Alice Smith from Paris in the spring.")
ROME = ("Alice Smith met Dan Brown in Rome. Alice Smith and Carol Jones sailed home. Dan Brown "
        "stayed in Rome with Carol Jones for a while.")
CAROL = ("Ebenezer Scrooge kept a counting-house in London. Scrooge paid Bob Cratchit fifteen "
         "shillings a week. Scrooge and Bob Cratchit worked late on Christmas Eve.")
LOVELACE = "Ada Lovelace wrote notes on the engine of Charles Babbage."
LOVELACE_REPLY = (
    "<concept><name>Ada Lovelace</name><type>person</type><description>Ada Lovelace wrote "
    "notes on an engine.</description></concept>\n<concept><name>Charles Babbage</name>"
    "<type>person</type><description>Charles Babbage designed the engine.</description>"
    "</concept>\n<triplet><subject>Ada Lovelace</subject><predicate>wrote notes on the engine "
    "of</predicate><object>Charles Babbage</object><strength>9</strength></triplet>"
)
LOVELACE_FAST = ("Ada Lovelace lived in London with her mother Anne Byron. Ada Lovelace "
                 "studied mathematics in London.")


def _rag(settings: Settings, tmp_path: Path, llm: FakeChatModel) -> GraphRAG:
    """An engine whose settings say `llm` extraction and summarise past 1 token: any merge
    in the LLM's style would call it."""
    extraction = settings.extraction.model_copy(
        update={"method": "llm", "summary_token_budget": 1})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "extraction": extraction})
    return GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings())


def _document_id(store: Store, name: str) -> str:
    rows = store.read("indexing/documents/list_documents", skip=0, limit=20)
    return str(next(row["id"] for row in rows if name in row["source"]))


def _forget_styles(settings: Settings) -> None:
    statement = (FIXTURES / "cypher" / "forget_description_styles.cypher").read_text()
    auth = (settings.neo4j.user, settings.neo4j.secret())
    with GraphDatabase.driver(settings.neo4j.uri, auth=auth) as driver, driver.session() as session:
        session.run(statement).consume()


@pytest.mark.parametrize("legacy", [False, True], ids=["recorded", "legacy-documents"])
def test_deleting_and_unmerging_fast_documents_calls_no_llm(
    store: Store, settings: Settings, tmp_path: Path, legacy: bool
) -> None:
    paris, rome, carol = write_texts(tmp_path / "docs", paris=PARIS, rome=ROME, carol=CAROL)
    never = FakeChatModel(rules=[])  # any call raises
    with _rag(settings, tmp_path, never) as rag:
        stats, _ = rag.index([paris, rome, carol], method="fast")
        assert stats.graph_entities == store.read("database/count_graph")[0]["entities"] > 0
        if legacy:  # graphs indexed before styles were recorded: their extraction_method says
            _forget_styles(settings)
        report = rag.delete(_document_id(store, "paris"))
        assert report.entities_refreshed > 0
        merges = [m for m in rag.merges() if m["decided_by"] == "alias"]
        assert merges  # Scrooge into Ebenezer Scrooge
        for merge in merges:
            rag.unmerge(merge["id"])
        assert never.calls == []
        assert not rag.llm_in_use  # not even resolved


def test_an_entity_left_to_llm_documents_is_summarised_by_the_llm(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    notes, life = write_texts(tmp_path / "docs", notes=LOVELACE, life=LOVELACE_FAST)
    llm = FakeChatModel(rules=[
        ("Missing records:", "<done/>"),
        (LOVELACE, LOVELACE_REPLY),
        ("may or may not name the same", '{"merges": []}'),
        ("Combine their descriptions", "Ada Lovelace, who wrote notes on the engine."),
    ])
    summary = "Ada Lovelace, who wrote notes on the engine."
    with _rag(settings, tmp_path, llm) as rag:
        rag.index([notes])
        rag.index([life], method="fast")
        assert _description(store, "Ada Lovelace") != summary  # fast sentences now
        rag.delete(_document_id(store, "life"))
    # Ada Lovelace is left to the LLM document: merged in its style, by the LLM, again.
    assert _description(store, "Ada Lovelace") == summary


def _description(store: Store, name: str) -> str:
    rows = store.read("indexing/entities/list_entities", skip=0, limit=50)
    return str(next(row["description"] for row in rows if row["name"] == name))
