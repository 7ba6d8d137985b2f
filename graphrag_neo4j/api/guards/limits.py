"""ASGI guards around the app: body size and arrival (413, 408), requests in flight (429), time
per request (504).

They are plain ASGI middleware, not FastAPI's `BaseHTTPMiddleware`, so streamed responses pass
through untouched and a request holds its slot until its last byte is sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphrag_neo4j.api.errors import error_body, send_error
from graphrag_neo4j.api.streaming.sse import SSE_MEDIA_TYPE, sse_frame


class BodyTooLargeError(HTTPException):
    """Raised while reading a body past the limit (an HTTPException, so FastAPI keeps it 413)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"The request body is larger than {max_bytes:,} bytes; send less"
                         " (or raise server.max_body_bytes).")


class BodyLimit:
    """Reads the whole body before the app sees the request: refused over `max_bytes` (413, by
    Content-Length up front or by counting) or when it has not all arrived within
    `read_timeout_s` (408). Sitting outside ConcurrencyLimit, a slow sender holds no slot."""

    def __init__(self, app: ASGIApp, max_bytes: int, read_timeout_s: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.read_timeout_s = read_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"").decode()
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._too_large(send)
            return
        try:
            async with asyncio.timeout(self.read_timeout_s):
                body = await self._read(receive)
        except TimeoutError:
            await send_error(send, 408, f"The request body did not arrive within"
                             f" {self.read_timeout_s:g} s; send it faster (or raise"
                             " server.body_timeout_s).", {"Connection": "close"})
            return
        if body is None:
            await self._too_large(send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        """The body, or None past the limit (a disconnect ends it early: the app sees it)."""
        pieces: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            pieces.append(message.get("body", b""))
            received += len(pieces[-1])
            if received > self.max_bytes:
                return None
            if not message.get("more_body", False):
                break
        return b"".join(pieces)

    async def _too_large(self, send: Send) -> None:
        error = BodyTooLargeError(self.max_bytes)
        await send_error(send, 413, error.detail, {"Connection": "close"})


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the app the body read already, then waits for the disconnect."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed


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
