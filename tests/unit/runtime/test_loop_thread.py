"""The sync API's loop: usable inside a running loop and from many threads, one loop always."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from graphrag_neo4j.runtime.loop_thread import LoopThread


async def _loop_id(delay: float = 0.0) -> int:
    await asyncio.sleep(delay)
    return id(asyncio.get_running_loop())


async def test_runs_inside_a_running_loop_on_one_loop_of_its_own() -> None:
    runner = LoopThread()
    try:
        first, second = runner.run(_loop_id()), runner.run(_loop_id())
        assert first == second != id(asyncio.get_running_loop())
    finally:
        runner.close()


def test_many_threads_share_the_loop_and_errors_come_back() -> None:
    runner = LoopThread()
    try:
        with ThreadPoolExecutor(8) as pool:
            loops = set(pool.map(lambda _: runner.run(_loop_id(0.01)), range(16)))
        assert len(loops) == 1

        async def fail() -> None:
            raise ValueError("bad input")

        with pytest.raises(ValueError, match="bad input"):
            runner.run(fail())
    finally:
        runner.close()
    runner.close()  # closing twice is harmless
