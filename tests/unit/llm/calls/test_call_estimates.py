"""The call path's estimate hooks: one cache key, the budget guard, stats, token counting."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.language_models import BaseLanguageModel
from langchain_core.messages import HumanMessage

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.messages import prompt_messages
from graphrag_neo4j.llm.calls.reply_guards import repeating_lines
from graphrag_neo4j.llm.costs.budget import Budget, BudgetExceededError
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.llm.tokens.prompt_tokens import prompt_token_counter
from graphrag_neo4j.settings import LLMSettings


def _caller(model: FakeChatModel, cache_dir: Path | None, budget: Budget | None = None
            ) -> LLMCaller:
    return LLMCaller(model, LLMSettings(prompt_price_per_1m=1.0, completion_price_per_1m=1.0),
                     cache_dir, budget=budget)


async def test_the_request_key_is_the_key_a_call_stores(tmp_path: Path) -> None:
    caller = _caller(FakeChatModel(rules=[("Name", "Euler")]), tmp_path)
    key = caller.request_key(prompt_messages("Name one"), {"max_tokens": 5}, repeating_lines)
    assert caller.cached_texts([key]) == {}
    await caller.complete("Name one", stage="extract", max_tokens=5, stop_when=repeating_lines)
    assert caller.cached_texts([key]) == {key: "Euler"}
    other = caller.request_key(prompt_messages("Name one"), {"max_tokens": 5})
    assert caller.cached_texts([other]) == {}  # a stop rule is part of the request
    caller.close()


async def test_fresh_calls_record_ratios_and_speed_beside_the_cache(tmp_path: Path) -> None:
    caller = _caller(FakeChatModel(rules=[("Name", "Leonhard Euler")]), tmp_path)
    await caller.complete("Name one mathematician", stage="extract")
    await caller.complete("Name one mathematician", stage="extract")  # cached: not measured
    stats = caller.stats.stages(caller.identity)["extract"] if caller.stats else None
    caller.close()
    assert stats is not None and stats.calls == 1
    assert (stats.prompt_tokens, stats.completion_tokens) == (3, 2)
    assert stats.min_ratio == stats.max_ratio == pytest.approx(2 / 3)


async def test_the_budget_stops_the_call_that_would_pass_it_but_not_cached_ones(
    tmp_path: Path,
) -> None:
    model = FakeChatModel(rules=[("Name", "Euler")])
    await _caller(model, tmp_path).complete("Name one", stage="extract")
    caller = _caller(model, tmp_path, Budget(max_calls=1))
    await caller.complete("Name one", stage="extract")  # cached: free
    await caller.complete("Name two", stage="extract")
    with pytest.raises(BudgetExceededError, match="before an LLM call for glean"):
        await caller.complete("Name three", stage="glean")
    assert len(model.calls) == 2
    caller.close()


def test_the_fake_counts_prompt_tokens_as_it_reports_them() -> None:
    model = FakeChatModel(rules=[("", "ok")])
    messages = [HumanMessage(content="Leonhard Euler, born 1707 in Basel.")]
    count = prompt_token_counter(model)(messages)
    reported = model.invoke(messages).usage_metadata
    assert reported is not None and count == reported["input_tokens"] == 6


def test_a_model_without_its_own_counter_is_counted_with_tiktoken() -> None:
    class Plain(FakeChatModel):
        """A chat model class that keeps LangChain's own (downloading) counter."""

    Plain.get_num_tokens_from_messages = (  # type: ignore[method-assign]
        BaseLanguageModel.get_num_tokens_from_messages)
    count = prompt_token_counter(Plain())([HumanMessage(content="hello world")])
    assert count == 2 + 4 + 3  # two tokens, the per-message overhead, the reply primer
