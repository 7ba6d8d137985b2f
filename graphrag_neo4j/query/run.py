"""Runs a query method and adds what the answer cost (LLM calls and tokens) to the Answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from graphrag_neo4j.query.base import Answer, Query, QueryMethod, Services


def _spent(services: Services) -> tuple[int, int, int]:
    total = services.llm.usage.total()
    return total.calls, total.prompt_tokens, total.completion_tokens


async def _measured(services: Services, run: Callable[[], Awaitable[Answer]]) -> Answer:
    services.store  # noqa: B018 (connecting first turns an absent server into one clear sentence)
    before = _spent(services)
    answer = await run()
    after = _spent(services)
    answer.llm_calls = after[0] - before[0]
    answer.prompt_tokens = after[1] - before[1]
    answer.completion_tokens = after[2] - before[2]
    return answer


async def run_query(services: Services, method: QueryMethod, query: Query) -> Answer:
    """Answer the query; the Answer says how many LLM calls and tokens it took."""
    return await _measured(services, lambda: method.answer(query))


async def retrieve_only(services: Services, name: str, method: QueryMethod, query: Query) -> Answer:
    """The context the method would answer from, without the answer call."""

    async def context_only() -> Answer:
        return Answer.from_context(name, "", await method.build_context(query))

    return await _measured(services, context_only)
