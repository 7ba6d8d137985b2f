"""Jobs kept on disk: a server stopped mid-job leaves it to resume, finished ones are reported."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path
from typing import Any

from graphrag_neo4j.api.documents.job_file import JobFile
from graphrag_neo4j.api.documents.jobs import Job, JobRegistry


async def test_jobs_stopped_with_the_server_come_back_queued(tmp_path: Path) -> None:
    file = JobFile.beside(tmp_path)
    jobs = JobRegistry(kept=10, file=file)
    started = asyncio.Event()

    async def slow(_: Job) -> dict[str, Any]:
        started.set()
        await asyncio.sleep(60)
        return {}

    async def quick(_: Job) -> dict[str, Any]:
        return {"documents": 1}

    done = jobs.create("index", params={"communities": False})
    jobs.start(done, quick)
    await asyncio.sleep(0.01)
    running = jobs.create("delete", params={"document_id": "a/b"})
    jobs.start(running, slow)
    waiting = jobs.create("index")
    jobs.start(waiting, quick)
    await started.wait()
    await jobs.close()  # the server stops

    restored = JobRegistry(kept=10, file=file)
    unfinished = restored.restore()
    assert [(j.id, j.status, j.resumed) for j in unfinished] == [
        (running.id, "queued", True), (waiting.id, "queued", True)]
    assert unfinished[0].params == {"document_id": "a/b"}
    reported = restored.get(done.id)
    assert reported is not None and reported.status == "succeeded"
    assert reported.result == {"documents": 1}
    mode = stat.S_IMODE((file.folder / f"{done.id}.json").stat().st_mode)
    assert mode == 0o600


async def test_forgotten_jobs_lose_their_file_and_a_broken_file_is_skipped(
    tmp_path: Path,
) -> None:
    file = JobFile.beside(tmp_path)
    jobs = JobRegistry(kept=1, file=file)

    async def quick(_: Job) -> dict[str, Any]:
        return {}

    first = jobs.create("index")
    jobs.start(first, quick)
    await asyncio.sleep(0.01)
    second = jobs.create("index")
    jobs.start(second, quick)
    await asyncio.sleep(0.01)
    jobs.create("index")  # the oldest finished one is forgotten, file and all
    assert not (file.folder / f"{first.id}.json").exists()
    (file.folder / "broken.json").write_text("{not json")
    assert {r["id"] for r in file.load()} == {j.id for j in jobs.all()}
    await jobs.close()
