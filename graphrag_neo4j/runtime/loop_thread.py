"""One event loop on a thread of its own, so sync calls work anywhere: in a script, inside a
running loop (Jupyter, an async web handler), and from many threads at once (LangChain's
`.batch()`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """Runs coroutines to their end on one loop that a daemon thread keeps running; model
    clients keep pooled connections bound to the loop that opened them, so it is always the
    same loop."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """The coroutine's result (or its exception); Ctrl-C while waiting cancels it."""
        loop = self._started()
        if threading.current_thread() is self._thread:
            coroutine.close()
            raise RuntimeError("A sync GraphRAG method was called from its own event loop; "
                               "await the async method (aquery, aindex, ...) there instead.")
        future = asyncio.run_coroutine_threadsafe(coroutine, loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            _wait_briefly(future)
            raise

    def close(self) -> None:
        """Cancel what still runs, stop the loop and join its thread."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        # Wound down on its own thread: the caller's thread may be running a loop itself.
        asyncio.run_coroutine_threadsafe(_wind_down(loop), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()

    def _started(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(
                    target=self._loop.run_forever, name="graphrag-loop", daemon=True
                )
                self._thread.start()
            return self._loop


async def _wind_down(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel every other task, close async generators and the default executor."""
    current = asyncio.current_task()
    tasks = [task for task in asyncio.all_tasks() if task is not current]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await loop.shutdown_asyncgens()
    await loop.shutdown_default_executor()


def _wait_briefly(future: concurrent.futures.Future[Any]) -> None:
    """Give a cancelled call a moment to unwind (its finally blocks) before re-raising."""
    # Cancelled, failed or still going after 5 s: the caller re-raises its own error anyway.
    with contextlib.suppress(BaseException):
        future.result(timeout=5)
