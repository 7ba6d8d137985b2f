"""The nano passages indexed end to end with the real offline LLM and embedder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.records import normalize_name
from graphrag_neo4j.settings import load_settings
from tests.nano_fakes import load_nano, write_nano_passages

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def _found(notebook_key: str, graph_keys: set[str]) -> bool:
    """A notebook entity counts as found when a graph name equals, contains or is inside it."""
    return any(
        notebook_key == key or notebook_key in key or (len(key) > 4 and key in notebook_key)
        for key in graph_keys
    )


def test_offline_llm_finds_most_notebook_entities(
    store: Store, nano_root: Path, tmp_path: Path
) -> None:
    if os.environ.get("GRAPHRAG_TEST_NEO4J") != "1":
        pytest.fail("run through scripts/test.sh, which starts the test Neo4j")
    dataset = load_nano(nano_root)
    docs = tmp_path / "docs"
    write_nano_passages(dataset, docs)
    settings = load_settings(llm={"provider": "local"}, embedding={"provider": "offline"})
    with GraphRAG(settings) as rag:
        stats, _ = rag.index([docs])
    rows = store.read("indexing/entities/list_entities", skip=0, limit=1000)
    graph_keys = {normalize_name(row["name"]) for row in rows}
    notebook_keys = {normalize_name(n) for p in dataset["passages"] for s, _, o in p["triplets"]
                     for n in (s, o)}
    found = sorted(key for key in notebook_keys if _found(key, graph_keys))
    print(f"found {len(found)} of {len(notebook_keys)} notebook entities: {found}")
    print(f"graph entities: {sorted(graph_keys)}")
    assert stats.documents == 4
    assert len(found) >= 8, f"only {found} of the notebook's entities were extracted"
