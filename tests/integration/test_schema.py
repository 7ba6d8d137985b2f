"""The schema applies twice without change, sizes vector indexes and refuses a mismatch."""

from __future__ import annotations

import pytest

from graphrag_neo4j.errors import SchemaMismatchError
from graphrag_neo4j.resources import RETRIEVAL_HEADS, all_cypher_names
from graphrag_neo4j.store import VECTOR_INDEXES, Store

pytestmark = pytest.mark.integration


def _index_names(store: Store) -> list[tuple[str, str]]:
    return [(row["name"], row["type"]) for row in store.read("show_schema")]


def test_schema_applies_twice_with_the_same_indexes(store: Store) -> None:
    store.reset_vectors()
    store.apply_schema(384)
    first = _index_names(store)
    store.apply_schema(384)
    assert _index_names(store) == first
    assert store.vector_index_dimensions() == dict.fromkeys(VECTOR_INDEXES, 384)
    assert ("entity_name_fulltext", "FULLTEXT") in first
    assert {("chunk_text_fulltext", "FULLTEXT"), ("entity_text_fulltext", "FULLTEXT")} <= set(first)
    (fulltext,) = [r for r in store.read("show_schema") if r["name"] == "entity_name_fulltext"]
    # Eventually consistent keeps Lucene out of every write commit (benchmarks/ingest.py).
    assert fulltext["options"]["indexConfig"]["fulltext.eventually_consistent"] is True


def test_dimension_mismatch_is_one_clear_error(store: Store) -> None:
    store.reset_vectors()
    store.apply_schema(8)
    with pytest.raises(SchemaMismatchError, match="--reset-vectors"):
        store.apply_schema(384)
    store.reset_vectors()
    store.apply_schema(384)
    assert set(store.vector_index_dimensions().values()) == {384}


STATEMENTS = [n for n in all_cypher_names() if "fragments/" not in n]


@pytest.mark.parametrize("name", STATEMENTS)
def test_every_cypher_file_explains(session_store: Store, name: str) -> None:
    session_store.apply_schema(384)
    assert session_store.explain(name, RETRIEVAL_HEADS.get(name))


def test_every_fragment_heads_a_retrieval_query() -> None:
    fragments = {n for n in all_cypher_names() if "fragments/" in n}
    assert fragments == set(RETRIEVAL_HEADS.values())
