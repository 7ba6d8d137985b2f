"""The schema applies twice without change, sizes vector indexes, refuses a mismatch, migrates,
and an answer says when the graph's indexes are older than the release."""

from __future__ import annotations

from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graphrag_neo4j.database.store import LEGACY_CHUNK_FULLTEXT, VECTOR_INDEXES, Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.runtime.errors import SchemaMismatchError
from graphrag_neo4j.runtime.resources import all_cypher_names, split_statements
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration
FIXTURES = Path(__file__).parents[2] / "fixtures"


def _index_names(store: Store) -> list[tuple[str, str]]:
    return [(row["name"], row["type"]) for row in store.read("database/show_schema")]


def test_schema_applies_twice_with_the_same_indexes(store: Store) -> None:
    store.reset_vectors()
    store.apply_schema(384)
    first = _index_names(store)
    store.apply_schema(384)
    assert _index_names(store) == first
    assert store.vector_index_dimensions() == dict.fromkeys(VECTOR_INDEXES, 384)
    assert ("entity_name_fulltext", "FULLTEXT") in first
    assert {("chunk_fulltext", "FULLTEXT"), ("entity_text_fulltext", "FULLTEXT"),
            ("chunk_title", "RANGE")} <= set(first)
    assert LEGACY_CHUNK_FULLTEXT not in {name for name, _ in first}
    rows = store.read("database/show_schema")
    (fulltext,) = [r for r in rows if r["name"] == "entity_name_fulltext"]
    # Eventually consistent keeps Lucene out of every write commit (benchmarks/indexing/ingest.py).
    assert fulltext["options"]["indexConfig"]["fulltext.eventually_consistent"] is True


def _run_fixture(settings: Settings, name: str) -> None:
    """Run a script of tests/fixtures/cypher against the test server, outside the store."""
    script = (FIXTURES / "cypher" / f"{name}.cypher").read_text(encoding="utf-8")
    auth = (settings.neo4j.user, settings.neo4j.secret())
    with GraphDatabase.driver(settings.neo4j.uri, auth=auth) as driver, driver.session() as session:
        for statement in split_statements(script):
            session.run(statement).consume()


def test_a_graph_from_before_chunk_titles_gets_them_and_the_new_index(
    store: Store, settings: Settings
) -> None:
    _run_fixture(settings, "legacy_chunk_graph")
    store.apply_schema(384)
    assert LEGACY_CHUNK_FULLTEXT not in {name for name, _ in _index_names(store)}
    # Only the document's title says "Zanzibar": the chunk is found through its new title.
    (row,) = store.read("query/search/search_chunks_by_fulltext", query="zanzibar", k=5)
    assert (row["chunk_id"], row["title"]) == ("chunk-legacy", "Zanzibar Quartet")


def test_dimension_mismatch_is_one_clear_error(store: Store) -> None:
    store.reset_vectors()
    store.apply_schema(8)
    with pytest.raises(SchemaMismatchError, match="--reset-vectors"):
        store.apply_schema(384)
    store.reset_vectors()
    store.apply_schema(384)
    assert set(store.vector_index_dimensions().values()) == {384}


@pytest.mark.parametrize("name", all_cypher_names())
def test_every_cypher_file_explains(session_store: Store, name: str) -> None:
    session_store.apply_schema(384)
    assert session_store.explain(name)


def test_an_answer_says_how_to_update_an_older_graphs_indexes(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    store.apply_schema(384)
    _run_fixture(settings, "drop_chunk_title")
    assert store.pending_schema() == ["chunk_title"]
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=FakeChatModel(), embeddings=FakeEmbeddings()) as rag:
        (note,) = [n.text for n in rag.retrieve("Who taught Euler?", "naive").notes
                   if "init-db" in n.text]
        assert "chunk_title" in note and "graphrag-neo4j init-db`" in note
        rag.ensure_schema()  # what `init-db` and every indexing run do
        assert not [n for n in rag.retrieve("Who taught Euler?", "naive").notes
                    if "init-db" in n.text]
    assert store.pending_schema() == []
