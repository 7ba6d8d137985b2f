"""LLMCaller: cache hits and misses, retries on 429, timeouts, concurrency bound, accounting."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

import httpx2
import openai
import pytest
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from rich.console import Console

from graphrag_neo4j.llm.calls.call_errors import is_transient
from graphrag_neo4j.llm.calls.chat import LLMCaller, _retry_after_s
from graphrag_neo4j.llm.testing import FakeChatModel, UnmatchedPromptError
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import LLMSettings


def _settings(**overrides: object) -> LLMSettings:
    values: dict[str, object] = {"concurrency": 4, "timeout_s": 5.0, "max_retries": 3}
    values.update(overrides)
    return LLMSettings.model_validate(values)


def _caller(model: FakeChatModel, cache_dir: Path | None, **overrides: object) -> LLMCaller:
    return LLMCaller(model, _settings(**overrides), cache_dir, backoff_initial_s=0.001,
                     backoff_max_s=0.01)


def _rate_limit_error() -> openai.RateLimitError:
    request = httpx2.Request("POST", "https://api.openai.com/v1/chat/completions")
    response = httpx2.Response(429, headers={"retry-after": "0"}, request=request)
    return openai.RateLimitError("Rate limit reached", response=response, body=None)


async def test_identical_call_is_answered_from_the_cache(tmp_path: Path) -> None:
    model = FakeChatModel(rules=[("capital of France", "Paris")])
    caller = _caller(model, tmp_path)
    first = await caller.complete("What is the capital of France?", stage="qa")
    second = await caller.complete("What is the capital of France?", stage="qa")
    assert first == second == "Paris"
    assert len(model.calls) == 1
    usage = caller.usage.stages()["qa"]
    assert (usage.calls, usage.cache_hits) == (1, 1)


async def test_a_new_run_on_the_same_cache_makes_zero_model_calls(tmp_path: Path) -> None:
    first_model = FakeChatModel(rules=[("France", "Paris")])
    await _caller(first_model, tmp_path).complete("France?", stage="qa", system="Be brief.")
    rerun_model = FakeChatModel(rules=[("France", "Paris")])
    rerun = _caller(rerun_model, tmp_path)
    assert await rerun.complete("France?", stage="qa", system="Be brief.") == "Paris"
    assert rerun_model.calls == []
    assert rerun.usage.total().cache_hits == 1


async def test_different_params_system_or_model_miss_the_cache(tmp_path: Path) -> None:
    model = FakeChatModel(rules=[("France", "Paris")])
    caller = _caller(model, tmp_path)
    await caller.complete("France?", stage="qa", temperature=0.1)
    await caller.complete("France?", stage="qa", temperature=0.2)
    await caller.complete("France?", stage="qa", system="Answer in French.", temperature=0.2)
    assert len(model.calls) == 3
    other = FakeChatModel(rules=[("France", "Paris")], model_name="another-model")
    await _caller(other, tmp_path).complete("France?", stage="qa", temperature=0.1)
    assert len(other.calls) == 1


async def test_no_cache_flag_bypasses_the_cache(tmp_path: Path) -> None:
    model = FakeChatModel(rules=[("France", "Paris")])
    caller = LLMCaller(model, _settings(), tmp_path, no_cache=True)
    await caller.complete("France?", stage="qa")
    await caller.complete("France?", stage="qa")
    assert len(model.calls) == 2
    assert caller.cache is None


async def test_rate_limit_is_retried_then_succeeds(tmp_path: Path) -> None:
    attempts: Counter[str] = Counter()

    def flaky(prompt: str) -> str:
        # Fails the first attempt of each distinct prompt, whatever order calls come in.
        attempts[prompt] += 1
        if attempts[prompt] == 1:
            raise _rate_limit_error()
        return "done"

    model = FakeChatModel(rules=[("work", flaky)])
    caller = _caller(model, tmp_path)
    replies = await asyncio.gather(*(caller.complete(f"work {i}", stage="x") for i in range(3)))
    assert replies == ["done"] * 3
    assert set(attempts.values()) == {2}
    usage = caller.usage.stages()["x"]
    assert (usage.calls, usage.retries, usage.failures) == (3, 3, 0)


async def test_rate_limit_that_never_ends_gives_a_clear_error(tmp_path: Path) -> None:
    def always_limited(prompt: str) -> str:
        raise _rate_limit_error()

    caller = _caller(FakeChatModel(rules=[("work", always_limited)]), None, max_retries=2)
    with pytest.raises(ModelError, match=r"after 3 attempts.*RateLimitError"):
        await caller.complete("work", stage="x")
    assert caller.usage.stages()["x"].retries == 2


async def test_slow_model_times_out_after_retries() -> None:
    model = FakeChatModel(rules=[("slow", "too late")], latency_s=1.0)
    caller = _caller(model, None, timeout_s=0.05, max_retries=1)
    with pytest.raises(ModelError, match=r"timed out after 0.05 s on all 2 attempts"):
        await caller.complete("slow", stage="reports")
    usage = caller.usage.stages()["reports"]
    assert (usage.retries, usage.failures, usage.calls) == (1, 1, 0)


async def test_never_more_calls_in_flight_than_the_limit() -> None:
    model = FakeChatModel(rules=[("item", "ok")], latency_s=0.02)
    caller = _caller(model, None, concurrency=3)
    await asyncio.gather(*(caller.complete(f"item {i}", stage="x") for i in range(12)))
    assert len(model.calls) == 12
    assert model.max_in_flight == 3


async def test_a_model_that_serialises_calls_gets_one_at_a_time() -> None:
    class SerialFake(FakeChatModel):
        @property
        def parallel_calls(self) -> int:
            return 1

    model = SerialFake(rules=[("item", "ok")], latency_s=0.01)
    caller = _caller(model, None, concurrency=8)
    assert caller.max_concurrency == 1
    await asyncio.gather(*(caller.complete(f"item {i}", stage="x") for i in range(4)))
    assert model.max_in_flight == 1


async def test_identical_concurrent_requests_share_one_call() -> None:
    model = FakeChatModel(rules=[("same", "answer")], latency_s=0.02)
    caller = _caller(model, None)
    replies = await asyncio.gather(*(caller.complete("same", stage="x") for _ in range(5)))
    assert replies == ["answer"] * 5
    assert len(model.calls) == 1


async def test_unmatched_prompt_is_not_retried_and_keeps_its_type() -> None:
    model = FakeChatModel(rules=[("known", "yes")])
    caller = _caller(model, None)
    with pytest.raises(UnmatchedPromptError, match="something else"):
        await caller.complete("something else", stage="x")
    assert caller.usage.stages()["x"].retries == 0


async def test_tokens_and_cost_are_counted_per_stage(tmp_path: Path) -> None:
    model = FakeChatModel(rules=[("extract", "one two three"), ("report", "four five")])
    settings = _settings(prompt_price_per_1m=1.0, completion_price_per_1m=2.0)
    caller = LLMCaller(model, settings, tmp_path)
    await caller.complete("extract this text", stage="extraction")
    await caller.complete("extract this text", stage="extraction")
    await caller.complete("report please", stage="reports")
    stages = caller.usage.stages()
    assert stages["extraction"].prompt_tokens == 3 and stages["extraction"].completion_tokens == 3
    assert stages["extraction"].cache_hits == 1
    assert stages["reports"].prompt_tokens == 2 and stages["reports"].completion_tokens == 2
    assert caller.usage.cost() == pytest.approx((5 * 1.0 + 5 * 2.0) / 1_000_000)
    console = Console(record=True, width=140)
    console.print(caller.usage_table())
    text = console.export_text()
    assert "extraction" in text and "reports" in text and "total" in text and "cost" in text


class _NoUsageModel(FakeChatModel):
    """A server that reports no usage (an OpenAI-compatible one not asked for it)."""

    def _result(self, messages: list[BaseMessage]) -> ChatResult:
        result = super()._result(messages)
        text = result.generations[0].message.text
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


async def test_a_reply_without_usage_is_counted_with_the_tokenizer_and_marked() -> None:
    caller = LLMCaller(_NoUsageModel(rules=[("extract", "one two three")]), _settings(), None)
    await caller.complete("extract this text", stage="extraction")
    counted = caller.usage.stages()["extraction"]
    assert (counted.calls, counted.counted_calls) == (1, 1)
    # The prompt by the model's own counter (this fake's: words), the reply by tiktoken.
    assert (counted.prompt_tokens, counted.completion_tokens) == (3, 3)
    console = Console(record=True, width=140)
    console.print(caller.usage_table())
    assert "Tokens of 1 calls counted with the tokenizer" in console.export_text()


def test_unset_concurrency_is_wide_for_hosted_apis_and_narrow_for_a_server_of_ones_own(
) -> None:
    assert LLMCaller(FakeChatModel(), _settings(concurrency=None), None).max_concurrency == 25
    served = _settings(concurrency=None, base_url="http://127.0.0.1:11434/v1")
    assert LLMCaller(FakeChatModel(), served, None).max_concurrency == 4
    assert LLMCaller(FakeChatModel(), _settings(concurrency=7), None).max_concurrency == 7


def test_cost_is_none_without_prices() -> None:
    caller = LLMCaller(FakeChatModel(), _settings(), None)
    assert caller.usage.cost() is None


def test_transient_errors_are_told_apart() -> None:
    assert is_transient(_rate_limit_error())
    assert is_transient(TimeoutError())
    request = httpx2.Request("POST", "https://example.invalid")
    server_error = openai.InternalServerError(
        "boom", response=httpx2.Response(503, request=request), body=None
    )
    bad_request = openai.BadRequestError(
        "bad", response=httpx2.Response(400, request=request), body=None
    )
    assert is_transient(server_error)
    assert not is_transient(bad_request)
    assert not is_transient(ValueError("no"))


def test_retry_after_header_is_read() -> None:
    request = httpx2.Request("POST", "https://example.invalid")
    limited = openai.RateLimitError(
        "slow down", response=httpx2.Response(429, headers={"retry-after": "2.5"}, request=request),
        body=None,
    )
    assert _retry_after_s(limited) == 2.5
    assert _retry_after_s(ValueError("no response")) == 0.0


async def test_a_rejected_request_is_one_clear_model_error() -> None:
    request = httpx2.Request("POST", "https://api.openai.com/v1/chat/completions")

    def unknown_model(prompt: str) -> str:
        raise openai.NotFoundError(
            "The model `gpt-9` does not exist",
            response=httpx2.Response(404, request=request), body=None,
        )

    caller = _caller(FakeChatModel(rules=[("hi", unknown_model)]), None)
    with pytest.raises(ModelError, match=r"rejected a qa request \(404.*GRAPHRAG_LLM__MODEL"):
        await caller.complete("hi", stage="qa")
    assert caller.usage.stages()["qa"].retries == 0


async def test_a_429_pauses_every_call_not_only_the_refused_one() -> None:
    sent: list[tuple[str, float]] = []
    refused: list[float] = []

    def reply(prompt: str) -> str:
        sent.append((prompt, time.monotonic()))
        if prompt.endswith("first") and not refused:
            refused.append(time.monotonic())
            raise _rate_limit_error()  # Retry-After 0: the pause is the first backoff step
        return "done"

    model = FakeChatModel(rules=[("work", reply)], latency_s=0.05)
    caller = LLMCaller(model, _settings(concurrency=2), None, backoff_initial_s=0.5,
                       backoff_max_s=0.5)
    prompts = ["work first", *(f"work {i}" for i in range(5))]
    assert await asyncio.gather(*(caller.complete(p, stage="x") for p in prompts)) == [
        "done"] * 6
    # The fake answers after its latency: the one call sent beside the refused one (2 in
    # flight) answers just after it; every other call started after the pause.
    after = sorted(at for _, at in sent if at > refused[0])
    assert len(after) == 6 and after[1] - refused[0] >= 0.5 * 0.9


async def test_requests_per_minute_hold_across_concurrent_calls() -> None:
    caller = _caller(FakeChatModel(rules=[("work", "done")]), None, concurrency=8,
                     requests_per_minute=1200)  # 20 a second
    begun = time.monotonic()
    await asyncio.gather(*(caller.complete(f"work {i}", stage="x") for i in range(11)))
    assert time.monotonic() - begun >= 10 * 0.05 * 0.9
