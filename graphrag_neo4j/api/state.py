"""What every route reads: the engine, the server settings, the job registry, the upload folder."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from fastapi import Request

from graphrag_neo4j.api.documents.job_file import JobFile
from graphrag_neo4j.api.documents.jobs import JobRegistry
from graphrag_neo4j.api.guards.security import ACCESS_KEY, Access
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import ServerSettings

WORKSPACE_UPLOADS = "uploads-workspaces"


@dataclass
class ApiState:
    """One per app: the engine is shared by every request (it is safe for concurrent queries)."""

    rag: GraphRAG
    server: ServerSettings
    jobs: JobRegistry
    uploads_dir: Path


class WorkspaceStates:
    """The state of each workspace the server's keys open, made on its first request: its
    engine (sharing the models), its job registry and its upload folder, so a job or an
    upload of one workspace is unknown to every other."""

    def __init__(self, base: ApiState, started: Callable[[ApiState], Awaitable[None]]) -> None:
        self.base = base
        self.started = started
        self._states: dict[str, ApiState] = {}
        self._turn = asyncio.Lock()

    def uploads_dir(self, workspace: str) -> Path:
        """Where a named workspace's uploads and job files live (beside the server's own)."""
        return self.base.uploads_dir.parent / WORKSPACE_UPLOADS / workspace

    async def get(self, workspace: str | None) -> ApiState:
        """The state of `workspace` (None, or the server's own: the server's state)."""
        if workspace is None or workspace == self.base.rag.settings.neo4j.workspace:
            return self.base
        async with self._turn:
            if workspace not in self._states:
                uploads = self.uploads_dir(workspace)
                state = ApiState(self.base.rag.for_workspace(workspace), self.base.server,
                                 JobRegistry(self.base.server.jobs_kept, JobFile.beside(uploads)),
                                 uploads)
                await self.started(state)
                self._states[workspace] = state
            return self._states[workspace]

    async def drop(self, workspace: str) -> None:
        """Forget a deleted workspace's state: its jobs end, its engine closes."""
        async with self._turn:
            state = self._states.pop(workspace, None)
        if state is not None:
            await state.jobs.close()
            state.rag.close()

    async def close(self) -> None:
        """End every workspace's jobs and close their engines (not the server's own)."""
        for workspace in list(self._states):
            await self.drop(workspace)


async def api_state(request: Request) -> ApiState:
    """The state of the workspace the request's key opens, for a route's `Depends` (async:
    FastAPI would run a plain function in its thread pool, a thread hop per request)."""
    access = request.scope.get("state", {}).get(ACCESS_KEY)
    states: WorkspaceStates = request.app.state.workspaces
    return await states.get(access.workspace if isinstance(access, Access) else None)
