"""What an extraction method declares is recorded on its documents and read from there: a new
LLM-based method gets full reports and an estimate with reports; an older graph, whose
documents name their method only, gets the record from the registry."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graphrag_neo4j.cli.graph.estimate_output import reports_by_default
from graphrag_neo4j.communities.report_mode import choose_report_mode
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.costs.dependent_stages import REPORTS
from graphrag_neo4j.indexing.extraction import registry
from graphrag_neo4j.indexing.extraction.base import Advance, Batch, require_llm
from graphrag_neo4j.indexing.records import ChunkExtraction
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.integration.inputs.test_extraction_recipes import CapitalsExtraction

pytestmark = pytest.mark.integration
OLD_DOCUMENTS = (
    ("CREATE (:__Document__ {id: 'old-fast', extraction_method: 'fast'})"
     "<-[:PART_OF]-(:__Chunk__ {id: 'old-fast-chunk', document_id: 'old-fast'})"),
    "CREATE (:__Document__ {id: 'old-triplets', extraction_method: 'triplets'})",
    "CREATE (:__Document__ {id: 'older-than-names'})",
    "CREATE (:__Document__ {id: 'retired', extraction_method: 'a-method-since-removed'})",
)


@dataclass
class ToyLLMExtraction(CapitalsExtraction):
    """A new LLM-based method (its model picks capitalised words), under a name of its own."""

    name = "toy-llm"
    description = "An LLM names the entities, for the capability test."
    progress_label = "extract (toy LLM)"
    needs_llm = True
    llm_extracted = True

    async def extract(self, batch: Batch, advance: Advance) -> list[ChunkExtraction]:
        require_llm(self.services, self.name)
        return await super().extract(batch, advance)


def test_a_new_llm_method_gets_full_reports_and_an_estimate_with_them(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry.METHODS, ToyLLMExtraction.name, ToyLLMExtraction)
    source = tmp_path / "docs" / "euler.txt"
    source.parent.mkdir()
    source.write_text("Leonhard Euler studied in Basel under Johann Bernoulli.\n")
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    assert reports_by_default(tuned, ToyLLMExtraction.name)
    assert not reports_by_default(tuned, "fast")
    with GraphRAG(tuned, llm=FakeChatModel(), embeddings=FakeEmbeddings()) as rag:
        # As `index --estimate` decides it: with the reports `communities` would write.
        with_reports = reports_by_default(tuned, ToyLLMExtraction.name)
        estimate = rag.estimate([source], ToyLLMExtraction.name, reports=with_reports)
        rag.index([source], ToyLLMExtraction.name)
    assert estimate.stage(REPORTS).calls.high > 0
    [document] = store.read("indexing/documents/list_documents", skip=0, limit=10)
    assert document["extraction_method"] == ToyLLMExtraction.name
    assert choose_report_mode(store, None) == "all"


def test_an_older_graph_gets_its_methods_capabilities_recorded(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    auth = (settings.neo4j.user, settings.neo4j.secret())
    with GraphDatabase.driver(settings.neo4j.uri, auth=auth) as driver, \
            driver.session() as session:  # a graph written before the record existed
        for statement in OLD_DOCUMENTS:
            session.run(statement).consume()
    # Unrecorded, every document counts as LLM-extracted: the safe side.
    assert store.read("communities/reports/count_llm_documents")[0]["llm_documents"] == 4
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, embeddings=FakeEmbeddings()) as rag:
        rag.ensure_schema()  # init-db, index, communities and serve all run it
    counts = store.read("communities/reports/count_llm_documents")[0]
    # LLM-extracted: the document older than method names and the retired method's (it takes
    # the settings' method, llm); fast and triplets documents are not.
    assert (counts["documents"], counts["llm_documents"]) == (4, 2)
    [chunk] = store.read("query/hops/score_chunks", ids=["old-fast-chunk"], embedding=[1.0] * 384)
    assert chunk["cooccurrence_relations"] is True  # hops weighs them as co-occurrences
    assert choose_report_mode(store, None) == "all"
