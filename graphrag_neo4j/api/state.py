"""What every route reads: the engine, the server settings, the job registry, the upload folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fastapi import Request

from graphrag_neo4j.api.documents.jobs import JobRegistry
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import ServerSettings


@dataclass
class ApiState:
    """One per app: the engine is shared by every request (it is safe for concurrent queries)."""

    rag: GraphRAG
    server: ServerSettings
    jobs: JobRegistry
    uploads_dir: Path


async def api_state(request: Request) -> ApiState:
    """The app's state, for a route's `Depends` (async: FastAPI would run a plain function in
    its thread pool, a thread hop per request)."""
    state: ApiState = request.app.state.api
    return state
