"""Bridges a query's `on_token` callback to an async iterator of answer pieces."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

from graphrag_neo4j.llm.calls.streaming import TokenSink
from graphrag_neo4j.query.base import Answer


class StreamedQuery:
    """A query running in the background whose answer text arrives piece by piece.

        stream = StreamedQuery(lambda sink: rag.aquery(question, on_token=sink))
        async for piece in stream.pieces(): ...
        answer = await stream.answer()
    """

    def __init__(self, run: Callable[[TokenSink], Awaitable[Answer]]) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._task = asyncio.ensure_future(run(self._put))
        # The end marker follows every piece: both go through the loop's callback queue.
        self._task.add_done_callback(lambda _: self._put(None))

    def _put(self, piece: str | None) -> None:
        # Thread-safe: a model may stream from a worker thread.
        self._loop.call_soon_threadsafe(self._queue.put_nowait, piece)

    async def pieces(self) -> AsyncIterator[str]:
        """Answer text as it is written; a method that did not stream gives its whole text."""
        streamed = False
        try:
            while (piece := await self._queue.get()) is not None:
                streamed = True
                yield piece
            answer = await self._task
            if not streamed and answer.text:
                yield answer.text
        finally:
            self.cancel()

    async def answer(self) -> Answer:
        """The finished answer (raises what the query raised)."""
        return await self._task

    def cancel(self) -> None:
        """Stop the query when the client went away."""
        if not self._task.done():
            self._task.cancel()
