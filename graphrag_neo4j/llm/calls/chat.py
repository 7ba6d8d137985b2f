"""The one path of every LLM call: cache, bounded concurrency, retries, timeout, accounting."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_random_exponential,
)

from graphrag_neo4j.llm.cache.disk_cache import DiskCache, stable_key
from graphrag_neo4j.llm.calls.adaptive_limit import AdaptiveLimit
from graphrag_neo4j.llm.calls.messages import Message, prompt_messages, typed_contents
from graphrag_neo4j.llm.calls.reply_guards import StopRule, repeating_text
from graphrag_neo4j.llm.calls.streaming import Streaming, TokenSink
from graphrag_neo4j.llm.calls.usage import UsageLedger
from graphrag_neo4j.llm.costs.pricing import chat_prices, model_name_of
from graphrag_neo4j.llm.costs.stats import ModelStats
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import LLMSettings

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage
    from rich.table import Table

    from graphrag_neo4j.llm.costs.budget import Budget
    from graphrag_neo4j.llm.tokens.prompt_tokens import PromptCounter

LLM_CACHE_FILE = "llm_cache.sqlite"
_CACHE_VERSION = 1  # bump when the cached value's shape changes


# Calls in flight when llm.concurrency is unset: hosted APIs serve many at once (Microsoft
# GraphRAG sends 25 too; 429s shrink it), a server of one's own often only a few.
HOSTED_CONCURRENCY = 25
SERVER_CONCURRENCY = 4


def concurrency_of(settings: LLMSettings) -> int:
    """The most calls in flight the settings allow."""
    if settings.concurrency is not None:
        return settings.concurrency
    return SERVER_CONCURRENCY if settings.base_url else HOSTED_CONCURRENCY


class RemoteReplies(Protocol):
    """Where a call's reply is made when not by this process's model (a Ray cluster's
    workers): the caller keeps its cache, limiter, retries, budget and ledger."""

    @property
    def workers(self) -> int:
        """How many models answer at once (each as many calls as its `parallel_calls`)."""
        ...

    async def reply(self, messages: Sequence[BaseMessage], params: dict[str, Any],
                    stop_when: StopRule | None) -> AIMessage:
        """The model's whole reply, stopped early by `stop_when` as a local stream would be."""
        ...


def chat_model_identity(model: BaseChatModel) -> str:
    """Which model answers and how: class, identifying params and endpoint (never secrets)."""
    params: dict[str, Any] = dict(model._identifying_params)
    for attribute in ("openai_api_base", "azure_endpoint", "deployment_name"):
        value = getattr(model, attribute, None)
        if value:
            params[attribute] = value
    cls = type(model)
    return json.dumps(
        {"class": f"{cls.__module__}.{cls.__qualname__}", "params": params},
        sort_keys=True,
        default=str,
    )


def _retry_after_s(exc: BaseException | None) -> float:
    """The server's Retry-After hint in seconds, 0 when it gave none."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return 0.0
    try:
        return max(0.0, float(headers.get("retry-after", 0) or 0))
    except (TypeError, ValueError):
        return 0.0


class LLMCaller:
    """Every LLM call of a run goes through one of these.

        caller = LLMCaller(chat_model, settings.llm, settings.cache_dir)
        reply = await caller.complete(prompt, stage="extraction", temperature=0.0)
        console.print(caller.usage_table())

    `chat_model` may be a `LazyModel`: it is then built on the first request the cache does
    not answer, so a run the cache answers whole never builds it nor imports LangChain.
    """

    def __init__(
        self,
        chat_model: BaseChatModel | LazyModel[BaseChatModel],
        settings: LLMSettings,
        cache_dir: Path | None,
        *,
        no_cache: bool = False,
        backoff_initial_s: float = 1.0,
        backoff_max_s: float = 60.0,
        budget: Budget | None = None,
        remote: RemoteReplies | None = None,
    ) -> None:
        self.remote = remote
        self.source = (chat_model if isinstance(chat_model, LazyModel)
                       else LazyModel.ready(chat_model))
        self.settings = settings
        self.cache_dir = cache_dir
        self.cache: DiskCache | None = None
        if settings.cache and not no_cache and cache_dir is not None:
            self.cache = DiskCache(cache_dir / LLM_CACHE_FILE, "responses")
        # Measurements for estimates live beside the cache, even when replies are not reused.
        self.stats = ModelStats(cache_dir / LLM_CACHE_FILE) if cache_dir is not None else None
        self.budget = budget if budget is not None and budget.active else None
        if self.budget is not None:  # prices come from the model: a budget builds it now
            self.budget.bind(chat_prices(self.chat_model, settings.prompt_price_per_1m,
                                         settings.completion_price_per_1m),
                             model_name_of(self.chat_model))
        self._limits: dict[asyncio.AbstractEventLoop, AdaptiveLimit] = {}
        self._inflight: dict[str, asyncio.Future[str]] = {}
        # Full jitter: random in [0, initial * 2^n], capped, so retrying callers spread out.
        self._backoff = wait_random_exponential(multiplier=backoff_initial_s, max=backoff_max_s)
        self._backoff_initial_s = backoff_initial_s
        self.usage = UsageLedger(settings.prompt_price_per_1m, settings.completion_price_per_1m)

    @property
    def chat_model(self) -> BaseChatModel:
        """The chat model, built now if it was not yet."""
        return self.source.model

    @cached_property
    def identity(self) -> str:
        """Which model answers (`chat_model_identity`): part of every cache key, and remembered
        beside the cache so that a run the cache answers need not build the model."""
        memo = self.cache_dir / LLM_CACHE_FILE if self.cache_dir is not None else None
        facts = self.source.facts(lambda model: {"identity": chat_model_identity(model)}, memo)
        return str(facts["identity"])

    @cached_property
    def max_concurrency(self) -> int:
        """The most calls in flight: the settings' limit, or fewer for a model that serialises
        calls itself (llama.cpp), which gains nothing from more and would queue them inside,
        eating into the per-call timeout; with remote replies, that many per worker."""
        per_model = getattr(self.chat_model, "parallel_calls", None) or 10**6
        workers = self.remote.workers if self.remote is not None else 1
        return max(1, min(concurrency_of(self.settings), per_model * workers))

    @cached_property
    def _prompt_counter(self) -> PromptCounter:
        from graphrag_neo4j.llm.tokens.prompt_tokens import prompt_token_counter

        return prompt_token_counter(self.chat_model)

    def count_prompt(self, messages: Sequence[Message]) -> int:
        """The prompt tokens of `messages` as the run's model would report them."""
        from graphrag_neo4j.llm.calls.model_requests import to_messages

        return self._prompt_counter(to_messages(messages))

    async def complete(
        self,
        prompt: str,
        *,
        stage: str,
        system: str | None = None,
        on_token: TokenSink | None = None,
        stop_when: StopRule | None = None,
        **params: Any,
    ) -> str:
        """The model's answer to `prompt`; `on_token` receives the text as it is generated and
        `stop_when` may end generation early (the reply is then cut at its last line break)."""
        return await self.complete_messages(
            prompt_messages(prompt, system), stage=stage, on_token=on_token,
            stop_when=stop_when, **params,
        )

    def request_key(
        self,
        messages: Sequence[Message],
        params: dict[str, Any],
        stop_when: StopRule | None = None,
    ) -> str:
        """The cache key of a request: what `complete` would look up, for estimates too."""
        # A stop rule changes the stored reply, so it is part of the request's identity.
        rule = Streaming(None, stop_when).rule_name
        return stable_key(_CACHE_VERSION, self.identity, typed_contents(messages), params,
                          *[name for name in [rule] if name])

    def cached_texts(self, keys: Sequence[str]) -> dict[str, str]:
        """The cached replies among `keys` (blocking; nothing when the cache is off)."""
        if self.cache is None:
            return {}
        return {key: str(value["text"]) for key, value in self.cache.get_many(keys).items()}

    async def complete_messages(
        self,
        messages: Sequence[Message],
        *,
        stage: str,
        on_token: TokenSink | None = None,
        stop_when: StopRule | None = None,
        **params: Any,
    ) -> str:
        """The model's answer to a conversation; identical requests are answered once. A reply
        streamed to a reader stops once it loops (`repeating_text`) unless the call has a rule
        of its own."""
        if on_token is not None and stop_when is None:
            stop_when = repeating_text
        return await self._complete(messages, stage, params, Streaming(on_token, stop_when))

    async def _complete(
        self,
        messages: Sequence[Message],
        stage: str,
        params: dict[str, Any],
        streaming: Streaming,
    ) -> str:
        key = self.request_key(messages, params, streaming.stop_when)
        on_token = streaming.on_token
        if self.cache is not None:
            cached = await asyncio.to_thread(self.cache.get, key)
            if cached is not None:
                self.usage.record_cache_hit(stage)
                if on_token is not None:
                    on_token(str(cached["text"]))
                return str(cached["text"])
        pending = self._inflight.get(key)
        if pending is not None:  # the same request is already running: share its answer
            self.usage.record_cache_hit(stage)
            return await asyncio.shield(pending)
        committed = 0
        if self.budget is not None:  # the hard guard: no call passes the run's limits
            committed = self.count_prompt(messages)
            await self.budget.admit(stage, committed, list(self._inflight.values()))
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            text = await self._call_and_store(key, messages, stage, params, streaming,
                                              committed)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: nobody else may be waiting
            raise
        else:
            future.set_result(text)
            return text
        finally:
            del self._inflight[key]

    async def _call_and_store(
        self,
        key: str,
        messages: Sequence[Message],
        stage: str,
        params: dict[str, Any],
        streaming: Streaming,
        committed: int = 0,
    ) -> str:
        # The model side (LangChain and the model's client) loads with the first fresh call.
        from graphrag_neo4j.llm.calls.model_requests import to_messages

        converted = self._within_window(to_messages(messages), stage, params)
        message, seconds = await self._call_with_retries(converted, stage, params, streaming)
        text = message.text
        usage = message.usage_metadata
        if usage:
            prompt_tokens, completion_tokens = usage["input_tokens"], usage["output_tokens"]
        else:  # the server sent no usage: count with the tokenizer, and say so in the table
            prompt_tokens, completion_tokens = self.count_prompt(converted), count_tokens(text)
        self.usage.record_call(stage, prompt_tokens, completion_tokens, seconds,
                               counted=not usage)
        if self.budget is not None:
            self.budget.after_call(committed, prompt_tokens, completion_tokens)
        if self.stats is not None and usage:
            await asyncio.to_thread(self.stats.record, self.identity, stage, prompt_tokens,
                                    completion_tokens, seconds)
        if self.cache is not None:
            value = {"text": text, "prompt_tokens": prompt_tokens,
                     "completion_tokens": completion_tokens}
            await asyncio.to_thread(self.cache.put, key, value)
        return text

    def _within_window(
        self, messages: list[BaseMessage], stage: str, params: dict[str, Any]
    ) -> list[BaseMessage]:
        """The messages cut to the model's context window beside its reply, when the model
        declares one: every prompt passes here, so none can exceed it."""
        from graphrag_neo4j.llm.tokens.prompt_window import fit_to_model

        return fit_to_model(self.chat_model, messages, params, self.settings.max_tokens,
                            self._prompt_counter, stage)

    @property
    def limit(self) -> AdaptiveLimit:
        """This event loop's limit on calls in flight (a caller may serve several loops)."""
        loop = asyncio.get_running_loop()
        limit = self._limits.get(loop)
        if limit is None:
            self._limits = {loop: AdaptiveLimit(self.max_concurrency,
                                                self.settings.requests_per_minute)}
            limit = self._limits[loop]
        return limit

    def _wait_s(self, state: RetryCallState) -> float:
        """Exponential backoff with jitter, never shorter than the server's Retry-After."""
        outcome = state.outcome.exception() if state.outcome else None
        return max(self._backoff(state), _retry_after_s(outcome))

    async def _call_with_retries(
        self,
        messages: list[BaseMessage],
        stage: str,
        params: dict[str, Any],
        streaming: Streaming,
    ) -> tuple[AIMessage, float]:
        from graphrag_neo4j.llm.calls.call_errors import (
            failure_sentence,
            is_rate_limit,
            is_transient,
        )

        attempts = self.settings.max_retries + 1
        retrying = AsyncRetrying(
            stop=stop_after_attempt(attempts),
            wait=self._wait_s,
            retry=retry_if_exception(is_transient),
            before_sleep=lambda _state: self.usage.record_retry(stage),
            reraise=True,
        )
        try:
            async for attempt in retrying:
                # Each attempt takes a slot of its own: a call waiting to retry holds none.
                with attempt:
                    async with self.limit.slot() as slot:
                        started = time.perf_counter()
                        call = self._reply(messages, params, streaming)
                        try:
                            reply = await asyncio.wait_for(call, self.settings.timeout_s)
                        except Exception as exc:
                            slot.rate_limited = is_rate_limit(exc)
                            if slot.rate_limited:  # every caller waits, not only this one
                                self.limit.pause(max(_retry_after_s(exc),
                                                     self._backoff_initial_s))
                            raise
                        slot.ok = True
                        return reply, time.perf_counter() - started
        except Exception as exc:
            self.usage.record_failure(stage)
            sentence = failure_sentence(exc, stage, attempts, self.settings)
            if sentence is not None:
                raise ModelError(sentence) from exc
            raise
        raise AssertionError("unreachable: tenacity either returns or raises")

    async def _reply(self, messages: list[BaseMessage], params: dict[str, Any],
                     streaming: Streaming) -> AIMessage:
        """One request: made remotely when replies are, unless a reader wants its pieces live."""
        if self.remote is not None and streaming.on_token is None:
            return await self.remote.reply(messages, params, streaming.stop_when)
        from graphrag_neo4j.llm.calls.model_requests import request_reply

        return await request_reply(self.chat_model, messages, params, streaming)

    def usage_table(self, title: str = "LLM usage") -> Table:
        """Per-stage calls, cache hits, retries, tokens, time and cost, printable with rich."""
        return self.usage.table(title)

    def close(self) -> None:
        """Close the on-disk cache."""
        for store in (self.cache, self.stats):
            if store is not None:
                store.close()
