"""LLM work on a real two-node Ray cluster (the test command starts it), against the fake
OpenAI-compatible server: `index --method llm --ray` and LLM community reports write the graph
one in-process run writes; the calls of every worker share one pace and back off together; a
killed chat actor is restarted and its calls answered; one cost cap holds for all workers."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.cluster.chat_replies import ClusterReplies
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.costs.budget import Budget, BudgetExceededError
from graphrag_neo4j.llm.testing import FakeEmbeddings, pipeline_fake_llm
from graphrag_neo4j.settings import Settings
from tests.integration.cluster.ray_processes import cluster_address
from tests.integration.indexing.test_fast_shards import TEXTS, graph_parts
from tests.integration.llm.fake_openai import (
    FakeOpenAI,
    Reply,
    Slow,
    Status,
    Step,
    serving,
    serving_answers,
)

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("ray_driver")]


@pytest.fixture(scope="module")
def ray_driver() -> Iterator[None]:
    """This process joins the cluster as a driver for these tests only."""
    yield
    import ray

    ray.shutdown()


def _hosted(settings: Settings, base_url: str, cache: Path, ray: bool,
            **llm: Any) -> Settings:
    """The settings of a run whose LLM is the fake server (built from them on each worker)."""
    execution = settings.execution.model_copy(update={
        "ray": ray, "ray_address": cluster_address(), "partition_chunks": 1})
    chat = settings.llm.model_copy(update={
        "provider": "openai", "base_url": base_url, "api_key": "fake-key", "model": "fake-model",
        "max_retries": 3, **llm})
    extraction = settings.extraction.model_copy(update={"method": "llm"})
    return settings.model_copy(update={"cache_dir": cache, "execution": execution, "llm": chat,
                                       "extraction": extraction})


def _llm_graph(store: Store, settings: Settings, docs: list[Path]) -> tuple[dict[str, Any], Any]:
    store.run_autocommit("database/delete_all")
    with GraphRAG(settings, embeddings=FakeEmbeddings()) as rag:
        rag.index(docs)
        rag.build_communities(reports="all")  # LLM reports, on the workers with Ray
        reports = sorted((r["level"], r["title"], r["summary"])
                         for r in store.read("communities/reports/list_community_reports"))
        remote = rag.llm.remote
        served = remote.served() if isinstance(remote, ClusterReplies) else None
        return {**graph_parts(store), "reports": reports, "counts": rag.counts()}, served


def test_llm_extraction_and_reports_on_ray_write_the_graph_of_one_run(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    docs = []
    (tmp_path / "docs").mkdir()
    for number, text in enumerate(TEXTS):
        docs.append(tmp_path / "docs" / f"part{number}.txt")
        docs[-1].write_text(text, encoding="utf-8")
    with serving_answers(pipeline_fake_llm().answer) as fake:
        one, _ = _llm_graph(store, _hosted(settings, fake.base_url, tmp_path / "one", False),
                            docs)
        calls_in_process = len(fake.requests)
        on_ray, served = _llm_graph(
            store, _hosted(settings, fake.base_url, tmp_path / "ray", True), docs)
        calls_on_ray = len(fake.requests) - calls_in_process
    assert len(one["entities"]) > 10 and len(one["reports"]) > 0
    assert on_ray == one
    # Every call was made once, by the workers: each actor (one per node) made some.
    assert calls_on_ray == calls_in_process == sum(served)
    assert len(served) == 2 and min(served) > 0


def _cluster_caller(settings: Settings, fake: FakeOpenAI, tmp_path: Path,
                    budget: Budget | None = None, **llm: Any) -> tuple[LLMCaller, ClusterReplies]:
    hosted = _hosted(settings, fake.base_url, tmp_path, True, **llm)
    from graphrag_neo4j.llm.providers import resolve_llm

    replies = ClusterReplies.from_settings(hosted)
    caller = LLMCaller(resolve_llm(hosted).source, hosted.llm, None, backoff_initial_s=0.01,
                       backoff_max_s=0.05, budget=budget, remote=replies)
    return caller, replies


async def _complete_all(caller: LLMCaller, count: int) -> list[str]:
    return list(await asyncio.gather(*(caller.complete(f"question {n}", stage="x")
                                       for n in range(count))))


def test_the_workers_share_one_pace(settings: Settings, tmp_path: Path) -> None:
    rate, calls = 10.0, 21  # calls a second; one limit for the cluster, not one per worker
    with serving([Reply("done")]) as fake:
        caller, replies = _cluster_caller(settings, fake, tmp_path, concurrency=8,
                                          requests_per_minute=rate * 60)
        assert asyncio.run(_complete_all(caller, calls)) == ["done"] * calls
        times = sorted(fake.times)
    served = replies.served()
    assert len(served) == 2 and min(served) > 0 and sum(served) == calls
    # Two workers with a limit each would send about twice the rate.
    assert times[-1] - times[0] >= (calls - 1) / rate * 0.9
    most_in_a_second = max(sum(1 for t in times if start <= t < start + 1.0) for start in times)
    assert most_in_a_second <= rate + 2


def test_the_workers_share_one_cost_cap(settings: Settings, tmp_path: Path) -> None:
    with serving([Reply("done")]) as fake:
        caller, replies = _cluster_caller(settings, fake, tmp_path, Budget(max_calls=5),
                                          concurrency=4)
        with pytest.raises(BudgetExceededError, match="--max-llm-calls 5"):
            asyncio.run(_complete_all(caller, 9))
        sent = len(fake.requests)
    served = replies.served()
    assert sent == sum(served) == 5 and min(served) > 0  # five in all, not five a worker


def test_a_429_backs_every_worker_off_together(settings: Settings, tmp_path: Path) -> None:
    # The first request is refused with Retry-After: 1, the others answer after 0.3 s: the
    # call sent beside the refused one is still running when the 429 comes back.
    script: list[Step] = [Status(429, retry_after="1"), Slow(0.3, "done")]
    with serving(script) as fake:
        caller, replies = _cluster_caller(settings, fake, tmp_path, concurrency=2)
        assert asyncio.run(_complete_all(caller, 8)) == ["done"] * 8
        times = list(fake.times)
    served = replies.served()
    assert len(served) == 2 and min(served) > 0 and sum(served) == 8
    # A limiter per worker would send the next call as soon as the refused one freed its
    # slot; the one limiter holds every call back until the Retry-After has passed.
    refused_at, started_after = times[0], times[2:]
    assert min(started_after) - refused_at >= 1.0 * 0.9


def test_a_chat_worker_killed_mid_run_is_restarted_and_every_call_answers(
    settings: Settings, tmp_path: Path
) -> None:
    with serving([Slow(0.2, "done")]) as fake:
        caller, replies = _cluster_caller(settings, fake, tmp_path, concurrency=2)
        victim = replies.pids()[0]

        def kill_when_both_answered() -> None:
            # A 4th request is sent only once both first two calls (one per actor) answered.
            deadline = time.monotonic() + 60
            while len(fake.requests) < 4 and time.monotonic() < deadline:
                time.sleep(0.01)
            os.kill(victim, signal.SIGKILL)

        killer = threading.Thread(target=kill_when_both_answered)
        killer.start()
        assert asyncio.run(_complete_all(caller, 12)) == ["done"] * 12
        killer.join()
    # Ray started the killed actor again (a new process, its count gone with the old one).
    assert victim not in replies.pids()
    served = replies.served()
    assert len(served) == 2 and sum(served) < 12
