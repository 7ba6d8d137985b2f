"""Every error the API returns: JSON in OpenAI's shape, one sentence in `error.message`."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphrag_neo4j.runtime.errors import (
    ConfigError,
    GraphRAGError,
    ModelError,
    Neo4jUnavailableError,
    ServerLimitError,
)

log = logging.getLogger("graphrag_neo4j.api")

# OpenAI's error types, so its SDK raises the matching exception class.
_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
          404: "not_found_error", 408: "timeout", 413: "invalid_request_error",
          415: "invalid_request_error", 422: "invalid_request_error", 429: "rate_limit_error",
          503: "service_unavailable", 504: "timeout"}


def error_body(status: int, message: str) -> dict[str, dict[str, str | int]]:
    """The JSON body of an error: {"error": {"message", "type", "code"}}."""
    return {"error": {"message": message, "type": _TYPES.get(status, "server_error"),
                      "code": status}}


def error_response(
    status: int, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """A JSON error response for route code."""
    return JSONResponse(error_body(status, message), status_code=status, headers=headers)


async def send_error(
    send: Send, status: int, message: str, headers: Mapping[str, str] | None = None
) -> None:
    """Send a JSON error straight over ASGI (for middleware, below FastAPI's handlers)."""
    body = json.dumps(error_body(status, message)).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def status_of(exc: GraphRAGError) -> int:
    """The HTTP status of an engine error: unreachable or refusing services 503, bad settings
    500."""
    if isinstance(exc, Neo4jUnavailableError | ModelError | ServerLimitError):
        return 503
    if isinstance(exc, ConfigError):
        return 500
    return 400


def internal_sentence(exc: BaseException) -> str:
    """What a client learns of a crash: its kind only; the log has the traceback."""
    return f"Internal error ({type(exc).__name__}); the server log has the details."


def stream_error(exc: Exception) -> dict[str, dict[str, str | int]]:
    """The error body of a failure after a stream began (sent as its last event)."""
    if isinstance(exc, GraphRAGError):
        return error_body(status_of(exc), str(exc))
    log.error("streamed answer failed", exc_info=exc)
    return error_body(500, internal_sentence(exc))


def validation_sentence(errors: Sequence[Any]) -> str:
    """Pydantic's errors as one sentence naming each field and its problem."""
    problems = "; ".join(
        f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" for error in errors
    )
    return f"Invalid request ({problems})."


async def _on_http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    message = str(exc.detail)
    if message == HTTPStatus(exc.status_code).phrase:  # the router's bare "Not Found" and such
        message = (f"{request.method} {request.url.path} is not part of this API"
                   f" ({message.lower()}); see /docs for what it offers.")
    return error_response(exc.status_code, message, exc.headers)


async def _on_validation(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return error_response(400, validation_sentence(exc.errors()))


async def _on_engine(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, GraphRAGError)
    return error_response(status_of(exc), str(exc))


class CrashResponse:
    """Answers a crash with the 500 JSON sentence and swallows it (the traceback goes to the
    log). Starlette's own handler for Exception re-raises after replying, and uvicorn then
    closes the connection: a client's keep-alive connection would be reset by every 500.
    Added outermost, so every route and guard is inside it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            # The path only: headers (the API key) never reach the log.
            log.error("%s %s failed", scope["method"], scope["path"], exc_info=exc)
            if started:  # half a reply is out: only closing the connection can end it
                raise
            await send_error(send, 500, internal_sentence(exc))


def install_error_handlers(app: FastAPI) -> None:
    """Route every failure through one JSON shape (crashes: `CrashResponse`, added by the app
    outermost)."""
    app.add_exception_handler(HTTPException, _on_http)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(GraphRAGError, _on_engine)
