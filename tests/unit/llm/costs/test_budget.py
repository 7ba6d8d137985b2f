"""The run's limits: calls and money committed before each call, batches refused up front."""

from __future__ import annotations

import asyncio

import pytest

from graphrag_neo4j.llm.costs.budget import Budget, BudgetExceededError
from graphrag_neo4j.llm.costs.pricing import Prices
from graphrag_neo4j.runtime.errors import ConfigError

PRICES = Prices(1.0, 2.0, "settings")  # $1 per million prompt tokens, $2 per million completion


def test_the_call_passing_the_call_limit_is_refused() -> None:
    budget = Budget(max_calls=2)
    budget.bind(None, "fake")
    budget.before_call("extract", 100)
    budget.before_call("extract", 100)
    with pytest.raises(BudgetExceededError, match="--max-llm-calls 2") as caught:
        budget.before_call("glean", 100)
    assert "for glean" in str(caught.value) and "2 LLM calls" in str(caught.value)
    assert budget.calls == 2


def test_the_cost_limit_counts_prompts_before_and_completions_after_each_call() -> None:
    budget = Budget(max_cost=0.01)
    budget.bind(PRICES, "fake")
    budget.before_call("extract", 4_000)  # $0.004 committed
    budget.after_call(4_000, 4_200, 1_000)  # +$0.0002 prompt, +$0.002 completion
    assert budget.cost == pytest.approx(0.0062)
    with pytest.raises(BudgetExceededError, match=r"--max-cost 0\.01 USD"):
        budget.before_call("extract", 4_000)  # 0.0062 + 0.004 > 0.01
    budget.before_call("resolve", 3_000)  # 0.0062 + 0.003 still fits
    assert budget.calls == 2


def test_a_cost_limit_needs_a_price() -> None:
    with pytest.raises(ConfigError, match="prompt_price_per_1m"):
        Budget(max_cost=1.0).bind(None, "my-model")
    Budget(max_calls=3).bind(None, "my-model")  # a call limit needs none


def test_a_batch_is_refused_when_its_least_cost_passes_the_limit() -> None:
    budget = Budget(max_cost=0.01, max_calls=100)
    budget.bind(PRICES, "fake")
    budget.before_batch("batch 1", 10, 0.009)
    with pytest.raises(BudgetExceededError, match="before batch 2") as caught:
        budget.before_batch("batch 2", 10, 0.011)
    assert "at least 10 calls, $0.0110" in str(caught.value)
    assert not Budget().active and Budget(max_calls=1).active


async def test_a_refused_call_first_lets_the_calls_in_flight_finish() -> None:
    budget = Budget(max_calls=0)
    budget.bind(None, "fake")
    loop = asyncio.get_running_loop()
    in_flight: asyncio.Future[str] = loop.create_future()
    loop.call_later(0.05, in_flight.set_result, "a reply on its way to the cache")
    with pytest.raises(BudgetExceededError):
        await budget.admit("extract", 10, [in_flight])
    assert in_flight.done()
