"""`GET /health`: whether Neo4j answers and which models the engine resolved."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from graphrag_neo4j.api.state import ApiState, api_state
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.registry import method_names
from graphrag_neo4j.runtime.errors import GraphRAGError

router = APIRouter(tags=["health"])
log = logging.getLogger("graphrag_neo4j.api")
PING_TIMEOUT_S = 5.0


async def _neo4j(rag: GraphRAG) -> dict[str, Any]:
    try:
        await asyncio.wait_for(asyncio.to_thread(rag.store.read, "database/ping"), PING_TIMEOUT_S)
    except (GraphRAGError, TimeoutError) as exc:
        reason = str(exc) or f"no answer within {PING_TIMEOUT_S:g} s"
        return {"reachable": False, "uri": rag.settings.neo4j.uri, "error": reason}
    return {"reachable": True, "uri": rag.settings.neo4j.uri}


def _short(identity: str) -> str:
    """Class and model name only: /health is open, so endpoints stay out of it."""
    data = json.loads(identity)
    params = data.get("params", data)
    model = params.get("model_name") or params.get("model") or ""
    return f"{data['class'].rsplit('.', 1)[-1]} {model}".strip()


def models(rag: GraphRAG) -> dict[str, str]:
    """The chat model and embedder the engine uses (resolving them on first call)."""
    return {"llm": _short(rag.llm.identity), "embedder": _short(rag.embedder.identity)}


async def warm_up(rag: GraphRAG) -> None:
    """Resolve the models and apply the schema before the first request; a Neo4j that is down
    is reported by /health rather than stopping the server."""
    await asyncio.to_thread(models, rag)
    try:
        await rag.aensure_schema()
    except GraphRAGError as exc:
        log.warning("Neo4j is not ready yet: %s", exc)


@router.get("/health", summary="Neo4j reachable, models resolved")
async def health(state: ApiState = Depends(api_state)) -> JSONResponse:  # noqa: B008
    """200 when Neo4j answers, 503 when it does not; never needs the API key."""
    neo4j = await _neo4j(state.rag)
    body = {"status": "ok" if neo4j["reachable"] else "degraded", "neo4j": neo4j,
            "models": models(state.rag), "methods": method_names()}
    return JSONResponse(body, status_code=200 if neo4j["reachable"] else 503)
