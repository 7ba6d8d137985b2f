"""`POST /v1/query`: an answer with citations and context as JSON, or streamed as events."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from graphrag_neo4j.api.answers import answer_json, checked_call, checked_question, json_response
from graphrag_neo4j.api.errors import stream_error
from graphrag_neo4j.api.state import ApiState, api_state
from graphrag_neo4j.api.streaming.sse import SSE_HEADERS, SSE_MEDIA_TYPE, sse_frame
from graphrag_neo4j.api.streaming.token_stream import StreamedQuery
from graphrag_neo4j.query.registry import DEFAULT_METHOD, method_guide

router = APIRouter(prefix="/v1", tags=["query"])


class QueryRequest(BaseModel):
    """A question for one query method."""

    question: str = Field(description="The question to answer.")
    method: str | None = Field(
        None, description=f"The query method (default {DEFAULT_METHOD}), one of:\n{method_guide()}"
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Per-query options: response_type, history ([[role, text], ...]), level,"
        ' mentions, or any [search] setting, dotted or nested (e.g. "local.top_chunks": 5 or'
        ' "hops": {"degree": 2}).',
    )
    stream: bool = Field(False, description="Stream the answer as server-sent events.")
    retrieve_only: bool = Field(False, description="Return the context only; no LLM answer.")


@router.post("/query", summary="Answer a question (or retrieve its context)")
async def query(body: QueryRequest, state: ApiState = Depends(api_state)) -> Any:  # noqa: B008
    """JSON `{answer, method, citations, notes, note_kinds, selection, usage, context}`; with
    `stream`, events `token` (`{"text"}`) and then one `answer` event with that JSON (or
    `error`)."""
    rag = state.rag
    question = checked_question(body.question, state.server)
    options = checked_call(rag, question, body.method, body.options, state.server)
    if body.retrieve_only:
        return json_response(answer_json(await rag.aretrieve(question, body.method, **options)))
    if not body.stream:
        return json_response(answer_json(await rag.aquery(question, body.method, **options)))
    stream = StreamedQuery(lambda sink: rag.aquery(question, body.method, on_token=sink,
                                                   **options))
    return StreamingResponse(_events(stream), media_type=SSE_MEDIA_TYPE, headers=SSE_HEADERS)


async def _events(stream: StreamedQuery) -> AsyncIterator[bytes]:
    try:
        async for piece in stream.pieces():
            yield sse_frame({"text": piece}, event="token")
        yield sse_frame(answer_json(await stream.answer()), event="answer")
    except Exception as exc:
        yield sse_frame(stream_error(exc), event="error")
