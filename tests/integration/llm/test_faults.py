"""Faults on the way to the LLM and to Neo4j.

A scripted OpenAI-compatible server answers 429, 500, late or garbled replies: the call path
retries with backoff, then fails with one sentence, and an index run that fails leaves nothing
half-written and resumes to exactly the graph of a clean run. Neo4j stopped in the middle of
an index run (and started again) gives one sentence, and the re-run resumes exactly too.
"""

from __future__ import annotations

import asyncio
import io
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from graphrag_neo4j.database.server.neo4j_server import server_config_from_settings, start, stop
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.providers import resolve_llm
from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import Settings
from tests.integration.llm.fake_openai import Malformed, Reply, Slow, Status, Step, serving

pytestmark = pytest.mark.integration
TEXT = "Ada Lovelace wrote notes on the Analytical Engine of Charles Babbage."
EXTRACTION = (
    "<concept><name>Ada Lovelace</name><type>person</type><description>Wrote notes."
    "</description></concept>\n<concept><name>Charles Babbage</name><type>person</type>"
    "<description>Designed the engine.</description></concept>\n<triplet><subject>Ada Lovelace"
    "</subject><predicate>wrote notes on the engine of</predicate><object>Charles Babbage"
    "</object><strength>9</strength></triplet>"
)


def _llm_settings(settings: Settings, base_url: str, tmp_path: Path, **llm: Any) -> Settings:
    section = {"provider": "openai", "base_url": base_url, "api_key": "fake-key",
               "model": "fake-model", "timeout_s": 2.0, "max_retries": 3, **llm}
    return settings.model_copy(update={
        "llm": settings.llm.model_copy(update=section),
        "extraction": settings.extraction.model_copy(
            update={"gleaning_passes": 0, "resolution": False}),
        "cache_dir": tmp_path / "cache",
    })


def _complete(script: list[Step], settings: Settings, tmp_path: Path) -> tuple[Any, int, int]:
    """(reply or raised error, requests the server saw, retries the ledger counted)."""
    with serving(script) as fake:
        tuned = _llm_settings(settings, fake.base_url, tmp_path)
        caller = LLMCaller(resolve_llm(tuned).model, tuned.llm, None,
                           backoff_initial_s=0.05, backoff_max_s=0.2)
        try:
            outcome: Any = asyncio.run(caller.complete("Say fine.", stage="probe"))
        except ModelError as exc:
            outcome = exc
        return outcome, len(fake.requests), caller.usage.total().retries


def test_429_500_and_garbage_are_retried_until_an_answer(
    settings: Settings, tmp_path: Path
) -> None:
    script: list[Step] = [Status(429), Status(500), Malformed(), Reply("fine")]
    assert _complete(script, settings, tmp_path) == ("fine", 4, 3)


@pytest.mark.parametrize(("step", "sentence"), [
    (Status(500), "still failed after 4 attempts (OpenAIAPIError: Error code: 500"),
    (Status(429), "still failed after 4 attempts (OpenAIRateLimitError: Error code: 429"),
    (Slow(4.0), "timed out after 2 s on all 4 attempts; raise GRAPHRAG_LLM__TIMEOUT_S"),
    (Malformed(), "sent a malformed reply (not the OpenAI JSON) for probe on all 4 attempts"),
])
def test_a_fault_that_persists_is_one_sentence_after_the_retries(
    step: Step, sentence: str, settings: Settings, tmp_path: Path
) -> None:
    outcome, requests, retries = _complete([step], settings, tmp_path)
    assert isinstance(outcome, ModelError)
    assert sentence in str(outcome) and "\n" not in str(outcome)
    assert (requests, retries) == (4, 3)


def test_a_rejected_request_is_not_retried(settings: Settings, tmp_path: Path) -> None:
    outcome, requests, _ = _complete([Status(401)], settings, tmp_path)
    assert isinstance(outcome, ModelError) and "rejected a probe request (401" in str(outcome)
    assert requests == 1


def _index(settings: Settings, docs: Path, script: list[Step], tmp_path: Path) -> None:
    with serving(script) as fake:
        tuned = _llm_settings(settings, fake.base_url, tmp_path, max_retries=1)
        with GraphRAG(tuned, embeddings=FakeEmbeddings()) as rag:
            rag.index([docs])


def _graph(store: Store) -> dict[str, Any]:
    return {
        "counts": store.read("database/count_graph")[0],
        "documents": store.read("indexing/documents/list_documents", skip=0, limit=10),
        "entities": store.read("indexing/entities/list_entities", skip=0, limit=10),
        "relations": store.read("interop/export_relations"),
    }


def test_a_failed_run_writes_nothing_half_and_a_rerun_is_exact(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ada.txt").write_text(TEXT, encoding="utf-8")
    with pytest.raises(ModelError, match="still failed after 2 attempts"):
        _index(settings, docs, [Status(503)], tmp_path / "failed")
    # The failed batch is rolled back whole: its document and chunks go with it.
    assert store.read("indexing/documents/list_documents", skip=0, limit=10) == []
    assert store.read("database/count_graph")[0]["entities"] == 0
    _index(settings, docs, [Reply(EXTRACTION)], tmp_path / "resumed")
    resumed = _graph(store)
    store.run_autocommit("database/delete_all")
    _index(settings, docs, [Reply(EXTRACTION)], tmp_path / "clean")
    assert resumed == _graph(store)
    assert resumed["counts"]["entities"] == 2 and resumed["counts"]["relations"] == 1


RESTART_WRITER = """
import sys
from pathlib import Path
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.runtime.errors import GraphRAGError
from graphrag_neo4j.settings import load_settings
from graphrag_neo4j.llm.testing import FakeEmbeddings

docs, base_url, cache = sys.argv[1], sys.argv[2], sys.argv[3]
settings = load_settings(llm={"provider": "openai", "base_url": base_url, "api_key": "k",
                              "model": "fake-model", "max_retries": 1, "concurrency": 2},
                         extraction={"gleaning_passes": 0, "resolution": False})
settings = settings.model_copy(update={"cache_dir": Path(cache)})
try:
    with GraphRAG(settings, embeddings=FakeEmbeddings()) as rag:
        rag.index([docs])
except GraphRAGError as exc:
    print(exc)
    sys.exit(3)
"""


def _wait_for(condition: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.2)


def test_neo4j_restarted_during_an_index_run_resumes_exactly(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for index in range(8):
        (docs / f"doc{index}.txt").write_text(f"{TEXT} Note {index}.", encoding="utf-8")
    cfg = server_config_from_settings(settings)
    quiet = Console(file=io.StringIO())
    with serving([Slow(3.0, EXTRACTION)]) as fake:
        writer = subprocess.Popen(
            [sys.executable, "-c", RESTART_WRITER, str(docs), fake.base_url,
             str(tmp_path / "cache-killed")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            # Chunks are written before extraction: stop Neo4j while the LLM is answering.
            _wait_for(lambda: store.read("database/count_graph")[0]["chunks"] == 8, 120)
            stop(cfg, quiet)
            output, _ = writer.communicate(timeout=300)
        finally:
            writer.kill()
            start(cfg, quiet)
    text = output.decode("utf-8", "replace").strip()
    assert writer.returncode == 3, text[-2000:]
    assert text.splitlines()[-1].startswith("Neo4j is not reachable at")
    assert not any(
        d["complete"] for d in store.read("indexing/documents/list_documents", skip=0, limit=20)
    )
    _index(settings, docs, [Reply(EXTRACTION)], tmp_path / "resumed")
    resumed = _graph(store)
    store.run_autocommit("database/delete_all")
    _index(settings, docs, [Reply(EXTRACTION)], tmp_path / "clean")
    assert resumed == _graph(store)
    assert all(d["complete"] for d in resumed["documents"]) and len(resumed["documents"]) == 8


def test_an_unreachable_endpoint_is_named_in_the_sentence(
    settings: Settings, tmp_path: Path
) -> None:
    """Nothing listens there: the sentence names the endpoint and what to check, not the
    concurrency (lowering it cannot help)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    endpoint = f"http://127.0.0.1:{port}/v1"
    tuned = _llm_settings(settings, endpoint, tmp_path, max_retries=1)
    with GraphRAG(tuned, embeddings=FakeEmbeddings()) as rag, pytest.raises(ModelError) as failed:
        asyncio.run(rag.llm.complete("Say fine.", stage="probe"))
    sentence = str(failed.value)
    assert endpoint in sentence and "could not be reached" in sentence, sentence
    assert "CONCURRENCY" not in sentence and "GRAPHRAG_LLM__BASE_URL" in sentence
