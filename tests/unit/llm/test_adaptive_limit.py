"""AdaptiveLimit: halves once per window of 429s, grows back one call per window."""

from __future__ import annotations

import asyncio

from graphrag_neo4j.llm.adaptive_limit import AdaptiveLimit


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
