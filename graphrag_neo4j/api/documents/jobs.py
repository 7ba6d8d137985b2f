"""Background jobs (indexing, deletion): one at a time, with progress and a result to poll,
recorded on disk (see `job_file`) so a restart resumes the unfinished ones and reports the rest."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from graphrag_neo4j.api.documents.job_file import JobFile
from graphrag_neo4j.api.errors import internal_sentence
from graphrag_neo4j.runtime.errors import GraphRAGError
from graphrag_neo4j.runtime.progress import StageProgress

log = logging.getLogger("graphrag_neo4j.api")
Status = Literal["queued", "running", "succeeded", "failed"]


@dataclass
class Job:
    """One job: its state, the stages' progress while it runs, and its result or error."""

    kind: str
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    status: Status = "queued"
    created_at: float = field(default_factory=time.time)
    started_at: float | None = None
    finished_at: float | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    progress: StageProgress | None = None
    # What running the job again needs (the upload's folder, the document id, ...): kept on disk.
    params: dict[str, Any] = field(default_factory=dict)
    resumed: bool = False  # restarted after the server stopped while it waited or ran

    def as_json(self) -> dict[str, Any]:
        """The job as the API reports it."""
        return {
            "id": self.id, "kind": self.kind, "status": self.status,
            "created_at": self.created_at, "started_at": self.started_at,
            "finished_at": self.finished_at,
            "progress": self.progress.snapshot() if self.progress else [],
            "result": self.result, "error": self.error, "resumed": self.resumed,
        }

    def record(self) -> dict[str, Any]:
        """The job as its file keeps it."""
        return {**{k: v for k, v in self.as_json().items() if k != "progress"},
                "params": self.params}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Job:
        """The job a file kept (its progress is gone with the process that showed it)."""
        fields = ("kind", "id", "status", "created_at", "started_at", "finished_at", "result",
                  "error", "params", "resumed")
        return cls(**{name: record[name] for name in fields if name in record})


Work = Callable[[Job], Awaitable[dict[str, Any]]]


class JobRegistry:
    """Runs jobs in the server's event loop, one after another, since they all write the graph."""

    def __init__(self, kept: int, file: JobFile | None = None) -> None:
        self.kept = kept
        self.file = file
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._turn = asyncio.Lock()

    def create(
        self, kind: str, job_id: str | None = None, params: dict[str, Any] | None = None
    ) -> Job:
        """A queued job (an upload names its folder after the id before the job exists);
        `params` is what running it again after a restart needs."""
        job = Job(kind, id=job_id or uuid.uuid4().hex, params=params or {})
        self._jobs[job.id] = job
        self._save(job)
        self._forget_old()
        return job

    def restore(self) -> list[Job]:
        """Remember the jobs on disk; the unfinished ones come back queued, to be started."""
        unfinished = []
        for record in self.file.load() if self.file else []:
            job = Job.from_record(record)
            if job.status in ("queued", "running"):
                job.status, job.started_at, job.resumed = "queued", None, True
                unfinished.append(job)
            self._jobs[job.id] = job
            self._save(job)
        self._forget_old()
        return unfinished

    def finish(self, job: Job, error: str) -> None:
        """Mark a job failed without running it (what it needed is gone)."""
        job.status, job.error, job.finished_at = "failed", error, time.time()
        self._save(job)

    def start(self, job: Job, work: Work) -> None:
        """Run `work(job)` in the background; its dict becomes the job's result."""
        task = asyncio.create_task(self._run(job, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def waiting(self) -> int:
        """How many jobs wait for their turn."""
        return sum(1 for job in self._jobs.values() if job.status == "queued")

    def get(self, job_id: str) -> Job | None:
        """The job with this id, if it is still remembered."""
        return self._jobs.get(job_id)

    def all(self) -> list[Job]:
        """Every remembered job, newest first."""
        return list(reversed(self._jobs.values()))

    async def _run(self, job: Job, work: Work) -> None:
        async with self._turn:
            job.status, job.started_at = "running", time.time()
            self._save(job)
            try:
                job.result = await work(job)
                job.status = "succeeded"
            except GraphRAGError as exc:
                job.status, job.error = "failed", str(exc)
            except asyncio.CancelledError:
                # The server is stopping: on disk the job waits again, and the next start
                # runs it (its writes are idempotent, so running it again resumes it).
                job.status, job.started_at = "queued", None
                self._save(job)
                job.status = "failed"
                job.error = "The server stopped before the job finished; it resumes on restart."
                raise
            except Exception as exc:
                log.error("job %s (%s) failed", job.id, job.kind, exc_info=exc)
                job.status = "failed"
                job.error = internal_sentence(exc)
            job.finished_at = time.time()
            self._save(job)

    def _save(self, job: Job) -> None:
        if self.file is not None:
            self.file.save(job.record())

    def _forget_old(self) -> None:
        finished = [j.id for j in self._jobs.values() if j.finished_at is not None]
        for job_id in finished[: max(0, len(self._jobs) - self.kept)]:
            del self._jobs[job_id]
            if self.file is not None:
                self.file.forget(job_id)

    async def close(self) -> None:
        """Cancel running jobs (their writes are idempotent: indexing again resumes)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
