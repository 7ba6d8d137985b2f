"""Two writers at once (two shards of one corpus, in two processes) build the graph one writer
builds: same documents, chunks, entities, relations, merge audit and communities.

Before the Neo4j locks, concurrent runs recorded different merges (124 vs 128) and one crashed
in the communities stage.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.records import normalize_name
from graphrag_neo4j.settings import Settings
from tests.integration.indexing.writer_processes import run_writers

pytestmark = pytest.mark.integration
PASSAGES = 80
WRITER = """
import sys
from pathlib import Path
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.input.sharding import parse_shard
from graphrag_neo4j.settings import load_settings
from graphrag_neo4j.llm.testing import FakeEmbeddings

corpus, shard, cache = sys.argv[1], sys.argv[2], sys.argv[3]
settings = load_settings().model_copy(update={"cache_dir": Path(cache)})
with GraphRAG(settings, embeddings=FakeEmbeddings()) as rag:
    rag.index_triplets(corpus, parse_shard(shard) if shard != "all" else None)
    rag.build_communities(reports=False)
"""


def _corpus(shared_data: Path, tmp_path: Path) -> Path:
    source = shared_data / "musique" / "corpus.jsonl"
    lines = source.read_text(encoding="utf-8").splitlines()[:PASSAGES]
    # A spelling variant in the other half makes both writers want the same merge.
    extra = {"id": "variant", "text": "The journal of mathematical physics is monthly.",
             "triplets": [["journal of mathematical physics", "is", "monthly"]]}
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join([*lines, json.dumps(extra)]), encoding="utf-8")
    return path


def _writers(corpus: Path, shards: list[str], tmp_path: Path) -> None:
    run_writers(WRITER, corpus, shards, tmp_path, timeout=900)


def _fingerprint(store: Store) -> dict[str, Any]:
    relations = store.read("interop/export_relations")
    return {
        "counts": store.read("database/count_graph")[0],
        "documents": [(d["id"], d["complete"]) for d in
                      store.read("indexing/documents/list_documents", skip=0, limit=10_000)],
        # Which spelling names an entity is whichever its first writer used: compared folded.
        "entities": sorted((e["id"], normalize_name(e["name"]), e["type"], e["frequency"]) for e in
                           store.read("indexing/entities/list_entities", skip=0, limit=100_000)),
        "relations": sorted((r["id"], r["source_id"], r["target_id"], r["predicate"],
                             tuple(sorted(r["chunk_ids"]))) for r in relations),
        "merges": sorted((normalize_name(m["from_name"]), m["into_id"], m["decided_by"]) for m in
                         store.read("indexing/merges/list_merges")),
        "communities": sorted((c["level"], tuple(sorted(c["members"]))) for c in
                              store.read("communities/reports/list_community_state")),
    }


def test_two_shards_at_once_build_the_graph_of_one_run(
    store: Store, settings: Settings, shared_data: Path, tmp_path: Path
) -> None:
    corpus = _corpus(shared_data, tmp_path)
    _writers(corpus, ["all"], tmp_path / "single")
    single = _fingerprint(store)
    store.run_autocommit("database/delete_all")
    _writers(corpus, ["1/2", "2/2"], tmp_path / "pair")
    pair = _fingerprint(store)
    assert single["counts"]["documents"] == PASSAGES + 1
    assert single["merges"], "the corpus must make the writers merge spellings"
    for part in single:
        assert pair[part] == single[part], part
