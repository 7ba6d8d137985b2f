"""Token accounting per pipeline stage, with a rich table and a cost figure for the run."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields

from rich.table import Table


@dataclass
class StageUsage:
    """What one stage (extraction, summarizing, reports, ...) spent on the LLM."""

    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    counted_calls: int = 0  # calls whose server sent no usage: their tokens are our count

    def add(self, other: StageUsage) -> None:
        """Accumulate `other` into this one."""
        for item in fields(self):
            setattr(self, item.name, getattr(self, item.name) + getattr(other, item.name))


# The tallies open in the current context: tasks and threads started inside a scope inherit
# it, so concurrent queries (a server's requests) each count only their own calls.
_open_scopes: ContextVar[tuple[StageUsage, ...]] = ContextVar("usage_scopes", default=())


@contextmanager
def usage_scope() -> Iterator[StageUsage]:
    """A tally of the calls recorded inside this block (and the tasks it starts) only."""
    tally = StageUsage()
    token = _open_scopes.set((*_open_scopes.get(), tally))
    try:
        yield tally
    finally:
        _open_scopes.reset(token)


class UsageLedger:
    """Counts per stage; prices (per million tokens) turn tokens into money."""

    def __init__(
        self,
        prompt_price_per_1m: float | None = None,
        completion_price_per_1m: float | None = None,
    ) -> None:
        self.prompt_price_per_1m = prompt_price_per_1m
        self.completion_price_per_1m = completion_price_per_1m
        self._stages: dict[str, StageUsage] = {}
        self._lock = threading.Lock()

    def _stage(self, stage: str) -> StageUsage:
        return self._stages.setdefault(stage, StageUsage())

    def record_call(
        self, stage: str, prompt_tokens: int, completion_tokens: int, seconds: float,
        *, counted: bool = False,
    ) -> None:
        """One model call that returned an answer; `counted` when the tokens are our own count
        (the server reported none)."""
        call = StageUsage(calls=1, prompt_tokens=prompt_tokens,
                          completion_tokens=completion_tokens, seconds=seconds,
                          counted_calls=int(counted))
        with self._lock:
            self._stage(stage).add(call)
            for tally in _open_scopes.get():
                tally.add(call)

    def record_cache_hit(self, stage: str) -> None:
        """One answer served from the cache, at no cost."""
        with self._lock:
            self._stage(stage).cache_hits += 1

    def record_retry(self, stage: str) -> None:
        """One failed attempt that will be retried."""
        with self._lock:
            self._stage(stage).retries += 1

    def record_failure(self, stage: str) -> None:
        """One call that failed for good."""
        with self._lock:
            self._stage(stage).failures += 1

    def stages(self) -> dict[str, StageUsage]:
        """A snapshot of every stage's counts."""
        with self._lock:
            return {name: StageUsage(**vars(usage)) for name, usage in self._stages.items()}

    def total(self) -> StageUsage:
        """All stages added up."""
        total = StageUsage()
        for usage in self.stages().values():
            total.add(usage)
        return total

    def cost(self, usage: StageUsage | None = None) -> float | None:
        """Money spent (by `usage`, default all), or None when no price is configured."""
        if self.prompt_price_per_1m is None and self.completion_price_per_1m is None:
            return None
        counted = usage or self.total()
        return (
            counted.prompt_tokens * (self.prompt_price_per_1m or 0.0)
            + counted.completion_tokens * (self.completion_price_per_1m or 0.0)
        ) / 1_000_000

    def table(self, title: str = "LLM usage") -> Table:
        """A rich table: one row per stage and a total row."""
        priced = self.cost() is not None
        table = Table(title=title)
        for header in ("stage", "calls", "cache hits", "retries", "failures",
                       "prompt tok", "completion tok", "model s"):
            table.add_column(header, justify="left" if header == "stage" else "right")
        if priced:
            table.add_column("cost", justify="right")
        rows = [*self.stages().items(), ("total", self.total())]
        for name, usage in rows:
            cells = [name, f"{usage.calls:,}", f"{usage.cache_hits:,}", f"{usage.retries:,}",
                     f"{usage.failures:,}", f"{usage.prompt_tokens:,}",
                     f"{usage.completion_tokens:,}", f"{usage.seconds:,.1f}"]
            if priced:
                cells.append(f"{self.cost(usage):.4f}")
            table.add_row(*cells, style="bold" if name == "total" else None)
        counted = rows[-1][1].counted_calls
        if counted:
            table.caption = (f"Tokens of {counted:,} calls counted with the tokenizer: their"
                             " server reported no usage.")
        return table
