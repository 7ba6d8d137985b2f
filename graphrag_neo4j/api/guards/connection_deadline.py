"""A connection must send a whole request head within a deadline: idle and half-sent
connections are closed instead of being held forever.

uvicorn times a connection out only after a response (its keep-alive timeout), and any byte
received cancels that: a connection that never sends a request, or sends a few bytes of one,
stays open for good and holds a socket and a file descriptor.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol


class HeadDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request head: armed when the connection
    opens and after each response, disarmed once a whole head has arrived."""

    head_timeout_s: float = 30.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # a whole head came: the body has its own limit (BodyLimit)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_deadline = self.loop.call_later(self.head_timeout_s, self._expire)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _expire(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def head_deadline_protocol(seconds: float) -> type[HeadDeadlineProtocol]:
    """The protocol class uvicorn builds per connection, with this deadline."""
    return type("HeadDeadline", (HeadDeadlineProtocol,), {"head_timeout_s": seconds})
