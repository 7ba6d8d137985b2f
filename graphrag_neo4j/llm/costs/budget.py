"""Spending limits of one run (--max-cost, --max-llm-calls), checked before each batch and call."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_neo4j.llm.costs.pricing import Prices
from graphrag_neo4j.runtime.errors import ConfigError, GraphRAGError


class BudgetExceededError(GraphRAGError):
    """The next batch or LLM call would pass the run's cost or call limit (named by `limit`)."""

    def __init__(self, message: str, limit: str = "") -> None:
        super().__init__(message)
        self.limit = limit


@dataclass
class Budget:
    """A run's limits and what it has committed so far (fresh calls only; cache hits are free).

        budget = Budget(max_cost=0.50, max_calls=200)
        budget.bind(prices)                         # once the model is known
        budget.before_call("extract", 812)          # raises BudgetExceededError at the limit
        budget.after_call(812, 812, 95)
    """

    max_cost: float | None = None
    max_calls: int | None = None
    prices: Prices | None = None
    calls: int = 0
    cost: float = 0.0

    @property
    def active(self) -> bool:
        """Whether any limit is set."""
        return self.max_cost is not None or self.max_calls is not None

    def bind(self, prices: Prices | None, model_name: str) -> None:
        """Use these prices; a cost limit without any price cannot be kept."""
        if self.max_cost is not None and prices is None:
            raise ConfigError(
                f"--max-cost needs the price of model {model_name or '(unnamed)'}, which the "
                "built-in table does not know; set llm.prompt_price_per_1m and "
                "llm.completion_price_per_1m."
            )
        self.prices = prices

    def _price(self, prompt_tokens: float, completion_tokens: float = 0.0) -> float:
        return self.prices.cost(prompt_tokens, completion_tokens) if self.prices else 0.0

    def spent(self) -> str:
        """What the run has used so far, as a phrase."""
        money = f", ${self.cost:.4f}" if self.prices is not None else ""
        return f"{self.calls:,} LLM call{'' if self.calls == 1 else 's'}{money}"

    def passes(self, calls: int, prompt_tokens: float, completion_tokens: float) -> str | None:
        """The limit that this many more calls and tokens would pass (as an option), or None."""
        return self._limit_passed(calls, self._price(prompt_tokens, completion_tokens))

    def _limit_passed(self, calls: int, cost: float) -> str | None:
        if self.max_calls is not None and self.calls + calls > self.max_calls:
            return f"--max-llm-calls {self.max_calls:,}"
        if self.max_cost is not None and self.cost + cost > self.max_cost + 1e-12:
            return f"--max-cost {self.max_cost:g} USD"
        return None

    def before_call(self, stage: str, prompt_tokens: int) -> None:
        """Commit one call of `stage`, or raise when it would pass a limit."""
        cost = self._price(prompt_tokens)
        limit = self._limit_passed(1, cost)
        if limit is not None:
            raise BudgetExceededError(
                f"Stopped before an LLM call for {stage}: it would pass {limit} "
                f"({self.spent()} used).", limit
            )
        self.calls += 1
        self.cost += cost

    async def admit(self, stage: str, prompt_tokens: int,
                    in_flight: Sequence[asyncio.Future[str]]) -> None:
        """`before_call`, but on refusal first let the calls in flight finish: they are paid
        for, and reaching the cache lets a re-run reuse them."""
        try:
            self.before_call(stage, prompt_tokens)
        except BudgetExceededError:
            if in_flight:
                await asyncio.wait(in_flight)
            raise

    def after_call(self, committed_prompt: int, prompt_tokens: int, completion_tokens: int
                   ) -> None:
        """Settle a finished call at the tokens the model reported."""
        self.cost += self._price(prompt_tokens - committed_prompt, completion_tokens)

    def before_batch(self, what: str, calls: float, cost: float) -> None:
        """Raise when a batch's least projected calls or cost would pass a limit."""
        limit = self._limit_passed(int(calls), cost)
        if limit is not None:
            projected = f"{calls:,.0f} calls" + (f", ${cost:.4f}" if self.prices else "")
            raise BudgetExceededError(
                f"Stopped before {what}: at least {projected} would pass {limit} "
                f"({self.spent()} used).", limit
            )
