"""The job queue is bounded: past server.max_queued_jobs waiting jobs, a new one gets 429."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import pytest
from starlette.exceptions import HTTPException

from graphrag_neo4j.api.documents.jobs import Job, JobRegistry
from graphrag_neo4j.api.documents.routes import require_room
from graphrag_neo4j.api.state import ApiState
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import ServerSettings


async def test_a_full_queue_refuses_new_jobs_until_one_runs(tmp_path: Path) -> None:
    jobs = JobRegistry(kept=10)
    state = ApiState(cast(GraphRAG, None), ServerSettings(max_queued_jobs=2), jobs, tmp_path)
    release = asyncio.Event()

    async def blocked(_: Job) -> dict[str, Any]:
        await release.wait()
        return {}

    for _ in range(3):  # one runs, two wait
        require_room(state)
        jobs.start(jobs.create("index"), blocked)
        await asyncio.sleep(0.01)  # the first takes its turn
    await asyncio.sleep(0.05)
    assert jobs.waiting() == 2
    with pytest.raises(HTTPException) as refused:
        require_room(state)
    assert refused.value.status_code == 429
    assert refused.value.headers == {"Retry-After": "2"}
    assert "server.max_queued_jobs" in refused.value.detail
    release.set()
    await asyncio.sleep(0.05)
    assert jobs.waiting() == 0
    require_room(state)
    await jobs.close()
