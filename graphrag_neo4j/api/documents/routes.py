"""`/v1/documents` and `/v1/jobs`: add (text or file) and delete as background jobs, list, poll."""

from __future__ import annotations

import asyncio
import logging
import shutil
import uuid
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError
from rich.console import Console
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException

from graphrag_neo4j.api.answers import jsonable
from graphrag_neo4j.api.documents.jobs import Job
from graphrag_neo4j.api.documents.uploads import (
    job_folder,
    job_folders,
    remove_unused,
    safe_name,
    save_record,
    save_upload,
    upload_folder,
)
from graphrag_neo4j.api.errors import validation_sentence
from graphrag_neo4j.api.mcp.graph_lookup import MAX_SKIP, list_documents
from graphrag_neo4j.api.state import ApiState, api_state
from graphrag_neo4j.runtime.errors import GraphRAGError
from graphrag_neo4j.runtime.progress import StageProgress

log = logging.getLogger("graphrag_neo4j.api")

router = APIRouter(prefix="/v1", tags=["documents"])
_TRUE = {"true", "1", "yes", "on"}
MAX_PAGE = 1000


class TextDocument(BaseModel):
    """A document sent as JSON text."""

    text: str = Field(min_length=1, description="The document's text.")
    title: str = Field("", description="Its title, kept as given (default: its first words).")
    communities: bool = Field(True, description="Re-cluster communities (and reports) after.")


_FORM = {"type": "object", "required": ["file"], "properties": {
    "file": {"type": "string", "format": "binary"}, "title": {"type": "string"},
    "communities": {"type": "boolean"}}}
_UPLOAD_BODY = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": TextDocument.model_json_schema()},
    "multipart/form-data": {"schema": _FORM}}}}


@router.post("/documents", status_code=202, openapi_extra=_UPLOAD_BODY,
             summary="Add a document (JSON text or a file upload); indexing runs as a job")
async def add_document(request: Request, state: ApiState = Depends(api_state)) -> JSONResponse:  # noqa: B008
    """202 with the job; poll `GET /v1/jobs/{id}` for progress and the new document ids."""
    require_room(state)
    job_id = uuid.uuid4().hex
    folder = job_folder(state.uploads_dir, job_id)
    try:
        communities = await _receive(request, folder, state)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    job = state.jobs.create("index", job_id, {"communities": communities})
    _start(state, job)
    return _accepted(job)


def _start(state: ApiState, job: Job) -> None:
    """Run a job from what it recorded, so a restored one runs as a new one would."""
    communities = bool(job.params.get("communities", True))
    if job.kind == "index":
        folder = state.uploads_dir / job.id
        state.jobs.start(job, lambda job: _index(state, job, folder, communities))
    else:
        document_id = str(job.params["document_id"])
        state.jobs.start(job, lambda _: _delete(state, document_id, communities))


async def resume_jobs(state: ApiState) -> None:
    """At startup: jobs the last server left unfinished run again, the rest are reported, and
    upload folders no job waits for and no document was read from are removed."""
    for job in state.jobs.restore():
        if job.kind == "index" and not (state.uploads_dir / job.id).is_dir():
            state.jobs.finish(job, "The server stopped before this upload was indexed and its"
                              " file is gone; send it again.")
        elif job.kind in ("index", "delete"):
            _start(state, job)
    waiting = {j.id for j in state.jobs.all() if j.status in ("queued", "running")}
    orphans = [f for f in job_folders(state.uploads_dir) if f.name not in waiting]
    removed = await _remove_unused(state, orphans)
    if removed:
        log.info("removed %d upload folders no document was read from", len(removed))


async def _remove_unused(state: ApiState, folders: list[Path]) -> list[Path]:
    """`remove_unused` in a thread; with Neo4j unreachable every folder is kept (next time)."""
    try:
        return await asyncio.to_thread(remove_unused, state.rag.store, folders)
    except GraphRAGError as exc:
        log.warning("upload folders kept, Neo4j did not say which are in use: %s", exc)
        return []


def require_room(state: ApiState) -> None:
    """429 with Retry-After when server.max_queued_jobs jobs already wait (checked before an
    upload is saved, so a flood of uploads neither queues nor fills the disk)."""
    limit = state.server.max_queued_jobs
    if state.jobs.waiting() >= limit:
        raise HTTPException(
            429, f"{limit} jobs are waiting already (server.max_queued_jobs); retry once"
            " some have run.", headers={"Retry-After": str(state.server.retry_after_s)},
        )


async def _receive(request: Request, folder: Path, state: ApiState) -> bool:
    """Save the sent document into `folder`; whether communities are rebuilt after."""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form(max_files=1, max_fields=5)
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise HTTPException(400, "Send the file in a multipart form field named `file`.")
        original = upload.filename or "document.txt"
        title = form.get("title")
        name = safe_name(f"{title}{Path(original).suffix}" if isinstance(title, str) and title
                         else original)
        await save_upload(folder, name, upload)
        return str(form.get("communities", "true")).lower() in _TRUE
    try:
        document = TextDocument.model_validate_json(await request.body())
    except ValidationError as exc:
        raise HTTPException(400, validation_sentence(exc.errors())) from None
    extraction = state.rag.settings.extraction
    save_record(folder, {extraction.text_field: document.text,
                         extraction.title_field: document.title})
    return document.communities


async def _index(state: ApiState, job: Job, folder: Path, communities: bool) -> dict[str, Any]:
    with StageProgress(Console(quiet=True)) as progress:
        job.progress = progress
        try:
            stats, loaded = await state.rag.aindex([folder], progress=progress)
        except GraphRAGError:
            # An upload whose every file is skipped fails here, with the first reason; its
            # files go unless a document was written from them before the failure.
            await _remove_unused(state, [folder])
            raise
        result: dict[str, Any] = {
            "documents": [{"id": d.id, "title": d.title} for d in loaded.documents],
            "skipped": [skipped.reason for skipped in loaded.skipped],
            "indexing": jsonable(asdict(stats)),
        }
        if communities:
            built = await state.rag.abuild_communities(progress)
            result["communities"] = jsonable(asdict(built))
    return result


@router.get("/documents", summary="Indexed documents with their ids")
async def get_documents(
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    skip: Annotated[int, Query(ge=0, le=MAX_SKIP)] = 0,
    state: ApiState = Depends(api_state),  # noqa: B008
) -> dict[str, Any]:
    """`{"object": "list", "data": [{id, title, source, chunks, complete}]}`."""
    rows = await list_documents(state.rag, limit=limit, skip=skip)
    return {"object": "list", "data": jsonable(rows)}


@router.delete("/documents", status_code=202,
               summary="Delete the document `?id=` names (any id, `/` included), as a job")
async def delete_document_by_query(
    id: Annotated[str, Query(min_length=1, description="The document's id.")],
    communities: bool = True, state: ApiState = Depends(api_state),  # noqa: B008
) -> JSONResponse:
    """202 with the job; 404 when no document has this id."""
    return await delete_document(id, communities, state)


@router.delete("/documents/{document_id:path}", status_code=202,
               summary="Delete a document and what only it supported, as a job")
async def delete_document(
    document_id: str, communities: bool = True, state: ApiState = Depends(api_state)  # noqa: B008
) -> JSONResponse:
    """202 with the job; 404 when no document has this id (an id with `/` may be sent as is,
    percent-encoded, or as `DELETE /v1/documents?id=`)."""
    require_room(state)
    found = await asyncio.to_thread(state.rag.store.read, "api/find_document", id=document_id)
    if not found:
        raise HTTPException(404, f"No document with id {document_id!r}; list them with"
                            " GET /v1/documents.")
    job = state.jobs.create("delete", params={"document_id": document_id,
                                              "communities": communities})
    _start(state, job)
    return _accepted(job)


async def _delete(state: ApiState, document_id: str, communities: bool) -> dict[str, Any]:
    """The document, then its uploaded file once no other document was read from it."""
    found = await asyncio.to_thread(state.rag.store.read, "api/find_document", id=document_id)
    result: dict[str, Any] = {"deleted": asdict(await state.rag.adelete(document_id))}
    folder = upload_folder(state.uploads_dir, found[0]["source"]) if found else None
    removed = await _remove_unused(state, [folder] if folder else [])
    result["upload_removed"] = bool(removed)
    if communities:
        result["communities"] = jsonable(asdict(
            await state.rag.abuild_communities(incremental=True)))
    return result


def _accepted(job: Job) -> JSONResponse:
    return JSONResponse(job.as_json(), status_code=202,
                        headers={"Location": f"/v1/jobs/{job.id}"})


@router.get("/jobs/{job_id}", summary="A job's status, progress and result")
async def get_job(job_id: str, state: ApiState = Depends(api_state)) -> dict[str, Any]:  # noqa: B008
    """Status is queued, running, succeeded or failed (with `error`, one sentence)."""
    job = state.jobs.get(job_id)
    if job is None:
        raise HTTPException(404, f"No job with id {job_id!r}; jobs are kept until the server"
                            " restarts (the oldest finished ones are dropped first).")
    return job.as_json()


@router.get("/jobs", summary="Remembered jobs, newest first")
async def get_jobs(state: ApiState = Depends(api_state)) -> dict[str, Any]:  # noqa: B008
    """`{"object": "list", "data": [job, ...]}`."""
    return {"object": "list", "data": [job.as_json() for job in state.jobs.all()]}
