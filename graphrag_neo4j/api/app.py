"""The FastAPI app over a `GraphRAG`: routes, the API key, limits and JSON errors."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI

from graphrag_neo4j.api import admin_routes, health, query_routes
from graphrag_neo4j.api.documents import routes as documents
from graphrag_neo4j.api.documents.job_file import JobFile
from graphrag_neo4j.api.documents.jobs import JobRegistry
from graphrag_neo4j.api.errors import CrashResponse, install_error_handlers
from graphrag_neo4j.api.guards.limits import BodyLimit, ConcurrencyLimit, RequestTimeout
from graphrag_neo4j.api.guards.request_origin import SameOriginWrites, TrustedHosts, allowed_hosts
from graphrag_neo4j.api.guards.security import KeyGate, key_check
from graphrag_neo4j.api.openai import routes as openai_compat
from graphrag_neo4j.api.state import ApiState, WorkspaceStates
from graphrag_neo4j.database.workspaces.keys import KeyFile
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import ServerSettings

UPLOADS_FOLDER = "uploads"
DESCRIPTION = """GraphRAG over Neo4j: ask with any query method (`/v1/query`), chat through the
OpenAI-compatible API (`/v1/chat/completions`, one model per method), add and delete documents.
Send the server's key as `Authorization: Bearer KEY` when it has one."""


def create_app(rag: GraphRAG, server: ServerSettings | None = None) -> FastAPI:
    """An app serving `rag` (the caller keeps and closes it); `server` defaults to its settings
    (its `host` is the address the app is served on: Host headers are checked against it)."""
    limits = server or rag.settings.server
    uploads = rag.settings.cache_dir / UPLOADS_FOLDER
    state = ApiState(rag, limits, JobRegistry(limits.jobs_kept, JobFile.beside(uploads)),
                     uploads)
    workspaces = WorkspaceStates(state, documents.resume_jobs)
    keys = KeyFile(rag.settings.cache_dir)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await health.warm_up(rag)
        await documents.resume_jobs(state)
        yield
        await workspaces.close()
        await state.jobs.close()

    app = FastAPI(title="graphrag-neo4j", description=DESCRIPTION, lifespan=lifespan)
    app.state.api, app.state.workspaces, app.state.keys = state, workspaces, keys
    install_error_handlers(app)
    guarded = [Depends(key_check(limits.api_key, keys))]
    for router in (query_routes.router, openai_compat.router, documents.router,
                   admin_routes.router):
        app.include_router(router, dependencies=guarded)
    app.include_router(health.router)
    # Added innermost first. A request is checked by its headers (Host, Origin and body type,
    # key), then its whole body is read, and only then does it take a concurrency slot: a client
    # without the key, or one sending slowly, cannot keep valid ones out.
    app.add_middleware(RequestTimeout, seconds=limits.request_timeout_s)
    app.add_middleware(ConcurrencyLimit, limit=limits.max_concurrent,
                       retry_after_s=limits.retry_after_s, exempt=("/health",))
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes,
                       read_timeout_s=limits.body_timeout_s)
    app.add_middleware(KeyGate, api_key=limits.api_key, keys=keys)
    app.add_middleware(SameOriginWrites)
    app.add_middleware(TrustedHosts, allowed=allowed_hosts(limits.host, limits.allowed_hosts))
    app.add_middleware(CrashResponse)
    return app
