"""Schema-guided fast indexing: spaCy's types land on the schema's by meaning, and are counted."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import ExtractionSchemaSettings, Settings

pytestmark = pytest.mark.integration

TEXT = ("Ebenezer Scrooge lived in London. Bob Cratchit walked to Camden Town with Tiny Tim. "
        "Scrooge and Marley was a firm in London. Bob Cratchit worked for Ebenezer Scrooge in "
        "London, and Tiny Tim waited for Bob Cratchit in Camden Town.\n")
# The fake embedder's vectors follow shared words: `location` meets its own word here.
SCHEMA = ExtractionSchemaSettings(
    entity_types={"person": "a human being", "place": "a location: a town or a city"},
    min_similarity=0.2)


def test_fast_types_are_mapped_onto_the_schema_by_meaning(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    extraction = settings.extraction.model_copy(update={"method": "fast", "schema_": SCHEMA})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "extraction": extraction})
    path = tmp_path / "carol.txt"
    path.write_text(TEXT, encoding="utf-8")
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        stats, _ = rag.index([path])
    assert stats.schema_types_mapped > 0, stats
    assert stats.graph_entity_types.get("place", 0) >= 1, stats.graph_entity_types
    assert "location" not in stats.graph_entity_types
    assert set(stats.graph_entity_types) <= {"person", "place", "other"}
    places = store.read("bench/entities_named", names=["London", "Camden Town"])
    assert {row["type"] for row in places} == {"place"}, places
