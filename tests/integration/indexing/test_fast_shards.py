"""Two fast shards at once write the graph one fast run writes: entity names and types,
relations with their weights, and the merge audit.

Fast extraction decides over a corpus (how many chunks name a concept, the type most mentions
give a name, summed edge weights, hub degrees, whether a short name is ambiguous): before it
decided over each shard's documents, the book as one run made 487 entities, 1,999 relations and
2 merges, as two shards 430, 1,504 and 15.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.input.sharding import Shard
from graphrag_neo4j.indexing.run.run_lock import run_lock_name
from tests.integration.indexing.writer_processes import run_writers

pytestmark = pytest.mark.integration

# Each text alone decides differently from all of them together: "Scrooge" stands alone in one
# document (so it is no alias of "Ebenezer Scrooge" in the whole input), the lantern is named in
# four documents (concept frequency, hub degrees), names are typed by the votes of all documents
# and chunk co-occurrences sum to an edge only over the whole input.
TEXTS = [
    "Ebenezer Scrooge carried a lantern through London. Scrooge saw the face of Jacob Marley "
    "on the knocker. The lantern shook in his hand.",
    "Scrooge sat alone by the fire with a lantern. Jacob Marley came through the door. "
    "The bells of London rang at midnight.",
    "Bob Cratchit held the lantern for Tiny Tim. Bob Cratchit lived in Camden Town. "
    "Jacob Marley had died seven years before.",
    "Jacob Marley worked in the City of London for many years. London was cold. "
    "Marley was dead as a door-nail.",
    "Fred invited his uncle Ebenezer Scrooge to dinner in London. Fred laughed at Scrooge. "
    "The lantern of the Ghost of Christmas Present filled the room.",
    "Martha Cratchit came home to Camden Town. Bob Cratchit and Tiny Tim met her in London. "
    "Jacob Marley was not there.",
]
WRITER = """
import sys
from pathlib import Path
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.input.sharding import parse_shard
from graphrag_neo4j.settings import load_settings
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings

docs, shard, cache = sys.argv[1], sys.argv[2], sys.argv[3]
settings = load_settings(extraction={"method": "fast"})
settings = settings.model_copy(update={"cache_dir": Path(cache)})
with GraphRAG(settings, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
    rag.index([Path(docs)], shard=parse_shard(shard) if shard != "all" else None)
"""


def _writers(docs: Path, shards: list[str], tmp_path: Path) -> None:
    run_writers(WRITER, docs, shards, tmp_path, timeout=300)


def graph_parts(store: Store) -> dict[str, Any]:
    return {
        "entities": sorted((e["name"], e["type"]) for e in
                           store.read("indexing/entities/list_entities", skip=0, limit=10_000)),
        "relations": sorted((r["source"], r["predicate"], r["target"], r["weight"],
                             tuple(sorted(r["chunk_ids"])))
                            for r in store.read("interop/export_relations")),
        "merges": sorted((m["from_name"], m["into_name"], m["decided_by"], m["reason"])
                         for m in store.read("indexing/merges/list_merges")),
        "documents": sorted((d["id"], d["complete"]) for d in
                            store.read("indexing/documents/list_documents", skip=0, limit=100)),
    }


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    for number, text in enumerate(TEXTS):
        (docs / f"part{number}.txt").write_text(text, encoding="utf-8")
    return docs


def test_two_fast_shards_at_once_write_the_graph_of_one_run(
    store: Store, tmp_path: Path
) -> None:
    docs = _docs(tmp_path)
    _writers(docs, ["all"], tmp_path / "one")
    one = graph_parts(store)
    halves = [[d for d, _ in one["documents"] if Shard(i, 2).holds(d)] for i in (1, 2)]
    assert all(halves), "each shard must get documents for the test to mean anything"
    store.run_autocommit("database/delete_all")
    _writers(docs, ["1/2", "2/2"], tmp_path / "two")
    two = graph_parts(store)
    assert len(one["documents"]) == len(TEXTS) and all(done for _, done in one["documents"])
    assert [m[:3] for m in one["merges"]] == [("Marley", "Jacob Marley", "alias")]
    assert ("Scrooge", "person") in one["entities"], "a name alone in a document is no alias"
    for part in one:
        assert two[part] == one[part], part


def _long_docs(tmp_path: Path) -> Path:
    """Each text told over and over: in 20-character chunks, a run of some 50 batches."""
    docs = tmp_path / "long"
    docs.mkdir()
    for number, text in enumerate(TEXTS):
        (docs / f"part{number}.txt").write_text("\n\n".join([text] * 60), encoding="utf-8")
    return docs


def _run(docs: Path, cache: Path) -> subprocess.Popen[str]:
    script = WRITER.replace('extraction={"method": "fast"}', 'extraction={"method": "fast"}, '
                            'chunking={"unit": "chars", "size": 20, "overlap": 0}')
    return subprocess.Popen([sys.executable, "-c", script, str(docs), "all", str(cache)],
                            env=dict(os.environ), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def _finish(run: subprocess.Popen[str]) -> str:
    out, _ = run.communicate(timeout=600)
    assert run.returncode == 0, out[-3000:]
    return out


def test_a_second_fast_run_of_the_same_documents_waits_for_the_first(
    store: Store, tmp_path: Path
) -> None:
    """The second run found the documents the first had not finished, cleared them and wrote
    them again beside it (8 documents: 477 entities, 1,728 relations against 464 and 1,419
    in sequence); now the two write the graph of the same runs in sequence."""
    docs = _long_docs(tmp_path)
    _finish(_run(docs, tmp_path / "first"))
    _finish(_run(docs, tmp_path / "then"))  # in sequence: the second finds them indexed
    in_sequence = graph_parts(store)
    assert len(in_sequence["documents"]) == len(TEXTS)
    store.run_autocommit("database/delete_all")
    first = _run(docs, tmp_path / "overlapping-1")
    while not graph_parts(store)["documents"]:  # its first batch is being written
        assert first.poll() is None, "the first run must be under way when the second starts"
        time.sleep(0.2)
    second = _run(docs, tmp_path / "overlapping-2")
    _finish(first)
    _finish(second)
    assert graph_parts(store) == in_sequence


@pytest.mark.timeout(600)  # a run that never says it waits would block the read below
def test_a_run_waits_while_another_holds_its_documents_and_says_so(
    store: Store, tmp_path: Path
) -> None:
    """Held by the test rather than by a first run, so a fast machine cannot finish the first
    run before the second looks (CI did): the run waits, says so once, then indexes."""
    docs = _docs(tmp_path)
    _finish(_run(docs, tmp_path / "alone"))
    alone = graph_parts(store)
    store.run_autocommit("database/delete_all")
    held = [SimpleNamespace(id=doc_id) for doc_id, _ in alone["documents"]]
    with store.exclusive(run_lock_name(held)):  # type: ignore[arg-type]
        waiting = _run(docs, tmp_path / "waiting")
        said = _read_until(waiting, "Another index run over these same")
        assert said, "the run must say it waits while its documents are held"
        assert not graph_parts(store)["documents"], "nothing is written while it waits"
    _finish(waiting)
    assert graph_parts(store) == alone


def _read_until(run: subprocess.Popen[str], text: str) -> bool:
    """Read the run's output line by line until `text` shows or the run ends."""
    assert run.stdout is not None
    return any(text in line for line in run.stdout)
