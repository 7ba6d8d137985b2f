"""The admin key's routes: create, list and delete workspaces, and the keys bound to them."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from graphrag_neo4j.api.guards.security import ACCESS_KEY, Access
from graphrag_neo4j.api.state import WorkspaceStates
from graphrag_neo4j.database.workspaces.catalog import delete_workspace, list_workspaces
from graphrag_neo4j.database.workspaces.keys import KeyFile
from graphrag_neo4j.database.workspaces.names import Workspace, check_name
from graphrag_neo4j.runtime.errors import ConfigError


async def require_admin(request: Request) -> None:
    """Refuse (403) a request whose key is a workspace key, or a server without an admin key
    (workspace keys need one: without it, every request opens everything)."""
    access = request.scope.get("state", {}).get(ACCESS_KEY)
    if request.app.state.api.server.api_key is None:
        raise HTTPException(403, "Workspaces and their keys are managed with the admin key:"
                            " start the server with server.api_key set.")
    if not isinstance(access, Access) or not access.admin:
        raise HTTPException(403, "This route needs the admin key (server.api_key), not a"
                            " workspace key.")


router = APIRouter(prefix="/v1/admin", dependencies=[Depends(require_admin)])


class WorkspaceRequest(BaseModel):
    """A workspace to create."""

    name: str = Field(max_length=64)


class KeyRequest(BaseModel):
    """The workspace a new key opens ('default' for the default workspace)."""

    workspace: str = Field(max_length=64)


def _parts(request: Request) -> tuple[WorkspaceStates, KeyFile]:
    return request.app.state.workspaces, request.app.state.keys


def _name(name: str) -> str:
    try:
        return check_name(name)
    except ConfigError as exc:
        raise HTTPException(400, str(exc)) from exc


@router.get("/workspaces")
async def get_workspaces(request: Request) -> dict[str, Any]:
    """Every workspace with its counts and how many keys open it."""
    states, keys = _parts(request)
    found = await asyncio.to_thread(list_workspaces, states.base.rag.store)
    bound = [key.workspace for key in keys.all()]
    return {"object": "list", "data": [
        {"name": entry.label, **entry.counts, "keys": bound.count(entry.name)}
        for entry in found]}


@router.post("/workspaces", status_code=201)
async def create_workspace(body: WorkspaceRequest, request: Request) -> dict[str, Any]:
    """Create a workspace: its constraints and indexes (an existing one is left as it is)."""
    name = _name(body.name)
    states, _ = _parts(request)
    state = await states.get(name)
    await state.rag.aensure_schema()
    return {"name": Workspace(name).label}


@router.delete("/workspaces/{name}")
async def remove_workspace(name: str, request: Request) -> dict[str, Any]:
    """Delete a named workspace, everything in it, its indexes and its keys (again: a no-op)."""
    checked = _name(name)
    if not checked:
        raise HTTPException(400, "The default workspace cannot be deleted; delete its"
                            " documents, or run `graphrag-neo4j wipe`.")
    states, keys = _parts(request)
    state = await states.get(checked)
    held = await asyncio.to_thread(delete_workspace, state.rag.store)
    await states.drop(checked)
    return {"name": checked, "deleted": held, "keys_deleted": keys.delete_workspace(checked)}


@router.post("/keys", status_code=201)
async def create_key(body: KeyRequest, request: Request) -> dict[str, Any]:
    """A new key of a workspace; the key itself is in this reply only (the server keeps its
    hash)."""
    _, keys = _parts(request)
    record, key = keys.create(_name(body.workspace))
    return {**record.public(), "key": key}


@router.get("/keys")
async def get_keys(request: Request) -> dict[str, Any]:
    """Every key's id, workspace and age; never a key or its hash."""
    _, keys = _parts(request)
    return {"object": "list", "data": [key.public() for key in keys.all()]}


@router.delete("/keys/{key_id}")
async def delete_key(key_id: str, request: Request) -> dict[str, Any]:
    """Revoke a key at once."""
    _, keys = _parts(request)
    if not keys.delete(key_id):
        raise HTTPException(404, f"No key has the id {key_id!r}.")
    return {"id": key_id, "deleted": True}
