"""`index --ray` on a real two-node Ray cluster (the test command starts it) writes the graph one
in-process run writes, fast and from triplets, and completes when a worker is killed mid-run."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.integration.cluster.ray_processes import TASK_PREFIX, cluster_address, kill_first, titled
from tests.integration.indexing.test_fast_shards import TEXTS, graph_parts

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("ray_driver")]
PASS_ONE = tuple(TASK_PREFIX + name for name in ("count_terms", "weigh_statements"))


@pytest.fixture(scope="module")
def ray_driver() -> Iterator[None]:
    """This process joins the cluster as a driver for these tests only: later tests fork
    spaCy workers, which a process with Ray's threads should not do."""
    yield
    import ray

    ray.shutdown()


def _rag(settings: Settings, cache: Path, ray: bool, workspace: str = "",
         **extraction: Any) -> GraphRAG:
    # One chunk a task: the six documents are spread over both nodes.
    execution = settings.execution.model_copy(update={
        "ray": ray, "ray_address": cluster_address(), "partition_chunks": 1})
    tuned = settings.model_copy(update={
        "cache_dir": cache, "execution": execution,
        "extraction": settings.extraction.model_copy(update=extraction)})
    return GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings(),
                    workspace=workspace)


def _documents(folder: Path, copies: int = 1) -> list[Path]:
    folder.mkdir()
    paths = []
    for copy in range(copies):
        for number, text in enumerate(TEXTS):
            path = folder / f"part{copy}-{number}.txt"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
    return paths


def _fast_graph(store: Store, settings: Settings, docs: list[Path], cache: Path,
                ray: bool, workspace: str = "") -> dict[str, Any]:
    store.run_autocommit("database/delete_all")
    with _rag(settings, cache, ray, workspace, method="fast") as rag:
        rag.index(docs)
        rag.build_communities(reports="none")  # summaries embedded on the workers with Ray
        return {**graph_parts(rag.store), "counts": rag.counts()}


def test_fast_and_triplets_on_ray_write_the_graph_of_one_run(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> None:
    docs = _documents(tmp_path / "docs")
    one = _fast_graph(store, settings, docs, tmp_path / "cache-one", ray=False)
    on_ray = _fast_graph(store, settings, docs, tmp_path / "cache-ray", ray=True)
    assert [m[:3] for m in one["merges"]] == [("Marley", "Jacob Marley", "alias")]
    assert len(one["relations"]) > 10 and one["counts"]["communities"] > 0
    assert on_ray == one
    # A named workspace's run on the cluster writes the same graph under its own names.
    named = _fast_graph(store, settings, docs, tmp_path / "cache-named", ray=True,
                        workspace="on_ray")
    assert named == one and not graph_parts(store)["entities"]
    corpus = nano_root / "milvus_nano" / "nano_dataset.json"
    graphs = []
    for ray in (False, True):
        store.run_autocommit("database/delete_all")
        with _rag(settings, tmp_path / f"cache-triplets-{ray}", ray) as rag:
            rag.index_triplets(corpus)
        graphs.append(graph_parts(store))
    assert len(graphs[0]["relations"]) > 10
    assert graphs[1] == graphs[0]


def test_a_worker_killed_mid_run_is_retried_and_the_graph_is_the_same(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    docs = _documents(tmp_path / "docs", copies=4)
    one = _fast_graph(store, settings, docs, tmp_path / "cache-one", ray=False)
    # Fresh worker processes load spaCy in their first task: a wide window to kill one in.
    for pid in titled(TASK_PREFIX + "IDLE"):
        os.kill(pid, signal.SIGKILL)
    result: dict[str, Any] = {}

    def run() -> None:
        result["graph"] = _fast_graph(store, settings, docs, tmp_path / "cache-ray", ray=True)

    runner = threading.Thread(target=run)
    runner.start()
    killed = kill_first(PASS_ONE, within_s=120)
    runner.join(timeout=600)
    assert killed is not None, "no pass-1 task was seen running to be killed"
    assert not runner.is_alive(), "the run did not finish after its worker was killed"
    assert result["graph"] == one
