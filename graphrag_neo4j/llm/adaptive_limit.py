"""How many LLM calls may be in flight: up to the setting, halved when the provider says 429.

Additive increase, multiplicative decrease (TCP's congestion rule): each rate-limited reply
halves the limit once per window of calls (the replies of calls sent before the cut do not
cut again), and every successful call raises it by 1/limit, about one per window, back up to
the configured ceiling. A provider that admits N calls at a time thus sees about N, not a
storm of retries. Neither tenacity nor the OpenAI client adapts concurrency, hence this class.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass


@dataclass
class Slot:
    """One admitted call: the window it was sent in and its outcome (set by the caller)."""

    window: int
    ok: bool = False
    rate_limited: bool = False


class AdaptiveLimit:
    """A semaphore of one event loop whose size follows the provider's 429s.

        limit = AdaptiveLimit(25)
        async with limit.slot() as slot:
            try: reply = await call(); slot.ok = True
            except RateLimitError: slot.rate_limited = True; raise
    """

    def __init__(self, ceiling: int) -> None:
        self.ceiling = max(1, ceiling)
        self.limit = float(self.ceiling)
        self.in_flight = 0
        self.cuts = 0  # also the current window's number
        self._changed = asyncio.Condition()

    @property
    def allowed(self) -> int:
        """Calls that may be in flight now."""
        return max(1, int(self.limit))

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[Slot]:
        """Wait for room, hold it for one call, then grow or cut the limit by its outcome."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.in_flight < self.allowed)
            self.in_flight += 1
        slot = Slot(self.cuts)
        try:
            yield slot
        finally:
            async with self._changed:
                self.in_flight -= 1
                self._adapt(slot)
                self._changed.notify_all()

    def _adapt(self, slot: Slot) -> None:
        if slot.ok:
            self.limit = min(float(self.ceiling), self.limit + 1.0 / self.limit)
        elif slot.rate_limited and slot.window == self.cuts:
            # The first refusal of a window cuts; the others of that window only agree.
            self.limit = max(1.0, self.limit / 2)
            self.cuts += 1
