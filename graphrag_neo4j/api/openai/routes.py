"""OpenAI-compatible `/v1/models` and `/v1/chat/completions`: one model per query method."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from graphrag_neo4j.api.answers import check_sizes, checked_call, checked_question, usage_json
from graphrag_neo4j.api.errors import stream_error
from graphrag_neo4j.api.openai.client_tasks import answer_client_task, is_client_task
from graphrag_neo4j.api.openai.reply_warnings import warning_block, without_warnings
from graphrag_neo4j.api.state import ApiState, api_state
from graphrag_neo4j.api.streaming.sse import SSE_HEADERS, SSE_MEDIA_TYPE, sse_frame
from graphrag_neo4j.api.streaming.token_stream import StreamedQuery
from graphrag_neo4j.llm.calls.streaming import TokenSink
from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.query.registry import METHODS

router = APIRouter(prefix="/v1", tags=["openai"])
MODEL_PREFIX = "graphrag-"
OWNER = "graphrag-neo4j"
Answerer = Callable[[TokenSink | None], Awaitable[Answer]]


class ChatMessage(BaseModel):
    """One message; content is text or OpenAI's list of parts (text parts are read)."""

    model_config = ConfigDict(extra="allow")
    role: str
    content: str | list[dict[str, Any]] | None = None


class ChatRequest(BaseModel):
    """OpenAI's chat request; sampling fields are accepted and ignored (settings rule the LLM).
    `options` (e.g. through the SDK's `extra_body`) go to the query like /v1/query's."""

    model_config = ConfigDict(extra="allow")
    model: str
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    options: dict[str, Any] = Field(default_factory=dict)


def model_ids() -> list[str]:
    """`graphrag-<method>` for every registered method."""
    return [f"{MODEL_PREFIX}{name}" for name in METHODS]


def _model_card(model_id: str) -> dict[str, Any]:
    """OpenAI's model object, with what the model's method is good for (an extra field)."""
    description = METHODS[model_id.removeprefix(MODEL_PREFIX)].description
    return {"id": model_id, "object": "model", "created": 0, "owned_by": OWNER,
            "description": description}


def method_of(model: str) -> str:
    """The query method a model id names; 404 for any other model."""
    if model not in model_ids():
        raise HTTPException(
            404, f"The model {model!r} does not exist: use one of {', '.join(model_ids())}."
        )
    return model.removeprefix(MODEL_PREFIX)


def _text(message: ChatMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    parts = message.content or []
    return "\n".join(str(p.get("text", "")) for p in parts if p.get("type") == "text")


def conversation(messages: list[ChatMessage]) -> tuple[str, list[tuple[str, str]]]:
    """The last user message is the question; the earlier messages are the history."""
    last = messages[-1]
    if last.role != "user" or not _text(last).strip():
        raise HTTPException(400, "The last message must be the user's question, with text.")
    history = [(m.role, without_warnings(_text(m)) if m.role == "assistant" else _text(m))
               for m in messages[:-1] if _text(m).strip()]
    return _text(last), history


@router.get("/models", summary="The query methods, as OpenAI models")
async def list_models() -> dict[str, Any]:
    """OpenAI's model list: `graphrag-<method>` for every registered method."""
    return {"object": "list", "data": [_model_card(m) for m in model_ids()]}


@router.get("/models/{model_id}", summary="One model")
async def get_model(model_id: str) -> dict[str, Any]:
    """OpenAI's model object, or 404."""
    method_of(model_id)
    return _model_card(model_id)


@router.post("/chat/completions", summary="OpenAI-compatible chat over the graph")
async def chat_completions(
    body: ChatRequest, state: ApiState = Depends(api_state)  # noqa: B008
) -> Any:
    """The answer of the model's method to the last user message, earlier ones as history; a
    chat client's own chore (server.client_task_prefixes) goes to the chat model alone."""
    run = _answerer(body, method_of(body.model), state)
    reply = _Reply(body.model)
    if not body.stream:
        return reply.completion(await run(None))
    include_usage = bool((body.stream_options or {}).get("include_usage"))
    return StreamingResponse(reply.chunks(StreamedQuery(run), include_usage),
                             media_type=SSE_MEDIA_TYPE, headers=SSE_HEADERS)


def _answerer(body: ChatRequest, method: str, state: ApiState) -> Answerer:
    """What answers the request, checked before anything runs (so a stream never starts on a
    mistake); it takes a sink for streamed text or None."""
    turns = [(message.role, _text(message)) for message in body.messages]
    if is_client_task(turns, state.server.client_task_prefixes):
        check_sizes({"history": turns}, state.server)
        return lambda sink: answer_client_task(state.rag.llm, turns, sink)
    question, history = conversation(body.messages)
    checked_question(question, state.server)
    options = checked_call(state.rag, question, method, {**body.options, "history": history},
                           state.server)
    return lambda sink: state.rag.aquery(question, method, on_token=sink, **options)


class _Reply:
    """The id, time and model shared by a completion or by every chunk of one stream."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.id = f"chatcmpl-{uuid.uuid4().hex}"
        self.created = int(time.time())

    def _head(self, kind: str) -> dict[str, Any]:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}

    def completion(self, answer: Answer) -> dict[str, Any]:
        """OpenAI's `chat.completion` object."""
        message = {"role": "assistant", "content": answer.text + warning_block(answer)}
        choice = {"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}
        return {**self._head("chat.completion"), "choices": [choice], "usage": _usage(answer)}

    def _chunk(self, delta: dict[str, str], finish: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return sse_frame({**self._head("chat.completion.chunk"), "choices": [choice]})

    async def chunks(self, stream: StreamedQuery, include_usage: bool) -> AsyncIterator[bytes]:
        """`chat.completion.chunk` frames, a usage chunk when asked for, then `[DONE]`."""
        yield self._chunk({"role": "assistant", "content": ""})
        try:
            async for piece in stream.pieces():
                yield self._chunk({"content": piece})
            answer = await stream.answer()
        except Exception as exc:
            yield sse_frame(stream_error(exc))
            return
        if block := warning_block(answer):
            yield self._chunk({"content": block})
        yield self._chunk({}, finish="stop")
        if include_usage:
            usage_chunk = {**self._head("chat.completion.chunk"), "choices": [],
                           "usage": _usage(answer)}
            yield sse_frame(usage_chunk)
        yield sse_frame("[DONE]")


def _usage(answer: Answer) -> dict[str, int]:
    # OpenAI's usage has no call count.
    return {k: v for k, v in usage_json(answer).items() if k != "llm_calls"}
