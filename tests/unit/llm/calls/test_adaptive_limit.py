"""AdaptiveLimit: halves once per window of 429s, grows back one call per window; paces and
pauses every call."""

from __future__ import annotations

import asyncio
import itertools
import time

from graphrag_neo4j.llm.calls.adaptive_limit import AdaptiveLimit


async def _calls(limit: AdaptiveLimit, outcomes: list[str], peak: list[int]) -> None:
    """Run one call per outcome at once; record the most ever in flight."""

    async def call(outcome: str) -> None:
        async with limit.slot() as slot:
            peak.append(limit.in_flight)
            await asyncio.sleep(0.01)
            slot.ok = outcome == "ok"
            slot.rate_limited = outcome == "429"

    await asyncio.gather(*(call(outcome) for outcome in outcomes))


async def test_a_window_of_429s_halves_the_limit_once() -> None:
    limit, peak = AdaptiveLimit(8), list[int]()
    await _calls(limit, ["429"] * 8, peak)
    assert (limit.allowed, limit.cuts, max(peak)) == (4, 1, 8)
    await _calls(limit, ["429"] * 4, peak)  # sent after the cut: their window cuts again
    assert (limit.allowed, limit.cuts, max(peak[8:])) == (2, 2, 4)


async def test_successes_grow_the_limit_back_to_the_ceiling_and_no_further() -> None:
    limit, peak = AdaptiveLimit(4), list[int]()
    await _calls(limit, ["429"] * 4, peak)
    assert limit.allowed == 2
    await _calls(limit, ["ok"] * 40, peak)
    assert limit.allowed == 4 and limit.limit == 4.0


async def test_other_failures_neither_grow_nor_cut() -> None:
    limit, peak = AdaptiveLimit(4), list[int]()
    await _calls(limit, ["429"] * 4, peak)
    await _calls(limit, ["timeout"] * 10, peak)
    assert limit.limit == 2.0 and limit.cuts == 1


async def _start_times(limit: AdaptiveLimit, calls: int) -> list[float]:
    """When each of `calls` concurrent calls was let through."""
    started: list[float] = []

    async def call() -> None:
        async with limit.slot() as slot:
            started.append(time.monotonic())
            slot.ok = True

    await asyncio.gather(*(call() for _ in range(calls)))
    return sorted(started)


async def test_calls_per_minute_are_spaced_evenly_whatever_the_concurrency() -> None:
    started = await _start_times(AdaptiveLimit(8, per_minute=1200), 11)  # 20 a second
    gaps = [b - a for a, b in itertools.pairwise(started)]
    assert started[-1] - started[0] >= 10 * 0.05 * 0.9
    assert min(gaps) >= 0.05 * 0.5  # no burst, not only the right average


async def test_a_pause_holds_every_call_back_until_it_ends() -> None:
    limit = AdaptiveLimit(8)
    limit.pause(0.3)
    limit.pause(0.1)  # a shorter pause does not shorten the one running
    begun = time.monotonic()
    started = await _start_times(limit, 4)
    assert started[0] - begun >= 0.3 * 0.95
