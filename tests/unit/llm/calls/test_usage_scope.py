"""Usage scopes: concurrent queries each count only the calls made inside their own scope."""

from __future__ import annotations

import asyncio

from graphrag_neo4j.llm.calls.usage import UsageLedger, usage_scope


async def test_concurrent_scopes_count_their_own_calls() -> None:
    ledger = UsageLedger()

    async def query(calls: int, tokens: int) -> tuple[int, int]:
        with usage_scope() as spent:
            for _ in range(calls):
                await asyncio.sleep(0)  # interleave with the other query
                await asyncio.to_thread(ledger.record_call, "answer", tokens, 1, 0.1)
        return spent.calls, spent.prompt_tokens

    first, second = await asyncio.gather(query(3, 10), query(5, 100))
    assert first == (3, 30) and second == (5, 500)
    assert ledger.total().calls == 8
    with usage_scope() as outside:
        ledger.record_cache_hit("answer")  # a cache hit is no call
    assert outside.calls == 0 and ledger.total().calls == 8
