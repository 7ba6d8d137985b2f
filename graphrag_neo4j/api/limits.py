"""ASGI guards around the app: body size (413), requests in flight (429), time per request (504).

They are plain ASGI middleware, not FastAPI's `BaseHTTPMiddleware`, so streamed responses pass
through untouched and a request holds its slot until its last byte is sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphrag_neo4j.api.errors import error_body, send_error
from graphrag_neo4j.api.sse import SSE_MEDIA_TYPE, sse_frame


class BodyTooLargeError(HTTPException):
    """Raised while reading a body past the limit (an HTTPException, so FastAPI keeps it 413)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"The request body is larger than {max_bytes:,} bytes; send less"
                         " (or raise server.max_body_bytes).")


class BodyLimit:
    """Refuses bodies over `max_bytes`: by Content-Length up front, by counting when streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"").decode()
        if declared.isdigit() and int(declared) > self.max_bytes:
            error = BodyTooLargeError(self.max_bytes)
            await send_error(send, 413, error.detail, {"Connection": "close"})
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                raise BodyTooLargeError(self.max_bytes)
            return message

        await self.app(scope, counted, send)


class ConcurrencyLimit:
    """Answers 429 with Retry-After once `limit` requests are in flight (`exempt` paths never)."""

    def __init__(
        self, app: ASGIApp, limit: int, retry_after_s: int, exempt: Collection[str] = ()
    ) -> None:
        self.app = app
        self.limit = limit
        self.retry_after_s = retry_after_s
        self.exempt = exempt
        self.in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.exempt:
            await self.app(scope, receive, send)
            return
        # One event loop: nothing runs between this check and the increment.
        if self.in_flight >= self.limit:
            await send_error(
                send, 429,
                f"The server is busy ({self.limit} requests in flight); retry in"
                f" {self.retry_after_s} s.",
                {"Retry-After": str(self.retry_after_s)},
            )
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1


class RequestTimeout:
    """Stops a request after `seconds`: 504 before the response began, an error event in an
    event stream, otherwise the body simply ends."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started: list[bytes] = []  # the content type, once the response has begun

        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                started.append(dict(message.get("headers", [])).get(b"content-type", b""))
            await send(message)

        try:
            async with asyncio.timeout(self.seconds) as deadline:
                await self.app(scope, receive, tracked)
        except TimeoutError:
            if not deadline.expired():
                raise  # a timeout of the app's own, not ours
            await self._stopped(send, started)

    async def _stopped(self, send: Send, started: list[bytes]) -> None:
        sentence = (f"The request took longer than {self.seconds:g} s and was stopped; ask"
                    " something narrower or raise server.request_timeout_s.")
        if not started:
            await send_error(send, 504, sentence)
            return
        tail = b""
        if started[0].startswith(SSE_MEDIA_TYPE.encode()):
            tail = sse_frame(error_body(504, sentence), event="error")
        await send({"type": "http.response.body", "body": tail, "more_body": False})
