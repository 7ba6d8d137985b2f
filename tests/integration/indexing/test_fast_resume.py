"""A fast run killed after its graph write and resumed records the graph and merges of one run.

The killed run's entities, relations and merges are committed but its documents are not marked
indexed, so the re-run extracts and resolves them again against what it wrote itself: every
merge it recorded must be recognised, not recorded a second time under another reason.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration

TEXTS = {
    "carol": (
        "Ebenezer Scrooge kept a counting-house in London. Scrooge paid Bob Cratchit fifteen "
        "shillings a week. Scrooge and Bob Cratchit worked late on Christmas Eve. Bob went "
        "home to Martha Cratchit in Camden Town. Martha waited for Bob at the door."
    ),
    "marley": (
        "Jacob Marley was the partner of Ebenezer Scrooge. Marley died seven years ago in "
        "London. Scrooge never painted out old Marley's name above the door."
    ),
}

# The killed run: the description stage, which runs after the graph write commits and before
# the documents are marked indexed, waits until the test kills the process.
KILLED_WRITER = """
import asyncio, sys
from pathlib import Path
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.stages.describe import DescriptionStage
from graphrag_neo4j.settings import load_settings
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings

async def wait_to_be_killed(*args, **kwargs):
    print("written", flush=True)
    await asyncio.sleep(600)

DescriptionStage.run = wait_to_be_killed
settings = load_settings(extraction={"method": "fast"})
settings = settings.model_copy(update={"cache_dir": Path(sys.argv[2])})
with GraphRAG(settings, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
    rag.index([Path(sys.argv[1])])
"""


def _index(settings: Settings, docs: Path, cache: Path) -> None:
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": cache, "extraction": extraction})
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
        rag.index([docs])


def _graph(store: Store) -> dict[str, Any]:
    """Entity names and types, relations with weights, the merge audit and the documents."""
    merges = store.read("indexing/merges/list_merges")
    documents = store.read("indexing/documents/list_documents", skip=0, limit=99)
    return {
        "entities": sorted(
            (r["name"], r["type"])
            for r in store.read("indexing/entities/list_entities", skip=0, limit=9999)
        ),
        "relations": sorted(
            (r["source"], r["predicate"], r["target"], r["weight"])
            for r in store.read("interop/export_relations")
        ),
        "merges": sorted(
            (m["id"], m["from_name"], m["into_name"], m["decided_by"], m["reason"]) for m in merges
        ),
        "documents": sorted((d["id"], d["complete"]) for d in documents),
    }


def _kill_after_the_write(docs: Path, cache: Path, store: Store) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(docs), str(cache)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=os.environ.copy(),
    )
    try:
        assert writer.stdout is not None
        line = writer.stdout.readline().decode()
        assert line.strip() == "written", line + writer.stdout.read().decode()[-2000:]
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    finally:
        writer.kill()
    assert writer.returncode == -signal.SIGKILL


def test_a_killed_fast_run_resumes_without_recording_a_merge_twice(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in TEXTS.items():
        (docs / f"{name}.txt").write_text(text, encoding="utf-8")
    started = time.monotonic()
    _kill_after_the_write(docs, tmp_path / "cache-killed", store)
    killed = _graph(store)
    assert killed["merges"] and killed["entities"], "the killed run committed its graph write"
    assert not any(complete for _, complete in killed["documents"])
    _index(settings, docs, tmp_path / "cache-resumed")
    resumed = _graph(store)
    store.run_autocommit("database/delete_all")
    _index(settings, docs, tmp_path / "cache-clean")
    clean = _graph(store)
    assert {m[3] for m in clean["merges"]} >= {"alias"}, clean["merges"]
    assert resumed["merges"] == clean["merges"] == killed["merges"]
    assert resumed == clean
    assert time.monotonic() - started < 60
