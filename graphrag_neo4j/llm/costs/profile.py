"""What a run's models cost and how fast they are: prices plus this model's measurements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphrag_neo4j.llm.costs.estimate import ZERO, Range, StageEstimate
from graphrag_neo4j.llm.costs.pricing import Prices, chat_prices, embedding_prices, model_name_of
from graphrag_neo4j.llm.costs.stats import EMBEDDING_STAGE, StageStats, Throughput, fit_throughput

if TYPE_CHECKING:
    from graphrag_neo4j.llm.calls.chat import LLMCaller
    from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller


@dataclass
class ModelProfile:
    """Turns call counts and prompt tokens of a stage into completion, cost and time ranges."""

    llm: LLMCaller | None  # None: the run calls no LLM
    stage_stats: dict[str, StageStats]
    throughput: Throughput | None
    prices: Prices | None
    embedding_prices: Prices | None
    embedding_throughput: Throughput | None

    @classmethod
    def of(cls, llm: LLMCaller | None, embedder: EmbeddingCaller | None,
           embedding_price_per_1m: float | None = None) -> ModelProfile:
        """The profile of these models from their settings and stored measurements. Without an
        LLM (a run that calls none) the chat model is never built: building the offline one
        would download it, and an estimate downloads nothing."""
        embedded = None
        if embedder is not None and embedder.model_stats is not None:
            embedded = embedder.model_stats.stages(embedder.identity).get(EMBEDDING_STAGE)
        embedding = (embedding_prices(embedder.embedder, embedding_price_per_1m)
                     if embedder else None, fit_throughput([embedded]) if embedded else None)
        if llm is None:
            return cls(None, {}, None, None, *embedding)
        stats = llm.stats.stages(llm.identity) if llm.stats is not None else {}
        settings = llm.settings
        prices = chat_prices(llm.chat_model, settings.prompt_price_per_1m,
                             settings.completion_price_per_1m)
        return cls(llm, stats, fit_throughput(list(stats.values())), prices, *embedding)

    @property
    def model_name(self) -> str:
        """The chat model's name, for messages ("" without one)."""
        return model_name_of(self.llm.chat_model) if self.llm is not None else ""

    def calls_per_extraction(self, stage: str) -> float | None:
        """How many calls of `stage` earlier runs of this model made per extraction call."""
        extraction, other = self.stage_stats.get("extract"), self.stage_stats.get(stage)
        if extraction is None or other is None or not extraction.calls:
            return None
        return other.calls / extraction.calls

    def prompt_per_call(self, stage: str) -> float | None:
        """Average prompt tokens of one call of `stage` in earlier runs."""
        measured = self.stage_stats.get(stage)
        return measured.prompt_per_call if measured and measured.calls else None

    def completion(self, stage: str, calls: Range, prompt: Range, max_tokens: int
                   ) -> tuple[Range, str]:
        """Completion tokens from measured completion/prompt ratios, else max_tokens bounds."""
        cap = calls.high * max_tokens
        measured = self.stage_stats.get(stage)
        if measured is not None and measured.calls and measured.prompt_tokens:
            mean = measured.completion_tokens / measured.prompt_tokens
            low = min(prompt.low * measured.min_ratio, cap)
            high = min(prompt.high * measured.max_ratio, cap)
            return Range(low, high, min(max(prompt.expected * mean, low), high)), "measured"
        # Unmeasured stage: the bound is max_tokens; the likeliest value is this model's ratio
        # over its other stages (the `models` probe is a small extraction).
        other = [s for s in self.stage_stats.values() if s.prompt_tokens]
        mid = None
        if other:
            mean = sum(s.completion_tokens for s in other) / sum(s.prompt_tokens for s in other)
            mid = min(max(prompt.expected * mean, calls.low), cap)
        return Range(calls.low, cap, mid), "max_tokens bound"

    def llm_stage(self, stage: str, calls: Range, prompt: Range, *, max_tokens: int,
                  cached: int = 0, note: str = "", stats_stage: str | None = None
                  ) -> StageEstimate:
        """A stage of LLM calls with their prompt tokens; completion, cost and time derived."""
        if calls.high == 0:
            return StageEstimate(stage, cached_calls=cached, note=note)
        completion, source = self.completion(stats_stage or stage, calls, prompt, max_tokens)
        cost = None
        if self.prices is not None:
            cost = Range(self.prices.cost(prompt.low, completion.low),
                         self.prices.cost(prompt.high, completion.high))
        seconds = None
        if self.throughput is not None:
            parallel = max(1, self.llm.max_concurrency if self.llm is not None else 1)
            speed = self.throughput
            seconds = Range(speed.seconds(prompt.low, completion.low) / parallel,
                            speed.seconds(prompt.high, completion.high) / parallel,
                            speed.seconds(prompt.expected, completion.expected) / parallel)
        bound = "completion <= max_tokens" if source != "measured" else ""
        note = "; ".join(part for part in (note, bound) if part)
        return StageEstimate(stage, calls, cached, prompt, completion, ZERO, cost, seconds, note)

    def embedding_stage(self, stage: str, tokens: Range, *, cached: int = 0, note: str = ""
                        ) -> StageEstimate:
        """A stage of embedding calls: tokens, their price and the embedder's measured speed."""
        cost = None
        if self.embedding_prices is not None:
            cost = tokens.scaled(self.embedding_prices.prompt_per_1m / 1_000_000)
        seconds = None
        if self.embedding_throughput is not None:
            seconds = tokens.scaled(self.embedding_throughput.prompt_s)
        if tokens.high == 0:
            cost, seconds = ZERO, ZERO
        return StageEstimate(stage, cached_calls=cached, embedding_tokens=tokens, cost=cost,
                             seconds=seconds, note=note)
